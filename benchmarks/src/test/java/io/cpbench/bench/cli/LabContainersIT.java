package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Volume;
import io.cpbench.topology.LabUserData;
import io.cpbench.topology.NeedsDocker;
import io.cpbench.topology.NeedsTerraform;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The AWS lab rehearsed on containers that stand in for its instances: each a Debian host booting systemd, with its
 * own address, sshd and the AMI's admin user (sudo without a password, as cloud-init makes it), which the lab's user
 * data, rendered by Terraform from the templates main.tf names, provisions as cloud-init would run it. Then
 * {@code infra/lab/cpbench-lab} drives them over real SSH from here, as it drives EC2: it uploads the distribution,
 * starts each member through the provisioning's systemd unit, runs the matrix on the client and fetches the results;
 * and the members' fault switch ({@code cpbench-fault}, run over SSH with sudo as chaos runs it) drops traffic with
 * iptables and kills and starts the member for real. Not covered (docs/aws-lab.md): the EC2 API (instances, console
 * output for the host keys, here read from each host directly) and netem, which this kernel lacks: the slow step is
 * shown to fail with one line. The packages the user data installs are in the image (its apt-get checks that each is
 * installed instead of reaching a mirror).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("long")
@NeedsDocker
@NeedsTerraform
class LabContainersIT {

    static final Path LAB_LOOP = Path.of("..", "infra", "lab", "cpbench-lab").toAbsolutePath().normalize();
    static final String IMAGE = "cpbench-lab-host:local";
    static final int MEMBERS = 3;
    /** Two client hosts: a load runs on an agent on each (Terraform's client_count 2). */
    static final int CLIENTS = 2;
    /**
     * The matrix's scenarios and rounds (network (a): no netem here); {@code -Dcpbench.lab.scenarios=...} and
     * {@code -Dcpbench.lab.rounds=3} run more, by hand (docs/aws-lab.md).
     */
    static final List<String> SCENARIOS = List.of(System.getProperty("cpbench.lab.scenarios", "client-leader,client-smart")
            .split(","));
    static final int ROUNDS = Integer.getInteger("cpbench.lab.rounds", 1);
    /**
     * Added to the quick matrix's own (CI's time: shorter cells, no warm-up round); {@code -Dcpbench.lab.run-options=}
     * runs the quick matrix as it is.
     */
    static final List<String> RUN_OPTIONS = List.of(System.getProperty("cpbench.lab.run-options",
            "--duration 4s --warmup-round 0s --settle 2s").split(" ")).stream().filter(o -> !o.isBlank()).toList();

    @TempDir
    static Path work;

    private Network network;
    private String prefix;
    private final List<GenericContainer<?>> members = new ArrayList<>();
    private final List<GenericContainer<?>> clients = new ArrayList<>();
    private Path userKey;
    private Path knownHosts;
    private Path outputs;

