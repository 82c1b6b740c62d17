package io.cpbench.bench.scenario;

import java.util.Objects;

/**
 * One row of the seed's table: a network condition and a way for the client to connect.
 *
 * @param name     as in the seed's table
 * @param network  plain (a) or one slow follower (b)
 * @param routing  how the client connects; it builds the client's configuration
 * @param baseline whether every other scenario of its network is compared with this one (the client talking to
 *                 the leader alone)
 */
public record Scenario(String name, Network network, Routing routing, boolean baseline) {

    public Scenario {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(routing, "routing");
        if (routing.needsSlowMember() && !network.slowsAMember()) {
            throw new IllegalArgumentException(name + ": routing " + routing + " needs network (b)");
        }
    }

    /** A scenario that is compared with its network's baseline. */
    public static Scenario of(String name, Network network, Routing routing) {
        return new Scenario(name, network, routing, false);
    }

    /** The scenario its network's others are compared with. */
    public static Scenario baseline(String name, Network network, Routing routing) {
        return new Scenario(name, network, routing, true);
    }

    /** Network (b): one follower's outgoing traffic is delayed. */
    public boolean slowNetwork() {
        return network.slowsAMember();
    }

    /** Whether some of the client's calls land on the slow member, and so pay its delay twice. */
    public boolean callsReachSlowMember() {
        return slowNetwork() && routing.callsMayReachSlowMember();
    }

    public boolean isBaseline() {
        return baseline;
    }

    public String description() {
        return routing.description() + (slowNetwork() ? "; " + network.description() : "");
    }
}
