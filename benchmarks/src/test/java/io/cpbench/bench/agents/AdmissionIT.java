package io.cpbench.bench.agents;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.cpbench.topology.FreePorts;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Admission on real Hazelcast members (on loopback, in this JVM): a control cluster with one true agent, and members
 * that have the control cluster's name (as one who read it off the wire would) and say, by their attributes, that
 * they are agent-1 (the true agent's name), agent-3, or a coordinator; and a member with the secret under a name
 * already admitted. The coordinator counts, measures and would send jobs to the true agent alone, and says why each
 * other one was refused. Attributes are what a member says of itself: only the sealed answer is believed.
 */
class AdmissionIT {

    @Test
    void onlyAMemberThatAnswersTheSealedChallengeIsAnAgentAndANameIsAdmittedOnce() throws Exception {
        ControlSecret secret = ControlSecret.generate();
        int port = FreePorts.consecutive(List.of("127.0.0.1"), 1, 5851);
        ByteArrayOutputStream agentOut = new ByteArrayOutputStream();
        ByteArrayOutputStream coordinatorOut = new ByteArrayOutputStream();
        List<HazelcastInstance> others = new ArrayList<>();
        Agent agent = null;
        AgentPool pool = null;
        try {
            agent = Agent.join(secret, List.of(), "127.0.0.1", port, "agent-1", null,
                    new PrintStream(agentOut, true, StandardCharsets.UTF_8));
            String address = "127.0.0.1:" + port;
            Member real = member(agent);
            HazelcastInstance impostor = insider(secret.clusterName(), address, "agent", "agent-1");
            HazelcastInstance newcomer = insider(secret.clusterName(), address, "agent", "agent-3");
            HazelcastInstance fakeCoordinator = insider(secret.clusterName(), address, "coordinator", "coordinator");
            others.addAll(List.of(impostor, newcomer, fakeCoordinator));
            // a member with the secret (it answers the challenge), as an agent under the name already taken
            HazelcastInstance twin = insider(secret.clusterName(), address, "agent", "agent-1", secret);
            others.add(twin);

            // the fake coordinator does not keep this one out; of four members that say they are agents, one counts
            pool = AgentPool.remote(List.of(address), secret, "127.0.0.1",
                    new PrintStream(coordinatorOut, true, StandardCharsets.UTF_8));
            Map<String, Member> agents = pool.agents();
            assertThat(agents).containsOnlyKeys("agent-1");
            assertThat(agents.get("agent-1").getUuid()).isEqualTo(real.getUuid());

            String said = coordinatorOut.toString(StandardCharsets.UTF_8);
            said.lines().forEach(l -> System.out.println("coordinator said: " + l));
            assertThat(said).contains("refused the member at " + where(impostor) + " that calls itself agent-1: it did"
                    + " not answer the admission challenge with the secret");
            assertThat(said).contains("refused the member at " + where(newcomer) + " that calls itself agent-3: it did"
                    + " not answer the admission challenge with the secret");
            assertThat(said).contains("refused the member at " + where(twin) + " that calls itself agent-1: an agent of"
                    + " that name is admitted already, at 127.0.0.1:" + port);
            assertThat(said.lines().filter(l -> l.contains("refused the member"))).as("each said once").hasSize(3);
            pool.agents();
            assertThat(coordinatorOut.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("refused the member")))
                    .as("and not again").hasSize(3);

            // the admitted agent's clock answers under the seal
            List<AgentClocks.Clock> clocks = pool.clocks(agents);
            assertThat(clocks).singleElement().satisfies(c -> assertThat(Math.abs(c.offsetMs())).isLessThan(1000));

            // the impostor and the fake coordinator leave: nothing that serves a run takes them for what they said
            impostor.shutdown();
            fakeCoordinator.shutdown();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                    .until(() -> agentOut.toString(StandardCharsets.UTF_8).contains("a member that called itself a"
                            + " coordinator left (it sent this agent no run in progress): nothing stopped"));
            assertThat(pool.agents()).containsOnlyKeys("agent-1");
            assertThat(agent.failure()).isNull();
        } finally {
            if (pool != null) {
                pool.close();
            }
            if (agent != null) {
                agent.close();
            }
            others.forEach(i -> {
                try {
                    i.shutdown();
                } catch (RuntimeException gone) {
                    // already down
                }
            });
            FreePorts.release(port, 1);
        }
    }

    /**
     * A member with the control cluster's name asks for PASSIVE (open-source Hazelcast lets any member ask): the
     * change carries the state as a Java-serialized enum, which the control members' allow-list refuses, so they take
     * no part, the state stays ACTIVE and the agent goes on. Were the state changed all the same, the agent would say
     * so on one line and end ({@link Agent#failure()}).
     */
    @Test
    void aMemberWithTheNameCannotMakeTheControlClusterPassive() throws Exception {
        ControlSecret secret = ControlSecret.generate();
        int port = FreePorts.consecutive(List.of("127.0.0.1"), 1, 5871);
        ByteArrayOutputStream agentOut = new ByteArrayOutputStream();
        Agent agent = null;
        HazelcastInstance insider = null;
        try {
            agent = Agent.join(secret, List.of(), "127.0.0.1", port, "agent-1", null,
                    new PrintStream(agentOut, true, StandardCharsets.UTF_8));
            insider = insider(secret.clusterName(), "127.0.0.1:" + port, "agent", "nobody");
            HazelcastInstance asker = insider;
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> asker.getCluster()
                            .changeClusterState(com.hazelcast.cluster.ClusterState.PASSIVE))
                    .hasStackTraceContaining("Resolving class com.hazelcast.cluster.ClusterState is not allowed");
            Thread.sleep(2_500); // the agent's watch looks each second
            assertThat(member(agent).getAddress()).isNotNull();
            assertThat(agent.failure()).isNull();
            assertThat(insider.getCluster().getClusterState()).isEqualTo(com.hazelcast.cluster.ClusterState.ACTIVE);
            assertThat(agentOut.toString(StandardCharsets.UTF_8)).doesNotContain("PASSIVE");
        } finally {
            if (insider != null) {
                insider.shutdown();
            }
            if (agent != null) {
                agent.close();
            }
            FreePorts.release(port, 1);
        }
    }

    /**
     * The agent's control member shuts down under it (not by its own close: the member failed, or the cluster was
     * shut down): the agent says so on one line, stops, and its failure is set, with which {@code cpbench agent}
     * exits non-zero.
     */
    @Test
    void anAgentWhoseControlMemberShutsDownUnderItSaysSoAndEnds() throws Exception {
        ControlSecret secret = ControlSecret.generate();
        int port = FreePorts.consecutive(List.of("127.0.0.1"), 1, 5881);
        ByteArrayOutputStream agentOut = new ByteArrayOutputStream();
        Agent agent = Agent.join(secret, List.of(), "127.0.0.1", port, "agent-1", null,
                new PrintStream(agentOut, true, StandardCharsets.UTF_8));
        try {
            java.lang.reflect.Field f = Agent.class.getDeclaredField("control");
            f.setAccessible(true);
            ((HazelcastInstance) f.get(agent)).shutdown();
            Agent watched = agent;
            java.util.concurrent.CompletableFuture.runAsync(() -> {
                try {
                    watched.await(null);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }).get(20, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(agent.failure()).startsWith("its control member is shutting down, not by this agent");
            assertThat(agentOut.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("shutting down")))
                    .singleElement().asString().startsWith("agent-1: its control member is shutting down, not by this"
                            + " agent").endsWith("; stopping and exiting");
        } finally {
            agent.close();
            FreePorts.release(port, 1);
        }
    }

    /**
     * The same through {@code cpbench agent} itself (its command, in this JVM): when the member under it shuts down
     * not by the agent's own close, the command says so on stderr in one line and exits 1 (FAILED), not 0.
     */
    @Test
    void cpbenchAgentExitsOneWhenItsControlMemberShutsDownUnderIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        ControlSecret secret = ControlSecret.generate();
        java.nio.file.Path secretFile = dir.resolve("control.secret");
        secret.writeTo(secretFile);
        int port = FreePorts.consecutive(List.of("127.0.0.1"), 1, 5891);
        PrintStream savedErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            java.util.concurrent.CompletableFuture<Integer> exit = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                    io.cpbench.bench.cli.CpBench.execute("agent", "--control", "127.0.0.1:" + port, "--bind", "127.0.0.1",
                            "--port", String.valueOf(port), "--name", "agent-exit", "--secret-file", secretFile.toString()));
            HazelcastInstance member = org.awaitility.Awaitility.await("the agent's control member")
                    .atMost(java.time.Duration.ofSeconds(60)).pollInterval(java.time.Duration.ofMillis(100))
                    .until(() -> Hazelcast.getAllHazelcastInstances().stream()
                            .filter(i -> i.getConfig().getClusterName().equals(secret.clusterName())).findFirst().orElse(null),
                            java.util.Objects::nonNull);
            assertThat(exit).as("still serving").isNotDone();

            member.shutdown(); // as Hazelcast itself would after a split it cannot merge, or an operator in its JVM

            assertThat(exit.get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("\tat ");
            assertThat(err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("cpbench")))
                    .singleElement().asString().startsWith("cpbench agent: agent-exit: its control member is shutting down,"
                            + " not by this agent");
        } finally {
            System.setErr(savedErr);
            FreePorts.release(port, 1);
        }
    }

    private static Member member(Agent agent) throws Exception {
        java.lang.reflect.Field f = Agent.class.getDeclaredField("control");
        f.setAccessible(true);
        return ((HazelcastInstance) f.get(agent)).getCluster().getLocalMember();
    }

    private static String where(HazelcastInstance i) {
        return "127.0.0.1:" + i.getCluster().getLocalMember().getAddress().getPort();
    }

    /** A plain member with the control cluster's name and the attributes it claims, joining {@code address}. */
    private static HazelcastInstance insider(String clusterName, String address, String role, String name) {
        return insider(clusterName, address, role, name, null);
    }

    /** As above; with {@code secret}, as cp-bench's members hold it (it then answers the admission challenge). */
    private static HazelcastInstance insider(String clusterName, String address, String role, String name,
                                             ControlSecret secret) {
        Config config = new Config().setClusterName(clusterName).setInstanceName("insider-" + name + "-" + System.nanoTime());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.setProperty("hazelcast.partition.count", "7");
        config.setLiteMember(true);
        config.getMemberAttributeConfig().setAttribute("cpbench.role", role);
        config.getMemberAttributeConfig().setAttribute("cpbench.name", name);
        config.getNetworkConfig().setPort(5901).setPortAutoIncrement(true).setPortCount(50);
        config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        JoinConfig join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(2).setMembers(List.of(address));
        if (secret != null) {
            config.getUserContext().put(ControlCluster.SECRET_KEY, secret);
        }
        return Hazelcast.newHazelcastInstance(config);
    }
}
