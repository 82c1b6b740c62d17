package io.cpbench.bench.cli;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.cpbench.bench.agents.ControlSecret;
import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The control cluster of {@code load --agents 2} against strangers on the same host, as real processes and real
 * Hazelcast instances: a plain Hazelcast client (with the cluster's true name, even), and a plain member with the
 * name the control cluster used to have, cannot connect, join, list the agents, run a task or publish a stop; a member
 * that has the control cluster's name (read off the wire) but not the secret joins, yet cannot make an agent
 * deserialize a class that is not on the allow-list, nor run a job or stop a run without the secret's seal. The run
 * goes on untouched, and no log, output or command line shows the secret or the name made from it.
 */
@SharedCluster.Uses
class ControlStrangersIT {

    private static final Pattern JOINED = Pattern.compile("joined the control cluster at \\[?([0-9.]+)]?:(\\d+)");

    @TempDir
    Path work;

    @Test
    void strangersCannotJoinListRunOrStopAndTheRunGoesOnUntouched() throws Exception {
        CliProcess cli = CliProcess.start(work, SharedCluster.with("load", "--agents", "2", "--mix", "cas", "--clients", "2",
                "--threads", "1", "--rate", "100", "--duration", "40s", "--warmup", "1s", "--cluster-warmup", "0s", "--scenario",
                "client-smart", "--settle", "2s", "--out", "runs"));
        List<String> refusals = new ArrayList<>();
        String secretHex;
        String clusterName;
        try {
            assertThat(cli.awaitStderr("[2/2 agents]", 180)).as(cli.stdoutSoFar()).isTrue();
            Path agents = runDir().resolve("agents");
            Path secretFile = agents.resolve("control.secret");
            assertThat(Files.getPosixFilePermissions(secretFile)).extracting(Object::toString)
                    .containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE");
            secretHex = Files.readString(secretFile).strip();
            clusterName = ControlSecret.read(secretFile).clusterName();
            Matcher joined = joined(agents.resolve("agent-1.log"));
            String agentAddress = joined.group(1) + ":" + joined.group(2);
            // no command line shows the secret or the name made from it: 'ps' shows them to every user
            for (ProcessHandle p : cli.descendants()) {
                String line = p.info().commandLine().orElse("");
                assertThat(line).doesNotContain(secretHex).doesNotContain(clusterName);
            }

            // 1. A plain client, even with the true cluster name: the control cluster takes no client connections.
            for (String name : List.of("cpbench-control", clusterName)) {
                ClientConfig config = new ClientConfig().setClusterName(name);
                config.getNetworkConfig().addAddress(agentAddress);
                config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(4_000);
                config.setProperty("hazelcast.logging.type", "none");
                assertThatThrownBy(() -> HazelcastClient.newHazelcastClient(config).shutdown())
                        .as("a client named " + (name.equals(clusterName) ? "as the control cluster" : name))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("Unable to connect");
                refusals.add("client (" + (name.equals(clusterName) ? "true name" : name) + "): could not connect");
            }

            // 2. A plain member with another name: it is not let in, so it sees no agent and reaches none.
            HazelcastInstance stranger = member("cpbench-control", agentAddress, null, null, 5);
            try {
                assertThat(stranger.getCluster().getMembers()).as("the stranger's view").hasSize(1);
                stranger.getTopic("cpbench-stops").publish("any run");
                assertThat(stranger.getExecutorService("cpbench-agents").submitToAllMembers(new Intruder()))
                        .as("a task to all members reaches the stranger itself alone").hasSize(1);
                refusals.add("member (wrong name): alone in a cluster of its own");
            } finally {
                stranger.shutdown();
            }

            // 3. A member with the control cluster's name (as one who read it off the wire would have it) but not the
            // secret: it joins, yet a type off the allow-list is not deserialized, and a job or a stop that it cannot
            // seal is refused; the agent stays and the run goes on.
            HazelcastInstance insider = member(clusterName, agentAddress);
            try {
                assertThat(insider.getCluster().getMembers().size()).as("the insider joined").isEqualTo(4);
                var agent1 = insider.getCluster().getMembers().stream()
                        .filter(m -> "agent-1".equals(m.getAttribute("cpbench.name"))).findFirst().orElseThrow();
                assertThatThrownBy(() -> insider.getExecutorService("cpbench-agents").submitToMember(new Intruder(), agent1)
                        .get(20, TimeUnit.SECONDS))
                        .as("a task of a class off the allow-list").hasStackTraceContaining("is not allowed");
                refusals.add("task off the allow-list: not deserialized");

                // the run id, overheard: sealed messages are signed, not encrypted
                java.util.concurrent.CompletableFuture<String> overheard = new java.util.concurrent.CompletableFuture<>();
                insider.<String>getTopic("cpbench-intervals").addMessageListener(m -> {
                    Matcher run = Pattern.compile("\"run\":\"([^\"]+)\"").matcher(m.getMessageObject());
                    if (run.find()) {
                        overheard.complete(run.group(1));
                    }
                });
                String runId = overheard.get(30, TimeUnit.SECONDS);
                String job = "{\"run\":\"" + runId + "-2\",\"agent\":\"agent-1\",\"spec\":\"{}\",\"scenario\":\"client-smart\","
                        + "\"target\":{\"clusterName\":\"x\",\"addresses\":[\"127.0.0.1:1\"],\"connectMs\":1000,"
                        + "\"failover\":\"DEFAULT\"},\"offsetMicros\":0,\"history\":false}";
                String forged = job + "|" + Long.MAX_VALUE + "|" + "0".repeat(64);
                for (String text : List.of(job, forged)) {
                    String answer = insider.getExecutorService("cpbench-agents")
                            .submitToMember(io.cpbench.bench.agents.Strangers.taskCarrying(text), agent1)
                            .get(20, TimeUnit.SECONDS);
                    assertThat(answer).as("a job to load another address").contains("refused a job not sealed");
                }
                refusals.add("jobs without the seal, or with a forged one: refused");
                insider.getTopic("cpbench-stops").publish(runId);
                insider.getTopic("cpbench-stops").publish(runId + "|" + Long.MAX_VALUE + "|" + "0".repeat(64));
                refusals.add("stops of the overheard run id, unsealed and forged: refused");

                // 4. A job sealed with the secret for agent-1 (as one read off the wire would be), sent to agent-2
                // instead: refused, as a job for another agent, and the answer is sealed for this run and agent-2
                var agent2 = insider.getCluster().getMembers().stream()
                        .filter(m -> "agent-2".equals(m.getAttribute("cpbench.name"))).findFirst().orElseThrow();
                ControlSecret secret = ControlSecret.read(secretFile(agents));
                String forAgent1 = job.replace("\"history\":false}", "\"history\":false,\"agentMember\":\""
                        + agent1.getUuid() + "\",\"coordinator\":\"" + java.util.UUID.randomUUID() + "\"}");
                String replayed = insider.getExecutorService("cpbench-agents")
                        .submitToMember(io.cpbench.bench.agents.Strangers.taskCarrying(secret.seal(forAgent1,
                                java.time.Duration.ofSeconds(60))), agent2).get(20, TimeUnit.SECONDS);
                assertThat(secret.open(replayed)).as("agent-2's sealed answer")
                        .startsWith("cpbench-report " + runId + "-2 agent-2 " + agent2.getUuid())
                        .contains("refused a job for agent-1 (member " + agent1.getUuid() + "), not for this agent, agent-2");
                refusals.add("a sealed job for agent-1, replayed to agent-2: refused");
            } finally {
                insider.shutdown();
            }

            // 5. Members with the name that say (by their attributes) they are the coordinator, or agent-1, join and
            // leave: attributes are what a member says of itself, so neither stops the run nor takes agent-1's place
            // ... nor, as a new agent, gets a share of the load: it is not admitted, so it is sent no job and nothing it
            // says is merged (the result below has agent-1's and agent-2's numbers only)
            for (String[] claim : List.of(new String[]{"coordinator", "coordinator"}, new String[]{"agent", "agent-1"},
                    new String[]{"agent", "agent-3"})) {
                HazelcastInstance pretender = member(clusterName, agentAddress, claim[0], claim[1]);
                try {
                    assertThat(pretender.getCluster().getMembers().size()).as("the pretender joined").isEqualTo(4);
                    Thread.sleep(2_000);
                } finally {
                    pretender.shutdown();
                }
                refusals.add("a member calling itself " + claim[1] + " joined and left: nothing stopped");
            }
            // 6. Cluster.shutdown() and a change to PASSIVE, which any member may ask for in open-source Hazelcast:
            // the change carries the new state as a Java-serialized enum, off the allow-list, so the control members
            // refuse to take part and nothing is shut down
            HazelcastInstance shutter = member(clusterName, agentAddress);
            try {
                assertThatThrownBy(() -> shutter.getCluster().changeClusterState(com.hazelcast.cluster.ClusterState.PASSIVE))
                        .as("PASSIVE").hasStackTraceContaining("Resolving class com.hazelcast.cluster.ClusterState is not allowed");
                assertThatThrownBy(() -> shutter.getCluster().shutdown()).as("Cluster.shutdown()")
                        .hasStackTraceContaining("Resolving class com.hazelcast.cluster.ClusterState is not allowed");
                refusals.add("Cluster.shutdown() and PASSIVE from a member with the name: refused by the control members");
            } finally {
                shutter.shutdown();
            }
            Thread.sleep(2_000); // the leaving seen by all (heartbeats every second)
            assertThat(cli.stdoutSoFar() + cli.stderrSoFar()).as("the run was not stopped")
                    .doesNotContain("left the control cluster mid-run").doesNotContain("stopped before the end");
        } finally {
            refusals.forEach(r -> System.out.println("refused: " + r));
        }
        CliProcess.Finished finished = cli.finish(120);
        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.OK);
        RunResult r = CliProcess.onlyResult(work.resolve("runs"));
        assertThat(r.status()).as(r.reason()).isEqualTo(Status.OK);
        LoadResult load = r.load();
        assertThat(load.agents()).extracting(LoadResult.AgentRow::agent).containsExactly("agent-1", "agent-2");
        assertThat(load.agents()).allSatisfy(a -> assertThat(a.all().ops()).as(a.agent()).isGreaterThan(0));
        assertThat(load.total().all().ops()).isEqualTo(load.agents().stream().mapToLong(a -> a.all().ops()).sum());
        // nothing shows the secret or its name: not the output, not the agents' logs; the local secret is gone
        Path agents = runDir().resolve("agents");
        assertThat(agents.resolve("control.secret")).doesNotExist();
        List<String> texts = new ArrayList<>(List.of(finished.stdout(), finished.stderr()));
        try (Stream<Path> logs = Files.list(agents)) {
            for (Path log : logs.toList()) {
                texts.add(Files.readString(log));
            }
        }
        // the refusal, in agent-1's log: one line
        List<String> refusedThere = Files.readString(agents.resolve("agent-1.log")).lines()
                .filter(l -> l.contains("Intruder")).toList();
        refusedThere.forEach(l -> System.out.println("agent-1 logged: " + l));
        assertThat(refusedThere).hasSize(1).allMatch(l -> l.contains("is not allowed"));
        List<String> sealsRefused = Files.readString(agents.resolve("agent-1.log")).lines()
                .filter(l -> l.contains("refused a")).toList();
        sealsRefused.forEach(l -> System.out.println("agent-1 logged: " + l));
        assertThat(sealsRefused).filteredOn(l -> l.contains("refused a job not sealed")).hasSize(2);
        assertThat(sealsRefused).filteredOn(l -> l.contains("refused a stop not sealed")).hasSize(2);
        List<String> agent2Log = Files.readString(agents.resolve("agent-2.log")).lines().toList();
        agent2Log.stream().filter(l -> l.contains("refused a") || l.contains("nothing stopped"))
                .forEach(l -> System.out.println("agent-2 logged: " + l));
        assertThat(agent2Log).filteredOn(l -> l.contains("refused a job for agent-1")).hasSize(1);
        assertThat(Files.readString(agents.resolve("agent-1.log"))).as("the pretender coordinator's leaving, heard")
                .contains("a member that called itself a coordinator left (it sent this agent no run in progress):"
                        + " nothing stopped").doesNotContain("the coordinator left the control cluster; stopping its run");
        assertThat(Files.readString(agents.resolve("agent-1.log"))).doesNotContain("\tat com.hazelcast");
        for (String text : texts) {
            assertThat(text).doesNotContain(secretHex).doesNotContain(clusterName)
                    .doesNotContain(clusterName.substring("cpbench-control-".length()));
        }
        System.out.println("the run: " + finished.stdout().lines().filter(l -> l.contains("op/s")).findFirst().orElse(""));
        assertThat(HexFormat.of().parseHex(secretHex)).hasSize(32);
    }

    private Path runDir() throws Exception {
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            return dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    /**
     * The "joined the control cluster at" line of an agent's log, waited for: the coordinator may admit an agent (it
     * answers the challenge as soon as its member has joined) before Hazelcast's start returns and the agent writes
     * that line. On a new machine with a run queue of 10-50 on 2 cores (rehearsal R16, stop 79) the line was not there
     * 30 s after the admission; the wait is 90 s now, and a timeout shows the log.
     */
    private static Matcher joined(Path log) {
        try {
            return org.awaitility.Awaitility.await(log.getFileName() + "'s joined line").atMost(java.time.Duration.ofSeconds(90))
                    .pollInterval(java.time.Duration.ofMillis(200)).until(() -> {
                        Matcher m = JOINED.matcher(Files.readString(log));
                        return m.find() ? m : null;
                    }, java.util.Objects::nonNull);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "; the log's last lines: " + tail(log), e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (java.io.IOException e) {
            return "unreadable: " + e.getMessage();
        }
    }

    private static Path secretFile(Path agents) {
        return agents.resolve("control.secret");
    }

    /** A plain member on loopback, joining {@code address} by TCP-IP, that gives up on joining after a few seconds. */
    private static HazelcastInstance member(String clusterName, String address) {
        return member(clusterName, address, null, null);
    }

    /** As above, saying by its attributes that it has {@code role} and {@code name} (as cp-bench's members do). */
    private static HazelcastInstance member(String clusterName, String address, String role, String name) {
        // a member with the name may take more than Hazelcast's 5 s to be answered by the control cluster on a busy
        // 2-core machine (CI once saw the insider give up and start a cluster of its own); it joins as soon as it is
        return member(clusterName, address, role, name, 40);
    }

    /**
     * As above, trying to join for at most {@code joinSeconds} before it starts a cluster of its own: a member with
     * another name is never let in, so it waits that long in vain.
     */
    private static HazelcastInstance member(String clusterName, String address, String role, String name, int joinSeconds) {
        Config config = new Config().setClusterName(clusterName).setInstanceName("stranger-" + System.nanoTime());
        if (role != null) {
            config.getMemberAttributeConfig().setAttribute("cpbench.role", role);
            config.getMemberAttributeConfig().setAttribute("cpbench.name", name);
        }
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.setProperty("hazelcast.max.join.seconds", String.valueOf(joinSeconds));
        config.setProperty("hazelcast.partition.count", "7"); // as the control cluster's, or Hazelcast refuses the join for that
        config.setLiteMember(true);
        config.getNetworkConfig().setPort(FreePortsHolder.port()).setPortAutoIncrement(true).setPortCount(50);
        config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        JoinConfig join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(2).setMembers(List.of(address));
        return Hazelcast.newHazelcastInstance(config);
    }

    /** Ports for the strangers, apart from the control cluster's (5801 up) and the clusters under test. */
    private static final class FreePortsHolder {
        static int port() {
            return io.cpbench.topology.FreePorts.consecutive(List.of("127.0.0.1"), 1, 6801);
        }
    }

    /** A task whose class no control member allows: it must never be deserialized there. */
    static final class Intruder implements Callable<String>, Serializable {
        private static final long serialVersionUID = 1L;
        @SuppressWarnings("unused")
        private final Map<String, String> payload = new java.util.HashMap<>(Map.of("gadget", "chain"));

        @Override
        public String call() {
            return "ran";
        }
    }
}
