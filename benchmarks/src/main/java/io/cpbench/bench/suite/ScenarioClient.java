package io.cpbench.bench.suite;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.impl.clientside.HazelcastClientProxy;
import com.hazelcast.client.impl.connection.ClientConnection;
import com.hazelcast.core.HazelcastInstance;
import io.cpbench.bench.scenario.Routing;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.lb.LatencyAwareLoadBalancer;
import io.cpbench.lb.LeaderAwareLoadBalancer;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.lb.ProbingLoadBalancer;
import io.cpbench.topology.LeaderView;
import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;

import java.time.Duration;
import java.util.List;
import java.util.TreeSet;

/**
 * The client a scenario measures through, built for the scenario's routing. A unisocket client is given exactly
 * one address, and is checked to be connected to that member and no other (docs/hazelcast-facts.md, fact 4).
 */
final class ScenarioClient implements AutoCloseable {

    private final HazelcastInstance client;
    private final MemberRef pinned;
    private final String target;
    private ProbingLoadBalancer balancer;

    private ScenarioClient(HazelcastInstance client, MemberRef pinned, String target) {
        this.client = client;
        this.pinned = pinned;
        this.target = target;
    }

    /**
     * Builds and connects the client the scenario's routing asks for, and waits until it is ready to measure: a
     * unisocket client on its one member, a smart client connected to every live member, a probing balancer settled.
     *
     * @param slow the slow member in network (b), or null in (a)
     */
    static ScenarioClient open(Scenario scenario, Topology topology, LeaderView leader, MemberRef slow,
                               Duration connectTimeout, ProbeSettings probeSettings) {
        List<MemberRef> live = topology.members().stream().filter(topology::isAlive).toList();
        Routing.ClientPlan plan = scenario.routing().clientPlan(new Routing.Context(topology.clusterName(),
                "cpbench-" + scenario.name() + "-" + System.nanoTime(), live, leader.leader(), slow, connectTimeout,
                probeSettings));
        ScenarioClient opened = new ScenarioClient(HazelcastClient.newHazelcastClient(plan.config()), plan.pinned(),
                plan.target());
        try {
            if (plan.pinned() != null) {
                opened.verifyPinned();
            } else {
                opened.awaitConnections(plan.awaitConnected(), connectTimeout);
                if (plan.balancer() instanceof ProbingLoadBalancer probing) {
                    opened.awaitProbes(probing, connectTimeout);
                }
            }
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
        return opened;
    }

    HazelcastInstance client() {
        return client;
    }

    String target() {
        return target;
    }

    /** Addresses of the members this client holds connections to. */
    TreeSet<String> connectedMembers() {
        TreeSet<String> addresses = new TreeSet<>();
        if (client instanceof HazelcastClientProxy proxy) {
            for (ClientConnection connection : proxy.client.getConnectionManager().getActiveConnections()) {
                if (connection.getRemoteAddress() != null) {
                    addresses.add(connection.getRemoteAddress().getHost() + ":" + connection.getRemoteAddress().getPort());
                }
            }
        }
        return addresses;
    }

    /**
     * A smart client connects to the other members in the background, and until it has, a load balancer's choice
     * may have no connection and Hazelcast silently uses another (docs/hazelcast-facts.md, fact 3). Wait until it holds them all.
     */
    void awaitConnections(List<String> addresses, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!connectedMembers().containsAll(addresses)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("smart client connected to " + connectedMembers() + " only, not to all of "
                        + addresses + ", within " + timeout.toSeconds() + " s");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the client connected");
            }
        }
    }

    /**
     * A probing balancer starts with no judgement: wait until it has measured every member (and, leader-aware, chosen
     * a leader), so the measurement starts with the routing the scenario is about.
     */
    void awaitProbes(ProbingLoadBalancer balancer, Duration timeout) {
        try {
            if (!balancer.awaitSettled(timeout)) {
                throw new IllegalStateException(balancer + " had not measured every member within " + timeout.toSeconds()
                        + " s; probe medians so far: " + balancer.probeMedians());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the balancer probed the members");
        }
        this.balancer = balancer;
    }

    /** What the client's balancer concluded, for the result: the leader it chose, or the members it excluded. */
    String balancerView() {
        if (balancer instanceof LeaderAwareLoadBalancer leaderAware) {
            return "leader-aware chose " + leaderAware.leader().map(m -> m.getAddress().getHost() + ":" + m.getAddress().getPort())
                    .orElse("no member") + " (" + leaderAware.leaderSource() + ")";
        }
        if (balancer instanceof LatencyAwareLoadBalancer latencyAware) {
            return "latency-aware excluded " + new java.util.TreeSet<>(latencyAware.excludedMembers()) + " at the end; kept "
                    + latencyAware.keptMembersSoFar() + " at some time (" + latencyAware.exclusionChanges() + " changes)";
        }
        return null;
    }

    /** Throws if a unisocket client is connected anywhere but its one member. */
    void verifyPinned() {
        if (pinned == null) {
            return;
        }
        TreeSet<String> connected = connectedMembers();
        if (!connected.equals(new TreeSet<>(List.of(pinned.address())))) {
            throw new IllegalStateException("client should be connected to " + pinned + " only, but is connected to "
                    + (connected.isEmpty() ? "no member" : connected));
        }
    }

    @Override
    public void close() {
        try {
            client.getLifecycleService().terminate();
        } catch (RuntimeException ignored) {
            // Closing is best effort.
        }
    }
}
