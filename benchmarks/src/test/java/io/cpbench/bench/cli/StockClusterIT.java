package io.cpbench.bench.cli;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.IAtomicReference;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import io.cpbench.lb.LeaderAwareLoadBalancer;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.StockCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * cp-bench against a cluster it did not start and whose members have none of its classes: 5 JVMs running the
 * stock Hazelcast jar with an XML configuration. The oracle for who leads is the members' own logs, read
 * from disk, never a client. Members publish Raft metrics every second here (Hazelcast's default is 60 s, which
 * only makes cp-bench's leadership checks wait longer).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("long") // in CI's -Plong run: it keeps ./mvnw verify under 15 minutes
class StockClusterIT {

    private static final String CLUSTER = "stock-it-" + ProcessHandle.current().pid();
    private static StockCluster cluster;
    private static Path work;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("stock-it");
        cluster = StockCluster.start(new StockCluster.Spec(CLUSTER, 5, 0, 0, 5, 1, work.resolve("members")),
                Duration.ofSeconds(150));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String truth() {
        return cluster.leaderInLogs("default").orElse("none@-1");
    }

    private static String truthAddress() {
        String t = truth();
        return t.substring(0, t.indexOf('@'));
    }

    private static String address(com.hazelcast.cluster.Member member) {
        return member.getAddress().getHost() + ":" + member.getAddress().getPort();
    }

    /**
     * Ctrl-C in a terminal sends SIGINT to the whole foreground process group: the CLI, and the stock members it
     * started with their wrappers. They must stay up until the CLI has checked and written its run and stops them
     * itself (a wrapper that exited on SIGINT used to kill its member with it: an interrupted run then read "connected
     * to no member" and an error).
     */
    /** Stock members listen on the address they were given, not on every interface. */
    @Test
    @Order(0)
    void theMembersListenOnLoopbackOnly() throws Exception {
        List<ProcessHandle> members = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            members.add(cluster.memberProcess(i).orElseThrow());
        }
        List<ListeningSockets.Listener> listening = ListeningSockets.of(members);
        System.out.println("stock members listen on: " + listening);
        assertTrue(listening.size() >= 5, "one socket a member at the least: " + listening);
        for (ListeningSockets.Listener l : listening) {
            assertTrue(!l.wildcard() && l.address().startsWith("127.0.0.1:"), "not on loopback alone: " + l);
        }
    }

    @Test
    @Order(0)
    void aTerminalsCtrlCReachingTheMembersLeavesThemRunning() throws Exception {
        List<Long> signalled = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ProcessHandle member = cluster.memberProcess(i).orElseThrow();
            signalled.add(member.pid());
            signalled.add(member.parent().orElseThrow().pid()); // its wrapper
        }
        List<String> kill = new java.util.ArrayList<>(List.of("kill", "-INT"));
        signalled.forEach(pid -> kill.add(Long.toString(pid)));
        assertEquals(0, new ProcessBuilder(kill).inheritIO().start().waitFor());
        // they stay alive: checked throughout 2 s after the signal, not once after a sleep
        org.awaitility.Awaitility.await("members and wrappers stay alive after SIGINT").during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                    for (long pid : signalled) {
                        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "process " + pid + " ended on SIGINT");
                    }
                });
        for (int i = 0; i < 5; i++) {
            assertTrue(cluster.isAlive(i), "member " + i);
        }
    }

    @Test
    @Order(1)
    void membersRunTheStockJarAlone() {
        for (int i = 0; i < 5; i++) {
            String command = String.join(" ", cluster.memberProcess(i).orElseThrow().info().arguments().orElseThrow());
            assertTrue(command.contains(StockCluster.STARTER), command);
            String classpath = command.substring(command.indexOf("-cp ") + 4).split(" ")[0];
            assertTrue(classpath.endsWith("hazelcast-5.4.0.jar") && !classpath.contains(":"), classpath);
        }
    }

    @Test
    @Order(2)
    void attachSettlesOnThePriorityMemberFromMetricsAndRunsAScenario() throws Exception {
        Path out = work.resolve("runs");
        int code = CpBench.execute("run", "--topology", "attach", "--cluster-name", CLUSTER, "--connect",
                cluster.address(2), "--network", "direct", "--scenario", "client-leader", "--ops", "500", "--warmup",
                "100", "--cluster-warmup", "500ms", "--progress", "0", "--out", out.toString());
        assertEquals(0, code);
        List<RunResult> results = ResultFiles.readAll(List.of(runDir(out)));
        assertEquals(1, results.size());
        RunResult r = results.get(0);
        assertEquals(Status.OK, r.status(), r.reason());
        assertEquals("metrics", r.leader().before().source());
        assertEquals("metrics", r.leader().after().source());
        assertEquals(cluster.address(0), r.leader().before().address(), "the priority member leads");
        assertEquals(truthAddress(), r.leader().after().address(), "and the members' logs agree");
        assertEquals(cluster.address(0), r.cluster().clientTarget().split(" ")[1], r.cluster().clientTarget());
        assertEquals(500, r.measured().ops());
        assertEquals(0L, r.measured().counters().get("casRetries"));
    }

    /**
     * The getting-started journey "your own cluster": {@code matrix} with no {@code --scenario} on an attached cluster
     * runs the network (a) scenarios and says, on one line, which network (b) ones it left out and why (cp-bench
     * cannot slow a member of a cluster it did not start). Named network (b) scenarios are still refused.
     */
    @Test
    @Order(2)
    void theDefaultMatrixOnAnAttachedClusterRunsNetworkAAndSaysWhatItLeftOut() throws Exception {
        Path out = work.resolve("matrix-runs");
        java.io.PrintStream saved = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        int code;
        System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            code = CpBench.execute("matrix", "--topology", "attach", "--cluster-name", CLUSTER, "--connect",
                    cluster.address(2), "--ops", "200", "--warmup", "0", "--cluster-warmup", "0s", "--warmup-round", "0",
                    "--settle", "1s", "--progress", "0", "--out", out.toString());
        } finally {
            System.setOut(saved);
        }
        String text = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        System.out.println(text);
        assertEquals(0, code, text);
        List<String> left = List.of("client-leader-1follower10ms", "client-follower-1follower10ms",
                "client-follower10ms-1follower10ms", "client-lb-10ms", "client-smart-10ms", "client-latency-aware-10ms",
                "client-leader-aware-10ms", "client-leader-aware-from-slow-10ms");
        assertTrue(text.contains("left out 8 network (b) scenarios (an attached cluster's network is its own: cp-bench"
                + " cannot slow one of its members down): "), text);
        assertTrue(left.stream().allMatch(text::contains), text);
        List<RunResult> results = ResultFiles.readAll(List.of(runDir(out)));
        assertEquals(List.of("client-follower", "client-lb", "client-leader", "client-leader-aware", "client-smart"),
                results.stream().map(RunResult::scenario).sorted().toList());
        assertTrue(results.stream().allMatch(r -> r.run().network().equals("a")), "every result in network (a)");

        // named, a network (b) scenario is refused before anything starts
        java.io.PrintStream savedErr = System.err;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            code = CpBench.execute("matrix", "--topology", "attach", "--cluster-name", CLUSTER, "--connect",
                    cluster.address(2), "--scenario", "client-leader,client-lb-10ms", "--out", out.toString());
        } finally {
            System.setErr(savedErr);
        }
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().startsWith("cpbench: network (b) scenarios ([client-lb-10ms]) need"), err.toString());
    }

    @Test
    @Order(3)
    void leaderAwareFindsTheLeaderInFreshStartsWithoutTheHint() throws Exception {
        int hits = 0;
        List<String> seen = new ArrayList<>();
        for (int start = 0; start < 5; start++) {
            String bootstrap = cluster.address((start + 1) % 5); // never only the leader's own address first
            LeaderAwareLoadBalancer balancer = new LeaderAwareLoadBalancer(ProbeSettings.defaults());
            HazelcastInstance client = client(bootstrap, balancer);
            try {
                // judged once the balancer has settled (its own state, bounded), not after a fixed time; how long
                // that took is printed: lb-study measures the time to the leader over many starts
                long t0 = System.nanoTime();
                boolean settled = balancer.awaitSettled(Duration.ofSeconds(60));
                String chosen = balancer.leader().map(StockClusterIT::address).orElse(null);
                seen.add(String.format(java.util.Locale.ROOT, "%s -> %s (%s, truth %s, %s in %.1f s)", bootstrap, chosen,
                        balancer.leaderSource(), truth(), settled ? "settled" : "not settled", (System.nanoTime() - t0) / 1e9));
                if (truthAddress().equals(chosen)) {
                    hits++;
                }
                assertFalse(balancer.usesMemberHint(), "stock members cannot answer the hint");
            } finally {
                client.shutdown();
            }
        }
        System.out.println("leader-aware in 5 fresh starts: " + seen);
        assertTrue(hits >= 4, "leader-aware, once settled, chose the true leader in " + hits + " of 5 fresh starts: " + seen);
    }

    @Test
    @Order(4)
    void aKilledLeaderIsFollowedAndTheRunDuringItIsUnstable() throws Exception {
        String oldLeader = truthAddress();
        int oldIndex = cluster.addresses().indexOf(oldLeader);
        LeaderAwareLoadBalancer balancer = new LeaderAwareLoadBalancer(ProbeSettings.defaults());
        HazelcastInstance client = client(cluster.address((oldIndex + 1) % 5), balancer);
        AtomicBoolean stop = new AtomicBoolean();
        Thread load = new Thread(() -> {
            IAtomicReference<String> ref = client.getCPSubsystem().getAtomicReference("stock-it-load");
            for (int i = 0; i < 1_000_000 && !stop.get(); i++) {
                try {
                    ref.compareAndSet(ref.get(), "v");
                } catch (RuntimeException ignored) {
                    // During the election.
                }
            }
        });
        Path out = work.resolve("runs-kill");
        int[] code = {-1};
        Thread run = new Thread(() -> code[0] = CpBench.execute("run", "--topology", "attach", "--cluster-name", CLUSTER,
                "--connect", cluster.address((oldIndex + 1) % 5), "--network", "direct", "--scenario", "client-follower",
                "--duration", "15s", "--warmup", "200ms", "--cluster-warmup", "500ms", "--progress", "0", "--out", out.toString()));
        try {
            assertTrue(balancer.awaitSettled(Duration.ofSeconds(20)));
            // Settled is not always right at once on a busy machine (the fresh starts above allow one miss in five;
            // a CI rehearsal saw it settle on a follower here): the balancer goes on measuring and moves to the member
            // that stays cheaper. What this test is about is the kill, so it starts from the true leader, waited for.
            String firstChoice = balancer.leader().map(StockClusterIT::address).orElse("no member") + " ("
                    + balancer.leaderSource() + ")";
            long chosenFrom = System.nanoTime();
            try {
                org.awaitility.Awaitility.await("leader-aware chooses the leader before the kill").atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> oldLeader.equals(balancer.leader().map(StockClusterIT::address).orElse(null)));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError("leader-aware, settled, first chose " + firstChoice + " and 30 s later "
                        + balancer.leader().map(StockClusterIT::address).orElse("no member") + " ("
                        + balancer.leaderSource() + "); the members' logs name " + truth(), e);
            }
            if (!firstChoice.startsWith(oldLeader + " ")) {
                System.out.printf(java.util.Locale.ROOT, "leader-aware first chose %s, then the leader %s %.1f s later%n",
                        firstChoice, oldLeader, (System.nanoTime() - chosenFrom) / 1e9);
            }
            load.start();
            run.start();
            waitForMeasuring(out);
            cluster.kill(oldIndex);
            long killedAt = System.nanoTime();
            // The balancer follows the new leader: a state, waited for; how soon is printed, not judged (lb-study
            // and the reference results hold that figure). The wait is not tied to the run's 15 s: the run measures
            // across the kill whenever the new leader comes, and a CI rehearsal on a busy machine saw the election
            // and the follow take longer than 15 s. If it never comes, the failure says what each side saw.
            try {
                org.awaitility.Awaitility.await("leader-aware follows the new leader").atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(50)).until(() -> {
                            String t = truthAddress();
                            return !t.equals(oldLeader) && t.equals(balancer.leader().map(StockClusterIT::address).orElse(null));
                        });
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError("90 s after killing " + oldLeader + ": the members' logs name " + truth()
                        + ", leader-aware chose " + balancer.leader().map(StockClusterIT::address).orElse("no member")
                        + " (" + balancer.leaderSource() + ")", e);
            }
            System.out.printf(java.util.Locale.ROOT, "leader-aware followed the new leader %s %.1f s after the kill%n",
                    truth(), (System.nanoTime() - killedAt) / 1e9);
            run.join(180_000);
        } finally {
            stop.set(true);
            load.join(10_000);
            client.shutdown();
        }
        assertEquals(0, code[0], "an UNSTABLE run is not a failed one");
        RunResult r = ResultFiles.readAll(List.of(runDir(out))).get(0);
        assertEquals(Status.UNSTABLE, r.status(), r.reason());
        assertTrue(r.reason().contains("leadership changed"), r.reason());
        // the leader after the run is read from the members' metrics too: a new leader, in a later term
        org.junit.jupiter.api.Assertions.assertNotNull(r.leader().after(), "no leader read after the run: " + r.reason());
        assertEquals("metrics", r.leader().after().source());
        assertTrue(r.leader().after().term() > r.leader().before().term(), r.leader().before() + " -> " + r.leader().after());
        assertNotEquals(oldLeader, r.leader().after().address());
        assertEquals(truthAddress(), r.leader().after().address(), "the members' logs name the same new leader");
    }

    /**
     * {@code cleanup} on the attached cluster lists the CP objects the runs above left (the seed's reference from every
     * scenario, the leader checks' probe counter) and not the user's own, changes
     * nothing without {@code --destroy}, and with it destroys them: Hazelcast itself then lists their names as
     * tombstones and refuses them, while the user's object is untouched. Last: it destroys names the other tests use.
     */
    @Test
    @Order(5)
    void cleanupListsWhatCpBenchLeftAndDestroysItOnlyWhenAsked() throws Exception {
        ClientConfig config = new ClientConfig().setClusterName(CLUSTER);
        cluster.addresses().forEach(config.getNetworkConfig()::addAddress); // one member was killed above
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(20_000);
        HazelcastInstance user = HazelcastClient.newHazelcastClient(config);
        try {
            var cp = user.getCPSubsystem();
            cp.getAtomicLong("user-counter").set(7); // the user's own object, in the same group
            String connect = String.join(",", cluster.addresses());

            Printed listed = cli("cleanup", "--connect", connect, "--cluster-name", CLUSTER);
            assertEquals(0, listed.code(), listed.text());
            assertTrue(listed.text().matches("(?s).*\\n  default +IAtomicReference +cpbench-cas\\n.*"), listed.text());
            assertTrue(listed.text().matches("(?s).*\\n  default +IAtomicLong +cpbench-probe\\n.*"), listed.text());
            assertFalse(listed.text().contains("user-counter") || listed.text().contains("stock-it-load"), listed.text());
            assertTrue(listed.text().contains("nothing changed; --destroy destroys them."), listed.text());
            assertEquals(7, cp.getAtomicLong("user-counter").get());
            cp.getAtomicReference("cpbench-cas").get(); // still there: listing destroys nothing

            Printed destroyed = cli("cleanup", "--connect", connect, "--cluster-name", CLUSTER, "--destroy");
            assertEquals(0, destroyed.code(), destroyed.text());
            assertTrue(destroyed.text().matches("(?s).*\\ndestroyed \\d+ CP objects in 1 group; .*"), destroyed.text());
            // Hazelcast's own account, not cleanup's: the names are tombstones, refused from now on
            com.hazelcast.cp.CPGroupId group = cp.getCPGroupIds().stream().filter(g -> g.getName().equals("default"))
                    .findFirst().orElseThrow();
            List<String> tombstones = new ArrayList<>();
            cp.getTombstoneInfos(group, com.hazelcast.cp.CPSubsystem.ATOMIC_REFERENCE).forEach(i -> tombstones.add(i.name()));
            cp.getTombstoneInfos(group, com.hazelcast.cp.CPSubsystem.ATOMIC_LONG).forEach(i -> tombstones.add(i.name()));
            assertTrue(tombstones.containsAll(List.of("cpbench-cas", "cpbench-probe")), tombstones.toString());
            assertFalse(tombstones.contains("user-counter"), tombstones.toString());
            org.junit.jupiter.api.Assertions.assertThrows(com.hazelcast.spi.exception.DistributedObjectDestroyedException.class,
                    () -> cp.getAtomicReference("cpbench-cas").get());
            assertEquals(7, cp.getAtomicLong("user-counter").get());

            Printed again = cli("cleanup", "--connect", connect, "--cluster-name", CLUSTER);
            assertTrue(again.text().startsWith("cluster '" + CLUSTER + "': 0 CP objects of cp-bench's"), again.text());
        } finally {
            user.shutdown();
        }
    }

    private record Printed(int code, String text) {
    }

    /** Runs the CLI in this JVM; its exit code and what it printed on stdout and stderr. */
    private static Printed cli(String... args) {
        java.io.PrintStream savedOut = System.out;
        java.io.PrintStream savedErr = System.err;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream capture = new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8);
        int code;
        System.setOut(capture);
        System.setErr(capture);
        try {
            code = CpBench.execute(args);
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        String text = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        System.out.println(String.join(" ", args) + " -> " + code + "\n" + text);
        return new Printed(code, text);
    }

    /** The one run directory the CLI created under {@code --out}. */
    private static Path runDir(Path out) throws java.io.IOException {
        try (var children = Files.list(out)) {
            List<Path> dirs = children.filter(Files::isDirectory).toList();
            assertEquals(1, dirs.size(), "run directories under " + out + ": " + dirs);
            return dirs.get(0);
        }
    }

    /** Waits until the run in flight has measured a few intervals (its .hlog holds 3 interval lines). */
    private static void waitForMeasuring(Path out) {
        org.awaitility.Awaitility.await("the run measures 3 intervals").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(200)).until(() -> measuredIntervals(out) >= 3);
    }

    /** Interval lines in the run's .hlog so far (they start with the interval's start time; comments and headers do not). */
    private static long measuredIntervals(Path out) throws java.io.IOException {
        if (!Files.isDirectory(out)) {
            return 0;
        }
        try (var files = Files.walk(out)) {
            Path hlog = files.filter(p -> p.toString().endsWith(".hlog")).findFirst().orElse(null);
            if (hlog == null) {
                return 0;
            }
            try (var lines = Files.lines(hlog)) {
                return lines.filter(l -> !l.isEmpty() && Character.isDigit(l.charAt(0))).count();
            }
        }
    }

    private static HazelcastInstance client(String address, LeaderAwareLoadBalancer balancer) {
        ClientConfig config = new ClientConfig().setClusterName(CLUSTER);
        config.getNetworkConfig().addAddress(address);
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(20_000);
        config.setLoadBalancer(balancer);
        return HazelcastClient.newHazelcastClient(config);
    }
}
