package io.cpbench.bench.scenario;

import com.hazelcast.client.config.ClientConfig;
import io.cpbench.lb.CpLoadBalancer;
import io.cpbench.lb.FilteringLoadBalancer;
import io.cpbench.lb.LatencyAwareLoadBalancer;
import io.cpbench.lb.LeaderAwareLoadBalancer;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.lb.ProbingLoadBalancer;
import io.cpbench.topology.ClusterClientConfig;
import io.cpbench.topology.MemberRef;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** How a scenario's client reaches the CP group; each routing builds its own client configuration. */
public enum Routing {
    /** Smart routing off; the leader's address only. */
    LEADER("smart routing off, only the leader's address") {
        @Override
        public ClientPlan clientPlan(Context c) {
            return unisocket(c, c.leader());
        }
    },
    /** Smart routing off; one follower's address only, so every call pays the forwarding hop. */
    FOLLOWER("smart routing off, one follower's address") {
        @Override
        public ClientPlan clientPlan(Context c) {
            MemberRef follower = c.liveMembers().stream().filter(m -> !m.equals(c.leader()) && !m.equals(c.slow()))
                    .findFirst().orElseThrow(() -> new IllegalStateException("no live follower to connect to"));
            return unisocket(c, follower);
        }
    },
    /** Smart routing off; the slow member's address only (network (b)). */
    SLOW_FOLLOWER("smart routing off, the slow follower's address") {
        @Override
        public ClientPlan clientPlan(Context c) {
            return unisocket(c, c.requireSlow(this));
        }
    },
    /** Hazelcast's default smart client. */
    SMART("default smart client") {
        @Override
        public ClientPlan clientPlan(Context c) {
            return smart(c, c.liveAddresses(), null, "all members (" + description() + ")");
        }
    },
    /** Smart routing on, FilteringLoadBalancer with an allow list of all members (round robin). */
    ROUND_ROBIN("smart routing on, filtering balancer, allow list = all members") {
        @Override
        public ClientPlan clientPlan(Context c) {
            return smart(c, c.liveAddresses(), FilteringLoadBalancer.allowing(c.liveAddresses()),
                    "all members (" + description() + ")");
        }
    },
    /** Smart routing on, FilteringLoadBalancer denying the slow member (network (b)). */
    ROUND_ROBIN_EXCEPT_SLOW("smart routing on, filtering balancer denying the slow member") {
        @Override
        public ClientPlan clientPlan(Context c) {
            MemberRef slow = c.requireSlow(this);
            return smart(c, c.liveAddresses(), FilteringLoadBalancer.denying(List.of(slow.address())),
                    "all members but " + slow.name() + " (smart, filtering LB)");
        }
    },
    /** Smart routing on, LatencyAwareLoadBalancer: no addresses configured, slow members excluded by probes. */
    LATENCY_AWARE("smart routing on, latency-aware balancer") {
        @Override
        public ClientPlan clientPlan(Context c) {
            return smart(c, c.liveAddresses(), new LatencyAwareLoadBalancer(c.probes()), "all members (" + description() + ")");
        }
    },
    /** Smart routing on, LeaderAwareLoadBalancer: every call to the CP leader. */
    LEADER_AWARE("smart routing on, leader-aware balancer") {
        @Override
        public ClientPlan clientPlan(Context c) {
            return smart(c, c.liveAddresses(), new LeaderAwareLoadBalancer(c.probes()), "all members (" + description() + ")");
        }
    },
    /**
     * A client per CP group, each with a LeaderAwareLoadBalancer watching its own group, and each call sent through
     * the client of its object's group: the per-group route that Hazelcast's {@code LoadBalancer.next()}, which gets
     * no call context, cannot take inside one client. The plan built here is one of those clients; the session opens
     * one per group ({@link #perGroup()}), each with the probe settings' CP group set to its group.
     */
    LEADER_AWARE_PER_GROUP("smart routing on, a client per CP group, each with a leader-aware balancer for its group") {
        @Override
        public ClientPlan clientPlan(Context c) {
            LeaderAwareLoadBalancer balancer = new LeaderAwareLoadBalancer(c.probes());
            ClientConfig config = base(c, c.liveAddresses());
            config.setLoadBalancer(balancer);
            // Every group's client differs from the defaults in its group; the target names what else differs.
            String others = c.probes().withCpGroup(ProbeSettings.defaults().cpGroup()).differencesFromDefaults();
            return new ClientPlan(config, null, c.liveAddresses(), balancer, "all members (leader-aware balancer for its"
                    + " CP group" + (others.isEmpty() ? "" : "; with " + others) + ")");
        }
    },
    /** As LEADER_AWARE, but the client is given only the slow member's address to start from. */
    LEADER_AWARE_FROM_SLOW("smart routing on, leader-aware balancer, bootstrapped with only the slow member's address") {
        @Override
        public ClientPlan clientPlan(Context c) {
            MemberRef slow = c.requireSlow(this);
            // It starts from one address but, as any smart client, must end up connected to all live members.
            return smart(c, List.of(slow.address()), new LeaderAwareLoadBalancer(c.probes()),
                    "started from " + slow.name() + " only (" + description() + ")");
        }
    };

