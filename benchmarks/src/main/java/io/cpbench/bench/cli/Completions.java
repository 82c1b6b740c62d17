package io.cpbench.bench.cli;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;

import java.util.Iterator;

/** Values shell completion offers for options whose values are names (picocli's completionCandidates). */
final class Completions {

    private Completions() {
    }

    static final class ScenarioNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return java.util.stream.Stream.concat(Scenarios.all().stream(), Scenarios.extra().stream()).map(Scenario::name)
                    .iterator();
        }
    }
}
