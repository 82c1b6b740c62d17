package io.cpbench.bench.scenario;

/**
 * One row of the seed's table: a network condition and a way for the client to connect.
 *
 * @param name    as in the seed's table
 * @param network "a" (plain) or "b" (one slow follower)
 * @param routing how the client connects
 */
public record Scenario(String name, String network, Routing routing) {

    public String description() {
        return routing.description() + ("a".equals(network) ? "" : "; one follower 10 ms slow");
    }
}