    @BeforeAll
    void hostsProvisionedAsTheInstancesAre() throws Exception {
        buildImage();
        userKey = keyPair("user-key");
        Path labKey = keyPair("lab-key");
        network = network();
        for (int i = 0; i < MEMBERS; i++) {
            members.add(host("member-" + i, memberIp(i)));
        }
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(host("client-" + i, clientIp(i)));
        }
        for (GenericContainer<?> host : hosts()) {
            // what EC2 does with the key pair named in key_name, before the user data runs
            host.copyFileToContainer(Transferable.of(Files.readString(userKey.resolveSibling("user-key.pub")), 0600),
                    "/home/admin/.ssh/authorized_keys");
            exec(host, "chown", "admin:admin", "/home/admin/.ssh/authorized_keys");
        }
        List<String> memberData = LabUserData.members(Files.createDirectories(work.resolve("tf")), MEMBERS,
                Files.readString(labKey.resolveSibling("lab-key.pub")));
        for (int i = 0; i < MEMBERS; i++) {
            assertThat(runUserData(members.get(i), memberData.get(i))).as("member-%d's user data", i)
                    .contains("lab stand-in: -y -q openjdk-17-jre-headless iproute2 installed already",
                            "Created symlink /etc/systemd/system/multi-user.target.wants/cpbench-member.service");
        }
        String clientData = LabUserData.client(work.resolve("tf"), MEMBERS);
        for (GenericContainer<?> client : clients) {
            runUserData(client, clientData);
        }
        StringBuilder pinned = new StringBuilder();
        for (GenericContainer<?> host : hosts()) {
            // the host's key as its first boot made it, read from the host, not over the network (EC2: its console)
            String[] hostKey = exec(host, "cat", "/etc/ssh/ssh_host_ed25519_key.pub").split(" ");
            pinned.append(ip(host)).append(' ').append(hostKey[0]).append(' ').append(hostKey[1]).append('\n');
        }
        knownHosts = Files.writeString(work.resolve("known_hosts"), pinned);
        outputs = writeOutputs(Files.readString(labKey));
    }

    @AfterAll
    void removeTheHosts() {
        for (GenericContainer<?> host : hosts()) {
            host.stop();
        }
        if (network != null) {
            network.close();
        }
    }

    @Test
    @Order(1)
    void theLabLoopRunsTheMatrixOnTheHostsOverSsh() throws Exception {
        Path results = work.resolve("results");
        List<String> run = new ArrayList<>(List.of("run", "--scenario", String.join(",", SCENARIOS), "--rounds",
                Integer.toString(ROUNDS), "--cluster-warmup", "5s"));
        run.addAll(RUN_OPTIONS);
        Lab lab = lab("lab-run.log", results, run.toArray(String[]::new));
        assertThat(lab.exitCode()).as(lab.log()).isZero();
        for (int i = 0; i < MEMBERS; i++) {
            assertThat(lab.log()).contains("member-" + i + " started on " + memberIp(i));
        }
        assertThat(lab.log()).contains("cluster ready", "(remote): member-0(" + memberIp(0) + ":5701, priority) leads",
                "wrote " + SCENARIOS.size() * ROUNDS + " results, table.md and summary.csv");
        String table = Files.readString(runDirectory(results, "-matrix").resolve("table.md"));
        assertThat(table.lines().filter(l -> l.contains("| (a) ")).map(l -> l.split("\\|")[1].strip() + " "
                + l.split("\\|")[l.split("\\|").length - 1].strip()))
                .containsExactlyElementsOf(SCENARIOS.stream().map(scenario -> scenario + " OK").toList());
        assertThat(table).contains("p50 (µs)");
        assertThat(results.resolve("member-logs").resolve("member-0.log")).isNotEmptyFile();
        assertThat(serviceStates()).as("the lab loop stopped every member's service").containsOnly("inactive");
    }

    /**
     * A load on an agent on each client host, the first client coordinating them over the control cluster, as
     * {@code cpbench-lab load} runs it; the members are kept for the chaos run after it.
     */
    @Test
    @Order(2)
    void theLabLoopRunsALoadOnAnAgentOnEachClient() throws Exception {
        Path results = work.resolve("load-results");
        Lab lab = lab("lab-load.log", results, "--keep-members", "load", "--clients", "2", "--threads", "4",
                "--duration", "6s", "--warmup", "1s", "--cluster-warmup", "5s", "--quiet");
        for (int i = 0; i < CLIENTS && lab.exitCode() != 0; i++) { // what each agent said, into the test's report
            Path agentLog = results.resolve("agent-logs").resolve("client-" + i + ".log");
            System.out.println("== client-" + i + "'s agent log:\n" + (Files.exists(agentLog) ? Files.readString(agentLog) : "(none)"));
        }
        assertThat(lab.exitCode()).as(lab.log()).isZero();
        for (int i = 0; i < CLIENTS; i++) {
            assertThat(lab.log()).contains("agent client-" + i + " started on " + clientIp(i));
            assertThat(results.resolve("agent-logs").resolve("client-" + i + ".log")).as("client-%d's agent log", i)
                    .isNotEmptyFile();
            assertThat(clients.get(i).execInContainer("pgrep", "-f", "cpbench.jar agent").getExitCode())
                    .as("client-%d's agent stopped by the lab loop", i).isEqualTo(1);
        }
        assertThat(lab.log()).containsPattern("OK +on 2 agents");
        assertThat(runDirectory(results, "-load")).isDirectory();
        assertThat(serviceStates()).as("--keep-members kept every member").containsOnly("active");
    }

    /**
     * Chaos on the lab, from the client as aws-lab.md gives it: the leader killed over SSH through the members' fault
     * switch and systemd, started again, and the history checked.
     */
    @Test
    @Order(3)
    void aChaosRunOnTheClientKillsTheLeaderOverSsh() throws Exception {
        Ssh chaos = direct(clientIp(), "cd /opt/cpbench && timeout 300 bin/cpbench chaos --topology remote"
                + " --inventory inventory.json --nemesis kill-leader --restart --mix increment=4,read=1,write=1"
                + " --objects 1 --clients 1 --threads 8 --duration 16s --fault-for 5s --interval 6s --cluster-warmup 5s"
                + " --quiet --out runs/chaos", Duration.ofMinutes(6));
        System.out.println("== the chaos run on the client:\n" + chaos.out());
        assertThat(chaos.exitCode()).as(chaos.out()).isZero();
        assertThat(chaos.out()).containsPattern("nemesis +[0-9.]+s +kill member \\d")
                .containsPattern("nemesis +[0-9.]+s +restarted member \\d .*, back in CP")
                .contains("linearizability: linearizable", "chaos run: OK");
        assertThat(serviceStates()).as("the killed member started again").containsOnly("active");
    }

    @Test
    @Order(4)
    void theLabLoopStopsTheMembers() throws Exception {
        Lab lab = lab("lab-stop.log", work.resolve("results"), "stop");
        assertThat(lab.exitCode()).as(lab.log()).isZero();
        assertThat(serviceStates()).containsOnly("inactive");
    }

    /**
     * The faults as chaos sends them: from the client, with the lab key and the members' pinned host keys that the
     * lab loop put there, as the inventory's {@code ssh} says.
     */
    @Test
    @Order(5)
    void theMembersFaultSwitchWorksOverSshForReal() throws Exception {
        String m0 = memberIp(0);
        String m1 = memberIp(1);
        String reach = "timeout 3 bash -c '</dev/tcp/" + m1 + "/22' && echo reached || echo unreachable";
        assertThat(exec(members.get(0), "bash", "-c", reach)).contains("reached");
        assertThat(ssh(m0, "sudo -n cpbench-fault isolate-members " + m1).exitCode()).isZero();
        assertThat(exec(members.get(0), "bash", "-c", reach)).as("isolated by iptables").contains("unreachable");
        assertThat(ssh(m0, "sudo -n cpbench-fault heal").exitCode()).isZero();
        assertThat(exec(members.get(0), "bash", "-c", reach)).as("healed").contains("reached");

        assertThat(ssh(m0, "sudo -n cpbench-fault start").exitCode()).isZero();
        assertThat(ssh(m0, "systemctl is-active cpbench-member").out().strip()).isEqualTo("active");
        assertThat(ssh(m0, "sudo -n cpbench-fault kill").exitCode()).isZero();
        String state = "";
        for (int i = 0; i < 20 && !state.equals("failed") && !state.equals("inactive"); i++) { // at most ~10 s
            Thread.sleep(500);
            state = ssh(m0, "systemctl is-active cpbench-member || true").out().strip();
        }
        assertThat(state).as("the member killed through systemd").isIn("failed", "inactive");

        Ssh slow = ssh(m0, "sudo -n cpbench-fault slow 10ms");
        assertThat(slow.exitCode()).as("netem is not in this kernel").isNotZero();
        assertThat(slow.out().strip().lines()).as(slow.out()).singleElement()
                .satisfies(line -> assertThat(line).contains("qdisc kind is unknown"));
    }

    record Ssh(int exitCode, String out) {
    }

    record Lab(int exitCode, String log) {
    }

    /** {@code infra/lab/cpbench-lab} with the stand-ins' outputs, pinned host keys and the EC2 key pair's key. */
    private Lab lab(String logName, Path results, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(LAB_LOOP.toString(), "--outputs", outputs.toString(),
                "--known-hosts", knownHosts.toString(), "--key", userKey.toString(), "--results", results.toString()));
        command.addAll(List.of(args));
        Path log = work.resolve(logName);
        Process lab = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = lab.waitFor(10, TimeUnit.MINUTES);
        if (!ended) {
            lab.descendants().forEach(ProcessHandle::destroy);
            lab.destroy();
        }
        // into the test's report, so that a failure in CI can be read
        System.out.println("== cpbench-lab " + String.join(" ", args) + ":\n" + Files.readString(log));
        assertThat(ended).as("cpbench-lab %s ends within 10 minutes", String.join(" ", args)).isTrue();
        return new Lab(lab.exitValue(), Files.readString(log));
    }

    private static Path runDirectory(Path results, String suffix) throws IOException {
        try (var dirs = Files.list(results)) {
            return dirs.filter(d -> d.getFileName().toString().endsWith(suffix)).findFirst()
                    .orElseThrow(() -> new AssertionError("no *" + suffix + " run in " + results));
        }
    }

    /** Each member's cpbench-member unit, as systemd says. */
    private List<String> serviceStates() throws Exception {
        List<String> states = new ArrayList<>();
        for (GenericContainer<?> member : members) {
            states.add(exec(member, "bash", "-c", "systemctl is-active cpbench-member || true").strip());
        }
        return states;
    }

    /** From the client to a member, with what the inventory's ssh section names (the lab key, pinned host keys). */
    private Ssh ssh(String member, String command) throws Exception {
        return direct(clientIp(), "ssh -i ~/.ssh/cpbench-lab -o BatchMode=yes -o StrictHostKeyChecking=yes"
                + " -o UserKnownHostsFile=~/.ssh/cpbench-lab.known_hosts -o ConnectTimeout=10 admin@" + member + " '" + command + "'");
    }

    private Ssh direct(String host, String command) throws Exception {
        return direct(host, command, Duration.ofSeconds(60));
    }

    private Ssh direct(String host, String command, Duration limit) throws Exception {
        Path out = Files.createTempFile(work, "ssh", ".out");
        Process p = new ProcessBuilder("ssh", "-i", userKey.toString(), "-o", "BatchMode=yes", "-o",
                "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + knownHosts, "-o", "GlobalKnownHostsFile=/dev/null",
                "-o", "ConnectTimeout=10", "admin@" + host, command).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        if (!p.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("ssh " + host + " '" + command + "' did not end within " + limit + ": "
                    + Files.readString(out));
        }
        return new Ssh(p.exitValue(), Files.readString(out));
    }

    private void buildImage() throws Exception {
        Path script = work.resolve("build-lab-host-image.sh");
        try (InputStream in = LabContainersIT.class.getResourceAsStream("/lab/build-lab-host-image.sh")) {
            Files.copy(in, script);
        }
        Process build = new ProcessBuilder("bash", script.toString(), IMAGE).redirectErrorStream(true)
                .redirectOutput(work.resolve("image.log").toFile()).start();
        assertThat(build.waitFor(15, TimeUnit.MINUTES)).as("the image is built within 15 minutes").isTrue();
        assertThat(build.exitValue()).as(Files.readString(work.resolve("image.log"))).isZero();
    }

    private static Path keyPair(String name) throws Exception {
        Path key = work.resolve(name);
        Process keygen = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", key.toString())
                .redirectErrorStream(true).start();
        assertThat(keygen.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(keygen.exitValue()).as(new String(keygen.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        return key;
    }

    /** A /24 of the test's own; Docker refuses one that overlaps another network, and the next is tried. */
    private Network network() {
        RuntimeException last = null;
        for (int k = 0; k < 32; k++) {
            String candidatePrefix = "10.214." + ((ProcessHandle.current().pid() + k) % 250) + ".";
            Network candidate = Network.builder().createNetworkCmdModifier(cmd -> cmd.withName("cpbench-lab-it-"
                    + ProcessHandle.current().pid() + "-" + System.nanoTime()).withIpam(new com.github.dockerjava.api.model.Network.Ipam()
                    .withConfig(new com.github.dockerjava.api.model.Network.Ipam.Config().withSubnet(candidatePrefix + "0/24")
                            .withGateway(candidatePrefix + "1")))).build();
            try {
                candidate.getId();
                prefix = candidatePrefix;
                return candidate;
            } catch (RuntimeException overlaps) {
                last = overlaps;
            }
        }
        throw new AssertionError("no free subnet for the lab's hosts", last);
    }

    private String memberIp(int i) {
        return prefix + (11 + i);
    }

    /** The first client, which runs the suite (and the lab loop reaches the members through). */
    private String clientIp() {
        return clientIp(0);
    }

    /** As main.tf's client_ips: the first client .10, the others .101 up. */
    private String clientIp(int i) {
        return prefix + (i == 0 ? 10 : 100 + i);
    }

    @SuppressWarnings("resource")
    private GenericContainer<?> host(String name, String ip) {
        GenericContainer<?> host = new GenericContainer<>(IMAGE)
                .withImagePullPolicy(image -> false)
                .withNetwork(network)
                .withCreateContainerCmdModifier(cmd -> {
                    cmd.withName("cpbench-lab-it-" + ProcessHandle.current().pid() + "-" + name).withHostName(name);
                    cmd.withIpv4Address(ip);
                    cmd.getHostConfig().withCapAdd(Capability.NET_ADMIN)
                            .withBinds(new Bind("/sys/fs/cgroup", new Volume("/sys/fs/cgroup"), AccessMode.ro))
                            .withTmpFs(Map.of("/run", "rw", "/run/lock", "rw"));
                })
                .waitingFor(Wait.forSuccessfulCommand("systemctl is-system-running --wait")
                        .withStartupTimeout(Duration.ofMinutes(2)));
        host.start();
        return host;
    }

    private List<GenericContainer<?>> hosts() {
        List<GenericContainer<?>> all = new ArrayList<>(members);
        all.addAll(clients);
        return all;
    }

    private static String ip(GenericContainer<?> host) {
        return host.getContainerInfo().getNetworkSettings().getNetworks().values().iterator().next().getIpAddress();
    }

    /** As cloud-init runs user data: the script as root, once, at first boot. */
    private static String runUserData(GenericContainer<?> host, String script) throws Exception {
        host.copyFileToContainer(Transferable.of(script, 0700), "/var/lib/cloud-user-data.sh");
        Container.ExecResult ran = host.execInContainer("bash", "/var/lib/cloud-user-data.sh");
        assertThat(ran.getExitCode()).as("user data on %s: %s%s", host.getContainerName(), ran.getStdout(), ran.getStderr())
                .isZero();
        assertThat(exec(host, "test", "-f", "/opt/cpbench/provisioned")).isNotNull();
        return ran.getStdout() + ran.getStderr();
    }

    private static String exec(GenericContainer<?> host, String... command) throws IOException, InterruptedException {
        Container.ExecResult r = host.execInContainer(command);
        assertThat(r.getExitCode()).as("%s on %s: %s", String.join(" ", command), host.getContainerName(), r.getStderr())
                .isZero();
        return r.getStdout();
    }

    /** What 'terraform output -json' gives for this lab (the fixture's shape), with the hosts' addresses. */
    private Path writeOutputs(String labPrivateKey) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode o = json.createObjectNode();
        o.set("client_public_ip", output(json, json.getNodeFactory().textNode(clientIp())));
        o.set("lab_private_key", output(json, json.getNodeFactory().textNode(labPrivateKey)));
        ArrayNode clientIps = json.createArrayNode();
        ArrayNode clientIds = json.createArrayNode();
        for (int i = 0; i < CLIENTS; i++) {
            clientIps.add(clientIp(i));
            clientIds.add(String.format("i-0c%015x", i));
        }
        o.set("client_public_ips", output(json, clientIps));
        o.set("client_private_ips", output(json, clientIps));
        ObjectNode inventory = json.createObjectNode().put("format", "cpbench-inventory/1").put("clusterName", "cpbench-lab")
                .put("rebalancePeriodSeconds", 5);
        inventory.putArray("memberJvmOptions").add("-Xms256m").add("-Xmx512m");
        ArrayNode memberList = inventory.putArray("members");
        ArrayNode memberIps = json.createArrayNode();
        ArrayNode ids = json.createArrayNode();
        for (int i = 0; i < MEMBERS; i++) {
            memberList.addObject().put("host", memberIp(i)).put("port", 5701).put("priority", i == 0).put("slow", false)
                    .put("sshHost", memberIp(i));
            memberIps.add(memberIp(i));
            ids.add(String.format("i-0a%015x", i));
        }
        inventory.putObject("ssh").put("user", "admin").put("identityFile", "/home/admin/.ssh/cpbench-lab")
                .put("netemCommand", "sudo /usr/local/bin/cpbench-netem")
                .put("faultCommand", "sudo /usr/local/bin/cpbench-fault")
                .put("knownHostsFile", "/home/admin/.ssh/cpbench-lab.known_hosts");
        ArrayNode clientList = inventory.putArray("clients");
        for (int i = 0; i < CLIENTS; i++) {
            clientList.addObject().put("host", clientIp(i)).put("name", "client-" + i);
        }
        o.set("inventory", output(json, inventory));
        o.set("member_private_ips", output(json, memberIps));
        o.set("member_instance_ids", output(json, ids));
        o.set("client_instance_ids", output(json, clientIds));
        o.set("region", output(json, json.getNodeFactory().textNode("us-east-1")));
        o.set("priority_member", output(json, json.getNodeFactory().numberNode(0)));
        o.set("slow_member", output(json, json.getNodeFactory().numberNode(-1)));
        o.set("ssh_user", output(json, json.getNodeFactory().textNode("admin")));
        Path file = work.resolve("outputs.json");
        json.writeValue(file.toFile(), o);
        return file;
    }

    private static ObjectNode output(ObjectMapper json, com.fasterxml.jackson.databind.JsonNode value) {
        ObjectNode o = json.createObjectNode().put("sensitive", false);
        o.set("value", value);
        return o;
    }
}
