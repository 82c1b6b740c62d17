package io.cpbench.bench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cpbench lab hosts} and {@code cpbench lab known-hosts} on the test's Terraform outputs: what the lab loop
 * reads to reach the hosts, and the pinned keys it gives ssh. The console outputs are cloud-init's layout around
 * keys ssh-keygen made (topology's fixture).
 */
class LabHostsTest {

    static final Path OUTPUTS = Path.of("..", "topology", "src", "test", "resources", "lab", "terraform-outputs.json");
    static final Path CONSOLE = Path.of("..", "topology", "src", "test", "resources", "lab", "console-member-2.txt");
    static final List<String> MEMBERS = List.of("i-0a00000000000000a", "i-0a00000000000000b", "i-0a00000000000000c",
            "i-0a00000000000000d", "i-0a00000000000000e");
    static final List<String> CLIENTS = List.of("i-0c00000000000000a", "i-0c00000000000000b");

    @TempDir
    Path dir;

    @org.junit.jupiter.api.extension.RegisterExtension
    final ConsoleCapture console = new ConsoleCapture();

    private int run(String... args) {
        console.reset();
        return CpBench.execute(args);
    }

    /** Each instance's console: cloud-init's, with this host's own (made-up but well-formed) ed25519 key. */
    private Path consoles(List<String> ids) throws Exception {
        Path consoles = Files.createDirectories(dir.resolve("consoles"));
        String template = Files.readString(CONSOLE);
        for (String id : ids) {
            Files.writeString(consoles.resolve(id + ".txt"), template.replaceFirst("(?m)^ssh-ed25519 \\S+", "ssh-ed25519 " + key(id)));
        }
        return consoles;
    }

    /** An ssh-ed25519 public key blob (type string, then 32 bytes), the last bytes from the instance ID. */
    static String key(String id) {
        java.nio.ByteBuffer blob = java.nio.ByteBuffer.allocate(4 + 11 + 4 + 32);
        blob.putInt(11).put("ssh-ed25519".getBytes(StandardCharsets.US_ASCII)).putInt(32);
        byte[] point = new byte[32];
        byte[] tail = id.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(tail, 0, point, 32 - tail.length, tail.length);
        blob.put(point);
        return java.util.Base64.getEncoder().encodeToString(blob.array());
    }

    @Test
    void hostsListsPrivateMemberAddressesAndEveryInstance() {
        assertThat(run("lab", "hosts", "--outputs", OUTPUTS.toString())).as(console.err()).isZero();

        assertThat(console.out().lines()).containsExactly("user admin", "region us-east-1",
                "client 198.51.100.10", "member 0 10.42.1.11", "member 1 10.42.1.12", "member 2 10.42.1.13",
                "member 3 10.42.1.14", "member 4 10.42.1.15", "agent 0 198.51.100.10 10.42.0.10",
                "agent 1 198.51.100.101 10.42.0.101", "instance i-0a00000000000000a", "instance i-0a00000000000000b",
                "instance i-0a00000000000000c", "instance i-0a00000000000000d", "instance i-0a00000000000000e",
                "instance i-0c00000000000000a", "instance i-0c00000000000000b");
    }

    @Test
    void knownHostsPinsEachHostsOwnKeysUnderEachOfItsAddresses() throws Exception {
        Path consoles = consoles(java.util.stream.Stream.concat(MEMBERS.stream(), CLIENTS.stream()).toList());

        assertThat(run("lab", "known-hosts", "--outputs", OUTPUTS.toString(), "--console-dir", consoles.toString()))
                .as(console.err()).isZero();

        List<String> lines = console.out().lines().toList();
        String ecdsa = Files.readString(CONSOLE).lines().filter(l -> l.startsWith("ecdsa-sha2-nistp256 ")).findFirst()
                .orElseThrow().split(" ")[1];
        assertThat(lines).hasSize(14) // two keys for each of 7 hosts
                .contains("198.51.100.10,10.42.0.10 ssh-ed25519 " + key("i-0c00000000000000a"),
                        "198.51.100.101,10.42.0.101 ssh-ed25519 " + key("i-0c00000000000000b"),
                        "10.42.1.11 ssh-ed25519 " + key("i-0a00000000000000a"),
                        "10.42.1.15 ssh-ed25519 " + key("i-0a00000000000000e"),
                        "10.42.1.13 ecdsa-sha2-nistp256 " + ecdsa);
    }

    @Test
    void anInstanceStillBootingIsNamedWithOneLine() throws Exception {
        Path consoles = consoles(java.util.stream.Stream.concat(MEMBERS.stream(), CLIENTS.stream()).toList());
        Files.writeString(consoles.resolve("i-0a00000000000000c.txt"), "[ 3.9] cloud-init[402]: running 'init-local'\n");

        assertThat(run("lab", "known-hosts", "--outputs", OUTPUTS.toString(), "--console-dir", consoles.toString())).isEqualTo(2);

        assertThat(console.out()).isEmpty();
        assertThat(console.err().strip()).isEqualTo("cpbench: member-2 (i-0a00000000000000c,"
                + " 10.42.1.13): its console output has no SSH host keys yet (cloud-init prints them at the end of the"
                + " instance's first boot)");
        Files.delete(consoles.resolve("i-0a00000000000000c.txt"));
        assertThat(run("lab", "known-hosts", "--outputs", OUTPUTS.toString(), "--console-dir", consoles.toString())).isEqualTo(2);
        assertThat(console.err().strip()).startsWith("cpbench: member-2 (i-0a00000000000000c,"
                + " 10.42.1.13): no console output at ").doesNotContain("\tat ");
    }

    @Test
    void aPlantedInstanceIdOrRegionNeverReachesTheAwsCommand() throws Exception {
        Path planted = Files.writeString(dir.resolve("planted.json"), Files.readString(OUTPUTS)
                .replace("\"i-0a00000000000000b\"", "\"i-0a0; touch /tmp/pwned\""));
        assertThat(run("lab", "hosts", "--outputs", planted.toString())).isEqualTo(2);
        assertThat(console.out()).isEmpty();
        assertThat(console.err().strip()).isEqualTo("cpbench: --outputs " + planted
                + ": member_instance_ids[1] 'i-0a0; touch /tmp/pwned' is not an EC2 instance ID (i- and 8 or 17 hex digits)");

        Path region = Files.writeString(dir.resolve("region.json"), Files.readString(OUTPUTS)
                .replace("\"us-east-1\"", "\"--endpoint-url=http://evil\""));
        assertThat(run("lab", "hosts", "--outputs", region.toString())).isEqualTo(2);
        assertThat(console.err().strip()).isEqualTo("cpbench: --outputs " + region
                + ": region '--endpoint-url=http://evil' is not an AWS region");
    }
}
