package io.cpbench.bench.cli;

import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The AWS lab's member start-up and the remote topology, on loopback: members are started the way the lab starts
 * them ('cpbench lab member-commands' writes each command, infra/terraform/files/run-member.sh runs it), and the
 * CLI attaches to them through an inventory file, checks leadership and runs scenarios. Only the SSH, netem and AWS
 * parts of the lab are not exercised here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@org.junit.jupiter.api.Tag("long") // in CI's -Plong run: it keeps ./mvnw verify under 15 minutes
class LabLoopbackIT {

    static final Path RUN_MEMBER = Path.of("..", "infra", "terraform", "files", "run-member.sh");
    static final Path LAB_LOOP = Path.of("..", "infra", "lab", "cpbench-lab");
    static final int PRIORITY = 2;

    @TempDir
    static Path work;

    final List<Process> members = new ArrayList<>();
    Path inventory;
    List<Integer> ports;

    @BeforeAll
    void startMembersAsTheLabDoes() throws Exception {
        ports = freePorts(5);
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            list.append(i == 0 ? "" : ",").append(String.format("{\"host\": \"127.0.0.1\", \"port\": %d, \"priority\": %b, "
                    + "\"slow\": %b}", ports.get(i), i == PRIORITY, i == 4));
        }
        inventory = Files.writeString(work.resolve("inventory.json"), "{\"format\": \"cpbench-inventory/1\", "
                + "\"clusterName\": \"cpbench-loopback-lab\", \"members\": [" + list + "]}");
        Path commands = work.resolve("members");
        CliProcess.Finished written = CliProcess.run(work, 60, "lab", "member-commands", "--inventory", inventory.toString(),
                "--out", commands.toString(), "--java", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--jar", CliProcess.JAR.toAbsolutePath().toString(), "--log-dir", commands.toString());
        assertThat(written.exitCode()).as(written.stderr()).isZero();
        assertThat(written.stdout()).contains("member-2 127.0.0.1:" + ports.get(2) + " priority");
        for (int i = 0; i < 5; i++) {
            members.add(new ProcessBuilder("bash", RUN_MEMBER.toString(), commands.resolve("member-" + i + ".argv").toString())
                    .redirectErrorStream(true).redirectOutput(commands.resolve("member-" + i + ".log").toFile()).start());
        }
    }

