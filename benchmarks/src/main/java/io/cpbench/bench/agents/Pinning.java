package io.cpbench.bench.agents;

import com.hazelcast.cluster.Member;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The agents of a pool's first run, which its later runs (a sweep's cells) use alone. */
final class Pinning {

    private Set<String> pinned;

    /**
     * A pool's runs (a sweep's cells) all use the agents of its first: keeps {@code agents} to those, and says what
     * changed since (one that left is named, one that joined is named and not used; the run is then INCOMPLETE).
     */
    List<String> pin(Map<String, Member> agents) {
        List<String> changed = new ArrayList<>();
        if (pinned == null) {
            pinned = Set.copyOf(agents.keySet());
            return changed;
        }
        pinned.stream().filter(a -> !agents.containsKey(a)).sorted()
                .forEach(a -> changed.add(a + " left the control cluster since the first run"));
        agents.keySet().stream().filter(a -> !pinned.contains(a)).sorted()
                .forEach(a -> changed.add(a + " joined since the first run and was not used"));
        agents.keySet().retainAll(pinned);
        if (agents.isEmpty()) {
            throw new IllegalStateException("none of this run's agents is left: " + String.join("; ", changed));
        }
        return changed;
    }
}
