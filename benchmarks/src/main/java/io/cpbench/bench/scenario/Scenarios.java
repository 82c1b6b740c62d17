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
            Scenario.baseline("client-leader", Network.PLAIN, Routing.LEADER),
            Scenario.of("client-follower", Network.PLAIN, Routing.FOLLOWER),
            Scenario.baseline("client-leader-1follower10ms", Network.ONE_SLOW_FOLLOWER, Routing.LEADER),
            Scenario.of("client-follower-1follower10ms", Network.ONE_SLOW_FOLLOWER, Routing.FOLLOWER),
            Scenario.of("client-follower10ms-1follower10ms", Network.ONE_SLOW_FOLLOWER, Routing.SLOW_FOLLOWER),
            Scenario.of("client-lb", Network.PLAIN, Routing.ROUND_ROBIN),
            Scenario.of("client-lb-10ms", Network.ONE_SLOW_FOLLOWER, Routing.ROUND_ROBIN_EXCEPT_SLOW),
            Scenario.of("client-smart", Network.PLAIN, Routing.SMART),
            Scenario.of("client-smart-10ms", Network.ONE_SLOW_FOLLOWER, Routing.SMART),
            Scenario.of("client-latency-aware-10ms", Network.ONE_SLOW_FOLLOWER, Routing.LATENCY_AWARE),
            Scenario.of("client-leader-aware", Network.PLAIN, Routing.LEADER_AWARE),
            Scenario.of("client-leader-aware-10ms", Network.ONE_SLOW_FOLLOWER, Routing.LEADER_AWARE),
            Scenario.of("client-leader-aware-from-slow-10ms", Network.ONE_SLOW_FOLLOWER, Routing.LEADER_AWARE_FROM_SLOW));

    /**
     * Scenarios for load runs and sweeps that the matrix does not run by default (name them with --scenario): the
     * per-group route, which only differs from client-leader-aware when the objects are in several CP groups.
     */
    private static final List<Scenario> EXTRA = List.of(
            Scenario.of("client-leader-aware-per-group", Network.PLAIN, Routing.LEADER_AWARE_PER_GROUP));

    private Scenarios() {
    }

    public static List<Scenario> all() {
        return ALL;
    }

    /** The scenarios outside the default matrix ({@link #all()}), which every command still takes by name. */
    public static List<Scenario> extra() {
        return EXTRA;
    }

    public static Scenario byName(String name) {
        for (List<Scenario> list : List.of(ALL, EXTRA)) {
            for (Scenario scenario : list) {
                if (scenario.name().equals(name.trim())) {
                    return scenario;
                }
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + name + "'; known: "
                + java.util.stream.Stream.concat(ALL.stream(), EXTRA.stream()).map(Scenario::name)
                .collect(Collectors.joining(", ")) + " (see 'cpbench list')");
    }

    /**
     * Results as the catalogue knows them: each marked as its network's baseline or not. Result files written before
     * the mark existed lack it; results of scenarios the catalogue does not know keep what they say.
     */
    public static List<io.cpbench.core.result.RunResult> marked(List<io.cpbench.core.result.RunResult> results) {
        return results.stream().map(r -> r.run().baseline() != null ? r : ALL.stream()
                .filter(s -> s.name().equals(r.scenario())).findFirst()
                .map(s -> r.withBaseline(s.isBaseline())).orElse(r)).toList();
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
