package io.cpbench.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Host keys read from a console output as cloud-init prints it. The oracle is ssh-keygen: the fixture's keys were
 * made by it (the .pub files beside the console), and it reads back the known_hosts lines written here.
 */
class HostKeysTest {

    static final Path LAB = Path.of("src", "test", "resources", "lab");
    static final String HOST = "member-2 (i-0123456789abcdef0, 10.42.1.13)";

    static String pub(String name) throws Exception {
        String[] fields = Files.readString(LAB.resolve("console-member-2." + name + ".pub")).strip().split(" ");
        return fields[0] + " " + fields[1]; // without ssh-keygen's comment
    }

    @Test
    void theKeysAreThoseSshKeygenMadeAndNotTheFingerprintBlock() throws Exception {
        String console = Files.readString(LAB.resolve("console-member-2.txt"));

        List<HostKeys.Key> keys = HostKeys.fromConsole(HOST, console);

        assertThat(keys).extracting(k -> k.type() + " " + k.base64()).containsExactly(pub("ecdsa"), pub("ed25519"));
        assertThat(HostKeys.knownHostsLines(List.of("10.42.1.13"), keys))
                .containsExactly("10.42.1.13 " + pub("ecdsa"), "10.42.1.13 " + pub("ed25519"));
        assertThat(HostKeys.knownHostsLines(List.of("198.51.100.10", "10.42.0.10"), keys).get(1))
                .isEqualTo("198.51.100.10,10.42.0.10 " + pub("ed25519"));
    }

    /** OpenSSH itself finds the host in the lines written, with the fingerprints cloud-init printed. */
    @Test
    void sshKeygenReadsTheLinesBack(@TempDir Path dir) throws Exception {
        String console = Files.readString(LAB.resolve("console-member-2.txt"));
        Path knownHosts = Files.write(dir.resolve("known_hosts"),
                HostKeys.knownHostsLines(List.of("10.42.1.13"), HostKeys.fromConsole(HOST, console)));

        Process keygen = new ProcessBuilder("ssh-keygen", "-l", "-F", "10.42.1.13", "-f", knownHosts.toString())
                .redirectErrorStream(true).start();
        String out = new String(keygen.getInputStream().readAllBytes());
        assertThat(keygen.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(keygen.exitValue()).as(out).isZero();
        assertThat(out).contains("SHA256:ervZkKX4ImjwmkWvNHQ2eXH13IgEo37kuCilr9yhcmY", "SHA256:pL+n7Vs4hg1OtK42G0ZwpOTIXtSg11v42PUDJf69L64");
        assertThat(console).contains("SHA256:ervZkKX4ImjwmkWvNHQ2eXH13IgEo37kuCilr9yhcmY root@ip-10-42-1-13 (ED25519)");
    }

    @Test
    void aRebootsBlockCountsAndPrefixedLinesAreRead() throws Exception {
        String old = HostKeys.BEGIN + "\nssh-ed25519 " + pub("ecdsa").split(" ")[1] + "\n" + HostKeys.END + "\n";
        String console = "boot 1\n" + old + "boot 2\n" + HostKeys.BEGIN + "\n<14>ec2: " + pub("ed25519") + " root@x\n" + HostKeys.END + "\n";

        assertThat(HostKeys.fromConsole(HOST, console)).extracting(HostKeys.Key::base64).containsExactly(pub("ed25519").split(" ")[1]);
    }

    @Test
    void anythingButACompleteBlockOfKeysIsRefusedWithOneLine() throws Exception {
        String ed = pub("ed25519");
        assertThatThrownBy(() -> HostKeys.fromConsole(HOST, "[ 1.0] booting\nlogin:"))
                .hasMessage(HOST + ": its console output has no SSH host keys yet (cloud-init prints them at the end of the"
                        + " instance's first boot)");
        assertThatThrownBy(() -> HostKeys.fromConsole(HOST, HostKeys.BEGIN + "\n" + ed + "\n")) // cut off
                .hasMessageContaining("no SSH host keys yet");
        assertThatThrownBy(() -> HostKeys.fromConsole(HOST, HostKeys.BEGIN + "\n\n" + HostKeys.END))
                .hasMessage(HOST + ": its console's host key block is empty");
        assertThatThrownBy(() -> HostKeys.fromConsole(HOST, HostKeys.BEGIN + "\n" + ed + "\nrm -rf / #\n" + HostKeys.END))
                .hasMessage(HOST + ": a line in its console's host key block is not a host key: 'rm -rf / #'");
        // a type that its blob contradicts, and a blob that is not base64
        assertThatThrownBy(() -> HostKeys.fromConsole(HOST, HostKeys.BEGIN + "\nssh-rsa " + ed.split(" ")[1] + "\n" + HostKeys.END))
                .hasMessage(HOST + ": its console lists a ssh-rsa host key whose blob says 'ssh-ed25519'");
        assertThatThrownBy(() -> HostKeys.fromConsole(HOST, HostKeys.BEGIN + "\nssh-ed25519 AAAA$(x)\n" + HostKeys.END))
                .hasMessage(HOST + ": its console lists a ssh-ed25519 host key that is not base64");
    }

    @Test
    void instanceIdsAreCheckedBeforeTheyReachACommand() {
        HostKeys.checkInstanceId("member_instance_ids[0]", "i-0123456789abcdef0");
        HostKeys.checkInstanceId("member_instance_ids[0]", "i-01234567");
        assertThatThrownBy(() -> HostKeys.checkInstanceId("member_instance_ids[1]", "i-0; rm -rf /"))
                .hasMessage("member_instance_ids[1] 'i-0; rm -rf /' is not an EC2 instance ID (i- and 8 or 17 hex digits)");
        assertThatThrownBy(() -> HostKeys.checkInstanceId("member_instance_ids[1]", "--region=x"))
                .hasMessageContaining("is not an EC2 instance ID");
    }
}
