package io.cpbench.lb;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.config.XmlClientConfigBuilder;
import com.hazelcast.client.config.YamlClientConfigBuilder;
import com.hazelcast.client.impl.clientside.HazelcastClientProxy;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IndeterminateOperationStateException;
import com.hazelcast.cp.IAtomicReference;
import io.cpbench.topology.ClusterClientConfig;
import io.cpbench.topology.FailoverPreset;
import io.cpbench.topology.FailoverPresetBuilder;
import io.cpbench.topology.LeaderView;
import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyKind;
import io.cpbench.topology.TopologySpec;
import io.cpbench.topology.net.NetworkControl;
import io.cpbench.topology.net.NetworkEmulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The balancers on a real 5-member CP cluster (embedded members, each behind the network emulator), judged by
 * where calls actually went: the bytes clients sent to each member while the test's ops ran.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BalancersIT {

    static final Duration CONNECT = Duration.ofSeconds(20);
    static final int OPS = 1000;
    /**
     * Raft that elects a new leader about a second after the leader falls silent (Hazelcast's default takes 25 s),
     * while members and clients keep Hazelcast's 60 s before they give up on a silent peer: so that in the silent-leader
     * test only the balancer can end the calls waiting on the old leader within its 30 s.
     */
    static final FailoverPreset RAFT_ONLY = FailoverPresetBuilder.builder().name("raft-only")
            .leaderHeartbeatMillis(200).maxMissedHeartbeats(5).electionTimeoutMillis(1000).failOnIndeterminate(true)
            .build();
    /** Fast probing, so the tests need not wait long for a judgement. */
    static final ProbeSettings FAST = ProbeSettings.defaults().withPeriod(Duration.ofMillis(250), Duration.ofSeconds(3));

    @TempDir
    static Path logs;

    Topology topology;
    NetworkControl network;
    LeaderView leader;
    MemberRef slow;
    final List<HazelcastInstance> clients = new ArrayList<>();

    @BeforeAll
    void start() {
        topology = TopologyKind.EMBEDDED.start(TopologySpec.defaults(logs).withSettle(Duration.ofSeconds(2)).withFailover(RAFT_ONLY));
        network = topology.network().orElseThrow();
        leader = topology.leadership().read();
        slow = topology.members().get(4);
        assertThat(leader.leader()).isEqualTo(topology.priorityMember()).isNotEqualTo(slow);
        // -Plong runs these tests again with the previous release's jar in place of this build's (benchmarks/pom.xml):
        // members and clients must then be of that release, or the run proves nothing about it.
        String expected = System.getProperty("cpbench.expected.hazelcast");
        if (expected != null) {
            assertThat(com.hazelcast.instance.BuildInfoProvider.getBuildInfo().getVersion()).as("client release").isEqualTo(expected);
            HazelcastInstance probe = client(new LatencyAwareLoadBalancer(FAST), all());
            assertThat(probe.getCluster().getMembers()).as("members' release")
                    .allSatisfy(m -> assertThat(m.getVersion().toString()).isEqualTo(expected));
            closeClients();
        }
    }

    @AfterEach
    void closeClients() {
        clients.forEach(c -> c.getLifecycleService().terminate());
        clients.clear();
        network.clear();
    }

    @AfterAll
    void stop() {
        if (topology != null) {
            topology.close();
        }
    }

    HazelcastInstance client(CpLoadBalancer balancer, List<String> addresses) {
        ClientConfig config = ClusterClientConfig.forCluster(topology.clusterName(), addresses, CONNECT);
        config.setLoadBalancer(balancer);
        HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
        clients.add(client);
        return client;
    }

    List<String> all() {
        return topology.members().stream().filter(topology::isAlive).map(MemberRef::address).toList();
    }

    /** Runs the seed's op {@code OPS} times and returns the bytes clients sent to each member meanwhile. */
    Map<Integer, Long> served(HazelcastInstance client) {
        IAtomicReference<String> ref = client.getCPSubsystem().getAtomicReference("balancers-it");
        ref.set("cpbench");
        Map<Integer, Long> before = network.bytesFromClients();
        for (int i = 0; i < OPS; i++) {
            String observed = ref.get();
            assertThat(ref.compareAndSet(observed, observed)).isTrue();
        }
        Map<Integer, Long> after = network.bytesFromClients();
        Map<Integer, Long> delta = new HashMap<>();
        after.forEach((member, bytes) -> delta.put(member, bytes - before.getOrDefault(member, 0L)));
        return delta;
    }

    /**
     * As {@link #served}, less each member's background (heartbeats, the balancers' probes), measured at its rate in a
     * quiet window right after (as long as the ops took, at most 5 s) and scaled to the time the ops took: the
     * background grows with that time, calls do not. On a busy machine 1,000 ops took long enough for an excluded
     * member's probes alone to pass 5 % of the busiest member's calls (4,765 of 74,689 bytes in CI-0, 5,810 of
     * 75,111 in a later run: 744 beyond the background); a member that got calls gets some 20 % of them.
     */
    Map<Integer, Long> servedBeyondBackground(HazelcastInstance client) throws InterruptedException {
        long start = System.nanoTime();
        Map<Integer, Long> served = served(client);
        long took = System.nanoTime() - start;
        Map<Integer, Long> before = network.bytesFromClients();
        long quietStart = System.nanoTime();
        Thread.sleep(Math.max(1, Math.min(took, 5_000_000_000L) / 1_000_000));
        Map<Integer, Long> after = network.bytesFromClients();
        double scale = (double) took / (System.nanoTime() - quietStart);
        Map<Integer, Long> beyond = new HashMap<>();
        served.forEach((member, bytes) -> beyond.put(member, Math.max(0, bytes - Math.round(scale
                * (after.getOrDefault(member, 0L) - before.getOrDefault(member, 0L))))));
        System.out.printf("served %s in %.1f s; beyond the background %s%n", served, took / 1e9, beyond);
        return beyond;
    }

    static long busiest(Map<Integer, Long> served) {
        return served.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited %s s for %s", timeout.toSeconds(), what).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    @Test
    @Order(1)
    void theFilterKeepsCallsAwayFromDeniedMembers() throws InterruptedException {
        MemberRef denied1 = topology.members().get(1);
        MemberRef denied2 = topology.members().get(3);
        HazelcastInstance client = client(FilteringLoadBalancer.denying(List.of(denied1.address(), denied2.address())), all());

        Map<Integer, Long> served = servedBeyondBackground(client);

        // Connections to denied members stay open (heartbeats), but no call goes there: under 5 % of the busiest.
        assertThat(served.get(denied1.index())).as("denied member-1, of %s", served).isLessThan(busiest(served) / 20);
        assertThat(served.get(denied2.index())).as("denied member-3, of %s", served).isLessThan(busiest(served) / 20);
        for (int allowed : List.of(0, 2, 4)) {
            assertThat(served.get(allowed)).as("allowed member-%d, of %s", allowed, served).isGreaterThan(busiest(served) / 4);
        }
    }

    @Test
    @Order(2)
    void latencyAwareExcludesTheSlowMemberAndReadmitsItWhenItRecovers() throws InterruptedException {
        network.slowDown(slow.index(), Duration.ofMillis(10));
        // Only really slow members excluded, so the readmitted one visibly gets its share again.
        LatencyAwareLoadBalancer balancer = new LatencyAwareLoadBalancer(FAST.sickMembersOnly());
        HazelcastInstance client = client(balancer, all());

        await("the slow member's exclusion", Duration.ofSeconds(20), () -> balancer.excludedMembers().equals(java.util.Set.of(slow.address())));
        Map<Integer, Long> slowServed = servedBeyondBackground(client);
        assertThat(slowServed.get(slow.index())).as("slow member, of %s", slowServed).isLessThan(busiest(slowServed) / 20);
        assertThat(balancer.probeMedians().get(slow.address())).isGreaterThan(Duration.ofMillis(10));

        network.clear();
        long cleared = System.nanoTime();
        await("the slow member's readmission", Duration.ofSeconds(30), () -> balancer.excludedMembers().isEmpty());
        System.out.printf("latency-aware readmitted %s %.1f s after the delay was removed%n", slow.name(),
                (System.nanoTime() - cleared) / 1e9);
        // What the balancer reports about itself agrees: the readmission was a change, and the member kept again.
        assertThat(balancer.exclusionChanges()).isGreaterThanOrEqualTo(1);
        assertThat(balancer.keptMembersSoFar()).contains(slow.address());
        Map<Integer, Long> served = served(client);
        // It gets calls again, not just probes. (Not an equal share: under this load on an embedded cluster the
        // followers' medians can exceed 3x the leader's, and the balancer then rightly leaves them out for a while.)
        assertThat(served.get(slow.index())).as("readmitted member, of %s", served).isGreaterThan(busiest(served) / 10);
    }

    @Test
    @Order(3)
    void leaderAwareBootstrappedWithOnlyTheSlowMemberFindsTheLeader() throws InterruptedException {
        network.slowDown(slow.index(), Duration.ofMillis(10));
        LeaderAwareLoadBalancer balancer = new LeaderAwareLoadBalancer(FAST);
        HazelcastInstance client = client(balancer, List.of(slow.address()));

        assertThat(balancer.awaitSettled(Duration.ofSeconds(20))).as("settled").isTrue();
        await("the leader", Duration.ofSeconds(20),
                () -> balancer.leader().map(MemberFilter::address).orElse("").equals(leader.leader().address()));
        Map<Integer, Long> served = served(client);

        long total = served.values().stream().mapToLong(Long::longValue).sum();
        assertThat(served.get(leader.leader().index())).as("leader's share of %s", served).isGreaterThan(total * 90 / 100);
        assertThat(balancer.usesMemberHint()).isTrue();
    }

    /**
     * By latency alone (members without the hint class) the balancer must at least keep off the slow member. It
     * does not reliably find the leader on this embedded 2-core cluster: a follower's probes were as fast as the
     * leader's (fastest tenth 1.29 ms against 1.52 ms in one run), so that is not asserted.
     */
    @Test
    @Order(4)
    void leaderAwareByLatencyAloneKeepsOffTheSlowMember() throws InterruptedException {
        network.slowDown(slow.index(), Duration.ofMillis(10));
        LeaderAwareLoadBalancer balancer = new LeaderAwareLoadBalancer(FAST.withLeaderHint(false));
        HazelcastInstance client = client(balancer, List.of(slow.address()));
        assertThat(balancer.awaitSettled(Duration.ofSeconds(20))).as("settled").isTrue();

        Map<Integer, Long> served = servedBeyondBackground(client);

        assertThat(balancer.usesMemberHint()).isFalse();
        assertThat(balancer.leader().map(MemberFilter::address)).isPresent().isNotEqualTo(java.util.Optional.of(slow.address()));
        assertThat(served.get(slow.index())).as("slow member, of %s", served).isLessThan(busiest(served) / 20);
    }

    @Test
    @Order(5)
    void nonStickyLeaderAwareSpreadsCalls() throws InterruptedException {
        LeaderAwareLoadBalancer balancer = new LeaderAwareLoadBalancer(FAST.withSticky(false));
        HazelcastInstance client = client(balancer, all());
        assertThat(balancer.awaitSettled(Duration.ofSeconds(20))).isTrue();

        Map<Integer, Long> served = served(client);

        for (MemberRef member : topology.members()) {
            assertThat(served.get(member.index())).as("%s, of %s", member.name(), served).isGreaterThan(busiest(served) / 4);
        }
    }

    @Test
    @Order(6)
    void configuredByClassNameFromTheReadmeExamples() throws Exception {
        ClientConfig xml;
        try (InputStream in = Files.newInputStream(Path.of("../client-lb/examples/hazelcast-client.xml"))) {
            xml = new XmlClientConfigBuilder(in).build();
        }
        ClientConfig yaml;
        try (InputStream in = Files.newInputStream(Path.of("../client-lb/examples/hazelcast-client.yaml"))) {
            yaml = new YamlClientConfigBuilder(in).build();
        }
        assertThat(xml.getLoadBalancerClassName()).isEqualTo(LeaderAwareLoadBalancer.class.getName());
        assertThat(yaml.getLoadBalancerClassName()).isEqualTo(LatencyAwareLoadBalancer.class.getName());

        // The XML example denies a lab address (10.0.0.15); here its deny list names a member of this cluster, so the
        // filter it configures is exercised: the denied member is never probed (nor called).
        assertThat(xml.getProperty("cpbench.lb.deny")).isEqualTo("10.0.0.15:5701");
        MemberRef denied = topology.members().get(3);
        for (ClientConfig parsed : List.of(xml, yaml)) {
            ClientConfig config = ClusterClientConfig.forCluster(topology.clusterName(), all(), CONNECT);
            config.setLoadBalancerClassName(parsed.getLoadBalancerClassName());
            parsed.getProperties().forEach((k, v) -> config.setProperty((String) k, (String) v));
            if (parsed.getProperty("cpbench.lb.deny") != null) {
                config.setProperty("cpbench.lb.deny", denied.address());
            }
            HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
            clients.add(client);
            ProbingLoadBalancer balancer = (ProbingLoadBalancer) ((HazelcastClientProxy) client).client.getLoadBalancer();

            assertThat(balancer.awaitSettled(Duration.ofSeconds(30))).as("%s settled", balancer).isTrue();
            assertThat(balancer.isBound()).isTrue();
            assertThat(balancer.probesSent()).isGreaterThan(0);
            assertThat(served(client).values().stream().mapToLong(Long::longValue).sum()).isGreaterThan(0);
        }
        ProbingLoadBalancer fromXml = (ProbingLoadBalancer) ((HazelcastClientProxy) clients.get(0)).client.getLoadBalancer();
        assertThat(fromXml.filter()).hasToString("deny [" + denied.address() + "]");
        // The filter the example configures, tried on this cluster's members as the client sees them: it turns away
        // the denied member and no other.
        var seen = clients.get(0).getCluster().getMembers();
        assertThat(seen).hasSize(5);
        for (com.hazelcast.cluster.Member member : seen) {
            assertThat(fromXml.filter().test(member)).as("filter on %s", MemberFilter.address(member))
                    .isEqualTo(!MemberFilter.address(member).equals(denied.address()));
        }
        assertThat(fromXml.settings().period()).isEqualTo(Duration.ofSeconds(1));
    }

    /**
     * The leader falls silent without closing its connections, as a stopped process does: the emulator holds every
     * byte to and from it. The calls waiting on it would wait 60 s (the client's heartbeat timeout, and the members'
     * before they remove it); the balancer pings it, hears nothing for 500 ms, asks the other members, and once they
     * name the new leader closes the silent connection, so the calls end and the next ones go to the new leader.
     */
    @Test
    @Order(7)
    void leaderAwareDropsASilentLeaderOnceTheMembersNameAnother() throws Exception {
        LeaderView before = topology.leadership().awaitStable(v -> v.leader() != null, "a leader", Duration.ofSeconds(2),
                Duration.ofSeconds(60));
        LeaderAwareLoadBalancer balancer = new LeaderAwareLoadBalancer(FAST);
        HazelcastInstance client = client(balancer, all());
        await("the first leader", Duration.ofSeconds(20),
                () -> balancer.leader().map(MemberFilter::address).orElse("").equals(before.leader().address()));
        var counter = client.getCPSubsystem().getAtomicLong("balancers-it-silent");
        java.util.concurrent.atomic.AtomicLong lastOk = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong failed = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        long giveUp = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        Thread worker = new Thread(() -> {
            while (!stop.get() && System.nanoTime() < giveUp) {
                try {
                    counter.incrementAndGet();
                    lastOk.set(System.nanoTime());
                } catch (RuntimeException e) {
                    failed.incrementAndGet(); // the calls on the closed connection end indeterminate
                }
            }
        }, "balancers-it-silent-worker");
        worker.setDaemon(true);
        worker.start();
        await("calls to succeed", Duration.ofSeconds(10), () -> lastOk.get() != 0);

        NetworkEmulator emulator = (NetworkEmulator) network;
        emulator.isolate(java.util.Set.of(before.leader().index()), true, true);
        long cut = System.nanoTime(); // the leader is silent from here on
        try {
            // The old leader answers nothing now, so a call that succeeds after the balancer has moved off it went to
            // another member: wait for the move first, then for such a call.
            await("the balancer to leave the silent leader", Duration.ofSeconds(30),
                    () -> !balancer.leader().map(MemberFilter::address).orElse(before.leader().address())
                            .equals(before.leader().address()));
            long moved = System.nanoTime();
            await("a call to succeed after the balancer left the silent leader", Duration.ofSeconds(30),
                    () -> lastOk.get() > moved);
            System.out.printf("leader-aware: first call after the leader fell silent succeeded %.2f s later; %d ended"
                    + " in an error; connections closed %d%n", (lastOk.get() - cut) / 1e9, failed.get(),
                    balancer.connectionsClosed());
            assertThat(balancer.connectionsClosed()).as("the balancer closed the silent leader's connection").isEqualTo(1);
            assertThat(balancer.leader().map(MemberFilter::address).orElse(""))
                    .as("the balancer's leader").isNotEqualTo(before.leader().address());
        } finally {
            emulator.heal();
            stop.set(true);
        }
    }

    /** Last: it kills the leader. The members have the LeaderHint class here (the same JVM). */
    @Test
    @Order(8)
    void leaderAwareFollowsALeadershipChange() throws InterruptedException {
        // The test before moved leadership away for a while: start once the priority member leads again, and holds.
        LeaderView leader = topology.leadership().awaitStable(v -> topology.priorityMember().equals(v.leader()),
                "the priority member leading again", Duration.ofSeconds(3), Duration.ofSeconds(90));
        LeaderAwareLoadBalancer balancer = new LeaderAwareLoadBalancer(FAST);
        HazelcastInstance client = client(balancer, all());
        await("the first leader", Duration.ofSeconds(20),
                () -> balancer.leader().map(MemberFilter::address).orElse("").equals(leader.leader().address()));
        assertThat(balancer.usesMemberHint()).isTrue();

        long killed = System.nanoTime();
        topology.kill(leader.leader());
        // Right after an election the leadership can move once more (docs/hazelcast-facts.md, fact 7; seen here): wait for it to
        // hold still, and judge the calls against whoever leads once they have run.
        // If it moves yet again while the ops run (seen once in CI, after 3 s of calm), the ops say nothing about
        // following one leader: settle again and rerun them, at most 3 times.
        LeaderView next = null;
        LeaderView after = null;
        Map<Integer, Long> served = null;
        for (int attempt = 1; attempt <= 3 && (after == null || !after.leader().equals(next.leader())); attempt++) {
            LeaderView settled = topology.leadership().awaitStable(v -> !v.leader().equals(leader.leader()), "a new leader",
                    Duration.ofSeconds(3), Duration.ofSeconds(60));
            next = settled;
            await("the balancer to follow the new leader " + settled.leader(), Duration.ofSeconds(30),
                    () -> balancer.leader().map(MemberFilter::address).orElse("").equals(settled.leader().address()));
            System.out.printf("leader-aware moved to the new leader %s %.1f s after the old one was killed (attempt %d)%n",
                    settled.leader().name(), (System.nanoTime() - killed) / 1e9, attempt);
            try {
                served = served(client);
            } catch (IndeterminateOperationStateException e) {
                // This cluster fails an op whose member left before it answered (FailoverPreset's failOnIndeterminate):
                // leadership moved while the ops ran (seen once in CI, stop 77). As above: settle again, rerun.
                System.out.printf("leadership moved during the ops (%s): settling again%n", e.getMessage());
                after = null;
                continue;
            }
            after = topology.leadership().read();
        }
        assertThat(after).as("leadership held still through one run of the ops in 3 attempts").isNotNull();
        assertThat(after.leader()).as("leadership held during the ops").isEqualTo(next.leader());
        long total = served.values().stream().mapToLong(Long::longValue).sum();
        assertThat(served.get(next.leader().index())).as("new leader's share of %s", served).isGreaterThan(total * 90 / 100);
    }
}
