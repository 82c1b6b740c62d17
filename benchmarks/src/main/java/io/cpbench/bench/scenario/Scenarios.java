package io.cpbench.bench.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The scenario catalogue. */
public final class Scenarios {

    /**
     * The seed's eight rows, in its order, and client-smart, the (a) counterpart of its last row; then the rows the
     * client-lb balancers add.
     */
    private static final List<Scenario> ALL = List.of(
            new Scenario("client-leader", "a", Routing.LEADER),
            new Scenario("client-follower", "a", Routing.FOLLOWER),
            new Scenario("client-leader-1follower10ms", "b", Routing.LEADER),
            new Scenario("client-follower-1follower10ms", "b", Routing.FOLLOWER),
            new Scenario("client-follower10ms-1follower10ms", "b", Routing.SLOW_FOLLOWER),
            new Scenario("client-lb", "a", Routing.ROUND_ROBIN),
            new Scenario("client-lb-10ms", "b", Routing.ROUND_ROBIN_EXCEPT_SLOW),
            new Scenario("client-smart", "a", Routing.SMART),
            new Scenario("client-smart-10ms", "b", Routing.SMART),
            new Scenario("client-latency-aware-10ms", "b", Routing.LATENCY_AWARE),
            new Scenario("client-leader-aware", "a", Routing.LEADER_AWARE),
            new Scenario("client-leader-aware-10ms", "b", Routing.LEADER_AWARE),
            new Scenario("client-leader-aware-from-slow-10ms", "b", Routing.LEADER_AWARE_FROM_SLOW));

    private Scenarios() {
    }

    public static List<Scenario> all() {
        return ALL;
    }

    public static Scenario byName(String name) {
        for (Scenario scenario : ALL) {
            if (scenario.name().equals(name.trim())) {
                return scenario;
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + name + "'; known: "
                + ALL.stream().map(Scenario::name).collect(Collectors.joining(", ")) + " (see 'cpbench list')");
    }

    /** Scenarios by name, in the order given; all of them for an empty list. */
    public static List<Scenario> byNames(List<String> names) {
        if (names == null || names.isEmpty()) {
            return ALL;
        }
        List<Scenario> chosen = new ArrayList<>();
        for (String name : names) {
            Scenario scenario = byName(name);
            if (chosen.contains(scenario)) {
                throw new IllegalArgumentException("scenario '" + name + "' is named twice");
            }
            chosen.add(scenario);
        }
        return chosen;
    }
}