    @AfterAll
    void stopMembers() throws InterruptedException {
        members.forEach(Process::destroy);
        for (Process member : members) {
            if (!member.waitFor(20, TimeUnit.SECONDS)) {
                member.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void theRemoteTopologyRunsScenariosOnTheLabsMembers() throws Exception {
        CliProcess.Finished run = CliProcess.run(work, 600, "matrix", "--topology", "remote", "--inventory",
                inventory.toString(), "--scenario", "client-leader,client-follower,client-smart", "--ops", "300",
                "--warmup", "200ms", "--cluster-warmup", "500ms", "--settle", "2s", "--out", "runs");

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        Path runDir;
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        List<RunResult> results = ResultFiles.readAll(List.of(runDir));
        assertThat(results).extracting(RunResult::scenario).containsExactlyInAnyOrder("client-leader", "client-follower", "client-smart");
        String priorityAddress = "127.0.0.1:" + ports.get(PRIORITY);
        for (RunResult r : results) {
            assertThat(r.status()).as(r.scenario() + ": " + r.reason()).isEqualTo(Status.OK);
            assertThat(r.cluster().topology()).isEqualTo("remote");
            assertThat(r.measured().ops()).isEqualTo(300);
            // The inventory's priority member (not member-0) leads, before and after.
            assertThat(r.leader().before().address()).isEqualTo(priorityAddress);
            assertThat(r.leader().after()).isEqualTo(r.leader().before());
        }
        RunResult leader = results.stream().filter(r -> r.scenario().equals("client-leader")).findFirst().orElseThrow();
        assertThat(leader.cluster().clientTarget()).contains("member-2 " + priorityAddress + " (leader)");
        RunResult follower = results.stream().filter(r -> r.scenario().equals("client-follower")).findFirst().orElseThrow();
        assertThat(follower.cluster().clientTarget()).contains("(follower)").doesNotContain(priorityAddress);
        // cp-bench started nothing, so it stopped nothing.
        assertThat(members).allMatch(Process::isAlive);
    }

    @Test
    void jmhRunsATrialOnTheLabsRunningMembers() throws Exception {
        List<Long> pids = members.stream().map(Process::pid).toList();
        // One trial: the folding of JMH's figures and the ratio between trials are JmhCommandIT's; here, that the forked
        // trial reaches the lab's members through the inventory, and that nothing is started or stopped.
        CliProcess.Finished run = CliProcess.run(work, 600, "jmh", "--topology", "remote", "--inventory",
                inventory.toString(), "--scenario", "client-follower", "--modes", "thrpt",
                "--warmup-iterations", "0", "--iterations", "1", "--iteration-time", "1s",
                "--cluster-warmup", "500ms", "--settle", "2s", "--no-harness-cost", "--out", "jmh-runs");

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        assertThat(run.stdout()).contains("each reaches the members in " + inventory);
        Path runDir;
        try (Stream<Path> dirs = Files.list(work.resolve("jmh-runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        List<RunResult> results = ResultFiles.readAll(List.of(runDir));
        assertThat(results).extracting(RunResult::label).containsExactly("client-follower [jmh-thrpt]");
        RunResult r = results.get(0);
        String priorityAddress = "127.0.0.1:" + ports.get(PRIORITY);
        assertThat(r.status()).as(r.label() + ": " + r.reason()).isEqualTo(Status.OK);
        assertThat(r.cluster().topology()).isEqualTo("remote");
        assertThat(r.measured().opsPerSecond()).isGreaterThan(0);
        assertThat(r.leader().before().address()).isEqualTo(priorityAddress);
        assertThat(r.leader().after()).isEqualTo(r.leader().before());
        assertThat(r.cluster().clientTarget()).contains("(follower)").doesNotContain(priorityAddress);
        assertThat(r.cluster().name()).isEqualTo("cpbench-loopback-lab");
        // The lab's member processes were used, not restarted.
        assertThat(members).allMatch(Process::isAlive);
        assertThat(members.stream().map(Process::pid).toList()).isEqualTo(pids);
    }

    @Test
    void theLabLoopRunsJmhOnTheClient() throws Exception {
        String out = dryRun("jmh", "--scenario", "client-leader");
        List<String> lines = out.lines().toList();
        int jmh = indexOf(lines, "\\+ ssh admin@198.51.100.10 .*bin/cpbench jmh --topology remote --inventory inventory.json"
                + " --out runs --quick --scenario client-leader");
        assertThat(jmh).as(out).isNotNegative();
        // every member (re)started before the trials (a member's private address, reached through the client)
        for (int i = 1; i <= 5; i++) {
            assertThat(indexOf(lines, "\\+ ssh admin@10\\.42\\.1\\.1" + i + " " + UNPACK
                    + " && sudo systemctl restart cpbench-member.*")).as(out).isNotNegative().isLessThan(jmh);
        }
        assertThat(indexOf(lines, "\\+ scp -r admin@198.51.100.10:/opt/cpbench/runs/\\. .*")).isGreaterThan(jmh);
    }

    /** Options add to --quick ('run --rounds 5' is not the full 500,000-op matrix); --full drops it. */
    @Test
    void theLabLoopsOptionsAddToQuickUnlessFullIsGiven() throws Exception {
        String matrix = "\\+ ssh admin@198.51.100.10 .*bin/cpbench matrix --topology remote --inventory inventory.json --out runs";
        String out = dryRun("run", "--rounds", "5");
        assertThat(indexOf(out.lines().toList(), matrix + " --quick --rounds 5")).as(out).isNotNegative();
        out = dryRun("run", "--full", "--rounds", "5");
        assertThat(indexOf(out.lines().toList(), matrix + " --rounds 5")).as(out).isNotNegative();
        assertThat(out).doesNotContain("--quick").doesNotContain("--full");
        out = dryRun("run", "--quick", "--rounds", "2");
        assertThat(indexOf(out.lines().toList(), matrix + " --quick --rounds 2")).as(out).isNotNegative();
    }

    @Test
    void networkBNeedsAnInventoryWithSsh() throws Exception {
        CliProcess.Finished run = CliProcess.run(work, 120, "run", "--topology", "remote", "--inventory",
                inventory.toString(), "--scenario", "client-leader-1follower10ms");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr().strip()).startsWith("cpbench: ").contains("inventory that has an ssh section")
                .doesNotContain("Exception");
    }

    @Test
    void anInventoryThatGetsThePriorityMemberWrongIsRefused() throws Exception {
        Path wrong = Files.writeString(work.resolve("wrong.json"), Files.readString(inventory)
                .replace("\"priority\": true", "\"priority\": false")
                .replaceFirst("\"priority\": false", "\"priority\": true"));

        CliProcess.Finished run = CliProcess.run(work, 120, "run", "--topology", "remote", "--inventory", wrong.toString(),
                "--scenario", "client-leader", "--ops", "10");

        assertThat(run.exitCode()).isEqualTo(1);
        // Progress lines may come first ("connecting: 5s elapsed"); the error is the last line.
        assertThat(run.stderr().strip().lines().reduce((a, b) -> b).orElse("")).startsWith("cpbench: the inventory gives 127.0.0.1:" + ports.get(0)
                + " leadership priority, but the members report 127.0.0.1:" + ports.get(PRIORITY)).doesNotContain("\tat ");
    }

    /** How the lab unpacks the distribution on a host (a regex). */
    static final String UNPACK = "tar -xzf /opt/cpbench/cpbench\\.tar\\.gz --strip-components=1 -C /opt/cpbench";

    @Test
    void theLabLoopUploadsStartsRunsAndFetchesInThatOrder() throws Exception {
        String out = dryRun("run", "--scenario", "client-leader");
        List<String> lines = out.lines().toList();
        for (int i = 1; i <= 5; i++) {
            String host = "admin@10.42.1.1" + i; // a member's private address: ssh reaches it through the client
            int upload = indexOf(lines, "\\+ scp .*member-" + (i - 1) + "\\.argv " + host + ":/opt/cpbench/member.argv");
            // the distribution the build made, unpacked where the member's command line runs lib/cpbench.jar from
            int dist = indexOf(lines, "\\+ scp .*/benchmarks/target/cpbench-[^/ ]+\\.tar\\.gz " + host
                    + ":/opt/cpbench/cpbench\\.tar\\.gz");
            assertThat(dist).as(out).isNotNegative().isLessThan(upload);
            int start = indexOf(lines, "\\+ ssh " + host + " " + UNPACK + " && sudo systemctl restart cpbench-member.*");
            int stop = indexOf(lines, "\\+ ssh " + host + " sudo systemctl stop cpbench-member.*");
            assertThat(upload).as(out).isNotNegative().isLessThan(start);
            assertThat(start).isLessThan(indexOf(lines, "\\+ ssh admin@198.51.100.10 .*bin/cpbench matrix --topology remote "
                    + "--inventory inventory.json --out runs --quick --scenario client-leader"));
            assertThat(stop).isGreaterThan(indexOf(lines, "\\+ scp -r admin@198.51.100.10:/opt/cpbench/runs/\\. .*"));
        }
        // the client gets the inventory alone (the outputs hold the lab's key), and the key on ssh's standard input
        int matrix = indexOf(lines, "\\+ ssh admin@198.51.100.10 .*bin/cpbench matrix .*");
        assertThat(indexOf(lines, "\\+ scp .*/inventory\\.json admin@198\\.51\\.100\\.10:/opt/cpbench/inventory\\.json"))
                .as(out).isNotNegative().isLessThan(matrix);
        assertThat(out).doesNotContain("terraform-outputs.json admin@").doesNotContain("PRIVATE KEY");
        assertThat(indexOf(lines, "\\+ ssh admin@198\\.51\\.100\\.10 umask 077 && mkdir -p ~/\\.ssh && cat > ~/\\.ssh/cpbench-lab.*"))
                .as(out).isNotNegative().isLessThan(matrix);
        // host keys pinned from each instance's console, never learned; members reached through the client
        for (String id : List.of("i-0a00000000000000a", "i-0a00000000000000e", "i-0c00000000000000b")) {
            assertThat(indexOf(lines, "\\+ aws ec2 get-console-output --region us-east-1 --instance-id " + id + " --latest .*"))
                    .as(out).isNotNegative().isLessThan(indexOf(lines, "\\+ ssh admin@10\\.42\\.1\\.11 .*"));
        }
        assertThat(out).contains("  |   StrictHostKeyChecking yes\n", "  | Host 10.42.1.11 10.42.1.12 10.42.1.13 10.42.1.14 10.42.1.15\n"
                + "  |   ProxyJump admin@198.51.100.10\n", "  |   GlobalKnownHostsFile /dev/null\n").doesNotContain("accept-new");
        assertThat(indexOf(lines, "\\+ ssh admin@198\\.51\\.100\\.10 umask 077 && mkdir -p ~/\\.ssh && cat > ~/\\.ssh/cpbench-lab\\.known_hosts.*"))
                .as(out).isNotNegative().isLessThan(matrix);
    }

    /** What the lab loop copies to the client: the inventory alone, and the key only when asked for by name. */
    @Test
    void theInventoryGoesAloneAndTheKeyOnlyOnItsOwn() throws Exception {
        Path outputs = Path.of("..", "topology", "src", "test", "resources", "lab", "terraform-outputs.json").toAbsolutePath();
        CliProcess.Finished inventory = CliProcess.run(work, 60, "lab", "inventory", "--outputs", outputs.toString());
        assertThat(inventory.exitCode()).as(inventory.stderr()).isZero();
        assertThat(inventory.stdout()).contains("\"format\" : \"cpbench-inventory/1\"").doesNotContain("PRIVATE KEY")
                .doesNotContain("client_public_ip");
        CliProcess.Finished key = CliProcess.run(work, 60, "lab", "key", "--outputs", outputs.toString());
        assertThat(key.exitCode()).as(key.stderr()).isZero();
        assertThat(key.stdout()).startsWith("-----BEGIN OPENSSH PRIVATE KEY-----\n").endsWith("-----END OPENSSH PRIVATE KEY-----\n");

        // a host that ssh would read as an option never reaches the lab loop's commands
        Path planted = work.resolve("planted-outputs.json");
        java.nio.file.Files.writeString(planted, java.nio.file.Files.readString(outputs)
                .replace("\"10.42.1.12\"", "\"-oProxyCommand=touch /tmp/pwned\""));
        CliProcess.Finished hosts = CliProcess.run(work, 60, "lab", "hosts", "--outputs", planted.toString());
        assertThat(hosts.exitCode()).isEqualTo(2);
        assertThat(hosts.stdout()).isEmpty();
        assertThat(hosts.stderr().strip()).isEqualTo("cpbench: --outputs " + planted + ": member_private_ips[1]"
                + " '-oProxyCommand=touch /tmp/pwned' is not a host name or IPv4 address (letters, digits, '.' and '-',"
                + " starting with a letter or digit)");
    }

    @Test
    void theLabLoopStartsAnAgentOnEveryClientThenTheCoordinatorOnTheFirstAndStopsThemAfterFetching() throws Exception {
        String out = dryRun("load", "--clients", "2", "--duration", "10s");
        List<String> lines = out.lines().toList();
        int coordinator = indexOf(lines, "\\+ ssh admin@198.51.100.10 .*bin/cpbench load --topology remote --inventory"
                + " inventory.json --agent-hosts 10.42.0.10:5801,10.42.0.101:5801 --control-bind 10.42.0.10 --out runs"
                + " --clients 2 --duration 10s");
        int fetch = indexOf(lines, "\\+ scp -r admin@198.51.100.10:/opt/cpbench/runs/\\. .*");
        assertThat(coordinator).as(out).isNotNegative();
        String[][] agents = {{"198.51.100.10", "10.42.0.10", "client-0"}, {"198.51.100.101", "10.42.0.101", "client-1"}};
        for (String[] agent : agents) {
            int start = indexOf(lines, "\\+ ssh admin@" + agent[0].replace(".", "\\.") + " .*bin/cpbench agent --control"
                    + " 10.42.0.10:5801,10.42.0.101:5801 --bind " + agent[1] + " --name " + agent[2] + " .*");
            // stopped, and waited for until gone (SIGKILL after 20 s)
            int stop = indexOf(lines, "\\+ ssh admin@" + agent[0].replace(".", "\\.") + " pkill -f '\\[c\\]pbench.jar agent' \\|\\| true;"
                    + " for _ in \\$\\(seq 20\\); do pgrep -f '\\[c\\]pbench.jar agent' > /dev/null \\|\\| break; sleep 1; done;"
                    + " pkill -9 -f '\\[c\\]pbench.jar agent' \\|\\| true");
            assertThat(start).as(out).isNotNegative().isLessThan(coordinator);
            assertThat(stop).as(out).isGreaterThan(fetch);
        }
    }

    /** The lab loop's printed commands for {@code args}, against the test's Terraform outputs; it must exit 0. */
    private static String dryRun(String... args) throws Exception {
        Path outputs = Path.of("..", "topology", "src", "test", "resources", "lab", "terraform-outputs.json").toAbsolutePath();
        List<String> command = new ArrayList<>(List.of("bash", LAB_LOOP.toString(), "--dry-run", "--outputs", outputs.toString()));
        command.addAll(List.of(args));
        Process loop = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(loop.getInputStream().readAllBytes());
        assertThat(loop.waitFor(300, TimeUnit.SECONDS)).isTrue();
        assertThat(loop.exitValue()).as(out).isZero();
        return out;
    }

    private static int indexOf(List<String> lines, String regex) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).matches(regex)) {
                return i;
            }
        }
        return -1;
    }

    /** Free ports below the usual ephemeral range, so no other socket takes one meanwhile. */
    private static List<Integer> freePorts(int n) throws IOException {
        List<Integer> free = new ArrayList<>();
        for (int port = 17_701; free.size() < n && port < 20_000; port++) {
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
                free.add(socket.getLocalPort());
            } catch (IOException taken) {
                // Try the next.
            }
        }
        if (free.size() < n) {
            throw new IOException("no " + n + " free ports in 17701-19999");
        }
        return free;
    }
}
