package io.cpbench.bench.scenario;

/**
 * One row of the seed's table: a network condition and a way for the client to connect.
 *
 * @param name    as in the seed's table
 * @param network "a" (plain) or "b" (one slow follower)
 * @param routing how the client connects
 */
public record Scenario(String name, String network, Routing routing) {

    /** Network (b): one follower's outgoing traffic is delayed. */
    public boolean slowNetwork() {
        return "b".equals(network);
    }

    /** Whether some of the client's calls land on the slow member, and so pay its delay twice. */
    public boolean callsReachSlowMember() {
        return slowNetwork() && (routing == Routing.SLOW_FOLLOWER || routing == Routing.SMART);
    }

    /** The scenario every other one in its network is compared with: the client talking to the leader alone. */
    public boolean isBaseline() {
        return routing == Routing.LEADER;
    }

    public String description() {
        return routing.description() + (slowNetwork() ? "; one follower slow" : "");
    }
}