    private final String description;

    Routing(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** The client configuration for this routing, the member it must stay on (if any), and what to wait for. */
    public abstract ClientPlan clientPlan(Context context);

    /** Whether this routing is defined only in network (b). */
    public boolean needsSlowMember() {
        return this == SLOW_FOLLOWER || this == ROUND_ROBIN_EXCEPT_SLOW || this == LEADER_AWARE_FROM_SLOW;
    }

    /** Whether each client instance is one Hazelcast client per CP group the objects are in. */
    public boolean perGroup() {
        return this == LEADER_AWARE_PER_GROUP;
    }

    /** Whether some calls may land on the slow member in network (b). */
    public boolean callsMayReachSlowMember() {
        return this == SLOW_FOLLOWER || this == SMART;
    }

    /**
     * What a routing needs to know to build its client.
     *
     * @param clusterName    the cluster's name
     * @param instanceName   the client instance's name
     * @param liveMembers    the members that are up, by index
     * @param leader         the CP group's leader now
     * @param slow           the slow member in network (b), or null in (a)
     * @param connectTimeout how long the client may take to connect
     * @param probes         how the probing balancers probe
     */
    public record Context(String clusterName, String instanceName, List<MemberRef> liveMembers, MemberRef leader,
                          MemberRef slow, Duration connectTimeout, ProbeSettings probes) {
        public Context {
            Objects.requireNonNull(leader, "leader");
            liveMembers = List.copyOf(liveMembers);
        }

        List<String> liveAddresses() {
            return liveMembers.stream().map(MemberRef::address).toList();
        }

        MemberRef requireSlow(Routing routing) {
            if (slow == null) {
                throw new IllegalStateException(routing + " needs a slow member, and there is none");
            }
            return slow;
        }
    }

    /**
     * A client to build, and what to check once it is up.
     *
     * @param config         the client's configuration
     * @param pinned         the one member a unisocket client must stay connected to, or null for a smart client
     * @param awaitConnected addresses a smart client must hold connections to before measuring
     * @param balancer       the load balancer in the configuration, or null
     * @param target         how results describe where the calls go
     */
    public record ClientPlan(ClientConfig config, MemberRef pinned, List<String> awaitConnected, CpLoadBalancer balancer,
                             String target) {
        public ClientPlan {
            awaitConnected = awaitConnected == null ? List.of() : List.copyOf(awaitConnected);
        }
    }

    private static ClientPlan unisocket(Context c, MemberRef member) {
        ClientConfig config = base(c, List.of(member.address()));
        config.getNetworkConfig().setSmartRouting(false);
        String role = member.equals(c.leader()) ? " (leader)" : member.equals(c.slow()) ? " (slow follower)" : " (follower)";
        return new ClientPlan(config, member, List.of(), null, member.name() + " " + member.address() + role);
    }

    /** A smart client bootstrapped from {@code addresses}; it must hold connections to every live member before measuring. */
    private static ClientPlan smart(Context c, List<String> addresses, CpLoadBalancer balancer, String target) {
        ClientConfig config = base(c, addresses);
        if (balancer != null) {
            config.setLoadBalancer(balancer);
        }
        if (balancer instanceof ProbingLoadBalancer && !c.probes().differencesFromDefaults().isEmpty()) {
            target = target + " with " + c.probes().differencesFromDefaults();
        }
        return new ClientPlan(config, null, c.liveAddresses(), balancer, target);
    }

    private static ClientConfig base(Context c, List<String> addresses) {
        ClientConfig config = ClusterClientConfig.forCluster(c.clusterName(), addresses, c.connectTimeout());
        config.setInstanceName(c.instanceName());
        return config;
    }
}
