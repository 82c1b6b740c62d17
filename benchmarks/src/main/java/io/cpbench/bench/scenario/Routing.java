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
    /** Smart routing on, Hazelcast's RoundRobinLB over all members. */
    ROUND_ROBIN("smart routing on, RoundRobinLB over all members"),
    /** Smart routing on, round robin over every member but the slow one (network (b)). */
    ROUND_ROBIN_EXCEPT_SLOW("smart routing on, round robin over all members but the slow one");

    private final String description;

    Routing(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
