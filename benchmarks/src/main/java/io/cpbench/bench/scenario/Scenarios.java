package io.cpbench.bench.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The scenario catalogue. */
public final class Scenarios {

    private static final List<Scenario> ALL = List.of(
            new Scenario("client-leader", "a", Routing.LEADER),
            new Scenario("client-follower", "a", Routing.FOLLOWER),
            new Scenario("client-lb", "a", Routing.ROUND_ROBIN),
            new Scenario("client-smart", "a", Routing.SMART));

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
