package io.cpbench.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The lab inventory: read from Terraform's output or cp-bench's own JSON, validated, turned into member commands. */
class InventoryTest {

    static final Path TERRAFORM_OUTPUT = Path.of("src", "test", "resources", "lab", "terraform-outputs.json");

    @TempDir
    Path dir;

    static String inventory(String members) {
        return "{\"format\": \"cpbench-inventory/1\", \"clusterName\": \"c\", \"members\": [" + members + "]}";
    }

    static final String THREE = "{\"host\": \"127.0.0.1\", \"port\": 5701, \"priority\": false, \"slow\": false},"
            + "{\"host\": \"127.0.0.1\", \"port\": 5702, \"priority\": true, \"slow\": false},"
            + "{\"host\": \"127.0.0.1\", \"port\": 5703, \"priority\": false, \"slow\": true}";

    @Test
    void readsTerraformsOutputAsItIs() {
        Inventory lab = Inventory.read(TERRAFORM_OUTPUT);

        assertThat(lab.clusterName()).isEqualTo("cpbench-lab");
        assertThat(lab.addresses()).containsExactly("10.42.1.11:5701", "10.42.1.12:5701", "10.42.1.13:5701",
                "10.42.1.14:5701", "10.42.1.15:5701");
        assertThat(lab.priorityIndex()).isZero();
        assertThat(lab.slowIndex()).isEqualTo(4);
        assertThat(lab.ssh().netemCommand()).isEqualTo("sudo /usr/local/bin/cpbench-netem");
        assertThat(lab.clients()).containsExactly(new Inventory.Client("10.42.0.10", "client-0"),
                new Inventory.Client("10.42.0.101", "client-1"));
    }

    @Test
    void memberCommandsAreTheLocalTopologysWithTheLabsHostsAndPriority() {
        Inventory lab = Inventory.read(TERRAFORM_OUTPUT);

        List<List<String>> commands = lab.memberCommands("/usr/bin/java", "/opt/cpbench/cpbench.jar", "/opt/cpbench/logs");

        assertThat(commands).hasSize(5);
        for (int i = 0; i < 5; i++) {
            List<String> argv = commands.get(i);
            MemberSettings settings = lab.memberSettings(i);
            // Exactly what the local topology builds for these settings, but that lab members outlive no parent.
            List<String> local = new MemberCommand("/usr/bin/java", "/opt/cpbench/cpbench.jar", TopologySpec.DEFAULT_MEMBER_JVM_OPTIONS,
                    "/opt/cpbench/logs/member-" + i + ".gc.log", settings, true).argv();
            assertThat(argv).isEqualTo(local.subList(0, local.size() - 1));
            assertThat(local.get(local.size() - 1)).isEqualTo("--exit-with-parent");
            assertThat(argv.subList(1, 1 + MemberCommand.HAZELCAST_JVM_FLAGS.size())).isEqualTo(MemberCommand.HAZELCAST_JVM_FLAGS);
            assertThat(String.join(" ", argv)).contains("--host 10.42.1.1" + (i + 1) + " --port 5701",
                    "--members 10.42.1.11:5701,10.42.1.12:5701,10.42.1.13:5701,10.42.1.14:5701,10.42.1.15:5701",
                    "--priority " + (i == 0 ? 1 : 0), "--cluster-name cpbench-lab", "-Xmx1g");
        }
        // And the member launcher reads them back into the same settings.
        MemberLauncher launcher = new MemberLauncher();
        List<String> argv = commands.get(0);
        new picocli.CommandLine(launcher).parseArgs(argv.subList(argv.indexOf(MemberLauncher.class.getName()) + 1, argv.size())
                .toArray(String[]::new));
        assertThat(launcher.settings()).isEqualTo(lab.memberSettings(0));
    }

    @Test
    void readsItsOwnFormatWithDefaults() throws IOException {
        Path file = Files.writeString(dir.resolve("inv.json"), inventory(THREE));

        Inventory inv = Inventory.read(file);

        assertThat(inv.rebalancePeriodSeconds()).isEqualTo(5);
        assertThat(inv.memberJvmOptions()).isEqualTo(TopologySpec.DEFAULT_MEMBER_JVM_OPTIONS);
        assertThat(inv.ssh()).isNull();
        assertThat(inv.priorityIndex()).isEqualTo(1);
        assertThat(inv.members().get(2).sshTarget()).isEqualTo("127.0.0.1");
        assertThat(inv.clients()).isEmpty();
    }

