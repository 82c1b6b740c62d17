package io.cpbench.bench.scenario;

/** How a scenario's client reaches the CP group. */
public enum Routing {
    /** Smart routing off; the leader's address only. */
    LEADER("smart routing off, only the leader's address"),
    /** Smart routing off; one follower's address only, so every call pays the forwarding hop. */
    FOLLOWER("smart routing off, one follower's address"),
    /** Smart routing off; the slow member's address only (network (b)). */
    SLOW_FOLLOWER("smart routing off, the slow follower's address"),
    /** Hazelcast's default smart client. */
    SMART("default smart client"),
    /** Smart routing on, FilteringLoadBalancer with an allow list of all members (round robin). */
    ROUND_ROBIN("smart routing on, filtering balancer, allow list = all members"),
    /** Smart routing on, FilteringLoadBalancer denying the slow member (network (b)). */
    ROUND_ROBIN_EXCEPT_SLOW("smart routing on, filtering balancer denying the slow member"),
    /** Smart routing on, LatencyAwareLoadBalancer: no addresses configured, slow members excluded by probes. */
    LATENCY_AWARE("smart routing on, latency-aware balancer"),
    /** Smart routing on, LeaderAwareLoadBalancer: every call to the CP leader. */
    LEADER_AWARE("smart routing on, leader-aware balancer"),
    /** As LEADER_AWARE, but the client is given only the slow member's address to start from. */
    LEADER_AWARE_FROM_SLOW("smart routing on, leader-aware balancer, bootstrapped with only the slow member's address");

    private final String description;

    Routing(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
