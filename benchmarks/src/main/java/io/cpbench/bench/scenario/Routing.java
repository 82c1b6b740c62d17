package io.cpbench.bench.scenario;

/** How a scenario's client reaches the CP group. */
public enum Routing {
    /** Smart routing off; the leader's address only. */
    LEADER("smart routing off, only the leader's address"),
    /** Smart routing off; one follower's address only, so every call pays the forwarding hop. */
    FOLLOWER("smart routing off, one follower's address"),
    /** Hazelcast's default smart client. */
    SMART("default smart client"),
    /** Smart routing on, Hazelcast's RoundRobinLB over all members. */
    ROUND_ROBIN("smart routing on, RoundRobinLB over all members");

    private final String description;

    Routing(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