    @Test
    void aBadInventoryIsRefusedWithWhatIsWrong() throws IOException {
        String one = "{\"host\": \"h\", \"port\": 1, \"priority\": %s, \"slow\": %s}";
        String[][] cases = {
                {"{not json", "not JSON"},
                {"{\"format\": \"x\", \"clusterName\": \"c\", \"members\": []}", "format is 'x'"},
                {inventory(String.format(one, "true", "false")), "needs 3-9 members"},
                {inventory(THREE.replace("\"priority\": true", "\"priority\": false")), "exactly one member must have"},
                {inventory(THREE.replace("\"priority\": false, \"slow\": false", "\"priority\": true, \"slow\": false")), "exactly one member"},
                {inventory(THREE.replace("\"priority\": true, \"slow\": false", "\"priority\": true, \"slow\": true")
                        .replace("\"priority\": false, \"slow\": true", "\"priority\": false, \"slow\": false")), "must not be the priority"},
                {inventory(THREE.replace("5702", "5701")), "same host:port"},
                {inventory(THREE.replace("5703", "70000")), "port 1-65535"},
                {inventory(THREE).replace("\"clusterName\": \"c\"", "\"clusterName\": \"c\", \"extra\": 1"), "extra"},
                {inventory(THREE).replace("]}", "], \"ssh\": {\"user\": \"u\"}}"), "ssh needs a user and a netemCommand"},
                {inventory(THREE.replace("\"priority\": true", "\"priority\": null")),
                        "'members[1].priority' is missing or null; it must be true or false"},
                {inventory(THREE.replace("\"priority\": true", "\"priority\": \"yes\"")), "'members[1].priority': Cannot"},
                {inventory(THREE).replace("]}", "], \"clients\": [{\"host\": \"h\"}]}"), "client 0 needs a host and a name"},
                {inventory(THREE).replace("]}", "], \"clients\": [{\"host\": \"h\", \"name\": \"a\"},"
                        + " {\"host\": \"i\", \"name\": \"a\"}]}"), "two clients have the same name"},
        };
        for (String[] c : cases) {
            Path file = Files.writeString(dir.resolve("bad.json"), c[0]);
            assertThatThrownBy(() -> Inventory.read(file)).as(c[0]).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("inventory " + file + ": ").hasMessageContaining(c[1])
                    .hasMessageNotContaining("Feature"); // none of Jackson's advice about its own settings
        }
        assertThatThrownBy(() -> Inventory.read(dir.resolve("missing.json"))).hasMessageContaining("cannot read");
    }

    /** What would become an ssh option or a shell command on a lab host, from any field that goes there. */
    @Test
    void whatSshOrAShellWouldReadAsAnOptionOrACommandIsRefused() throws IOException {
        String ssh = "\"ssh\": {\"user\": \"%s\", \"netemCommand\": \"n\"%s}";
        String[][] cases = {
                {THREE.replaceFirst("127.0.0.1", "-oProxyCommand=touch /tmp/pwned"),
                        "member 0's host '-oProxyCommand=touch /tmp/pwned' is not a host name or IPv4 address"},
                {THREE.replaceFirst("\"slow\": false}", "\"slow\": false, \"sshHost\": \"h;reboot\"}"),
                        "member 0's sshHost 'h;reboot' is not a host name"},
                {THREE + "], \"clients\": [{\"host\": \"$(id)\", \"name\": \"client-0\"}", "client 0's host '$(id)'"},
                {THREE + "], \"clients\": [{\"host\": \"h\", \"name\": \"a b\"}", "client 0's name 'a b' must be"},
                {withSsh(String.format(ssh, "-oProxyCommand=x", "")), "ssh.user '-oProxyCommand=x' is not a user name"},
                {withSsh(String.format(ssh, "admin`id`", "")), "ssh.user 'admin`id`'"},
                {withSsh(String.format(ssh, "admin", ", \"identityFile\": \"-oProxyCommand=x\"")),
                        "ssh.identityFile '-oProxyCommand=x' must be a path"},
                {withSsh(String.format(ssh, "admin", ", \"identityFile\": \"k\\nx\"")), "ssh.identityFile 'k?x'"},
                {withSsh(String.format(ssh, "admin", ", \"knownHostsFile\": \"-oProxyCommand=x\"")),
                        "ssh.knownHostsFile '-oProxyCommand=x' must be a path"},
        };
        for (String[] c : cases) {
            Path file = Files.writeString(dir.resolve("bad.json"), c[0].startsWith("{\"format") ? c[0] : inventory(c[0]));
            assertThatThrownBy(() -> Inventory.read(file)).as(c[0]).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("inventory " + file + ": ").hasMessageContaining(c[1])
                    .satisfies(e -> assertThat(e.getMessage().lines()).hasSize(1));
        }
        String cluster = inventory(THREE).replace("\"clusterName\": \"c\"", "\"clusterName\": \"c'; rm -rf ~; '\"");
        Path file = Files.writeString(dir.resolve("bad.json"), cluster);
        assertThatThrownBy(() -> Inventory.read(file)).hasMessageContaining("clusterName 'c'; rm -rf ~; '' must be");
    }

    /** The lab's inventory pins the member hosts' keys; a hand-made one without knownHostsFile accepts them on first sight. */
    @Test
    void sshPinsHostKeysWhenTheInventoryListsThem() throws IOException {
        Inventory lab = Inventory.read(Path.of("src", "test", "resources", "lab", "terraform-outputs.json"));
        assertThat(new io.cpbench.topology.Ssh(lab, io.cpbench.topology.Ssh.Shell.PROCESS).command(1, "true"))
                .containsSubsequence("-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=/home/admin/.ssh/cpbench-lab.known_hosts")
                .doesNotContain("StrictHostKeyChecking=accept-new");
        Path handMade = Files.writeString(dir.resolve("ssh.json"), withSsh("\"ssh\": {\"user\": \"admin\", \"netemCommand\": \"n\"}"));
        assertThat(new io.cpbench.topology.Ssh(Inventory.read(handMade), io.cpbench.topology.Ssh.Shell.PROCESS).command(1, "true"))
                .contains("StrictHostKeyChecking=accept-new").noneMatch(a -> a.startsWith("UserKnownHostsFile"));
    }

    /** THREE's inventory with this ssh section. */
    private static String withSsh(String section) {
        return inventory(THREE).replace("]}", "], " + section + "}");
    }
}
