package io.cpbench.bench.cli;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code --scenario NAME[,NAME...]}: one or more scenarios, spelled the same in every command that takes a list.
 * The old spellings {@code --scenarios} (and sweep's {@code --routings}) still work, hidden, with a deprecation line.
 */
final class ScenarioOption {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    // picocli hands a multi-value setter everything given so far, each time: each spelling keeps its latest list.
    private List<String> named = List.of();
    private List<String> oldSpelling = List.of();
    private List<String> sweepSpelling = List.of();

    @Option(names = "--scenario", paramLabel = "NAME", split = ",", completionCandidates = Completions.ScenarioNames.class,
            description = "Scenarios to run: one or more, comma separated or repeated (see 'cpbench list'; without it,"
                    + " what the command's description says).")
    void setNamed(List<String> values) {
        named = List.copyOf(values);
    }

    @Option(names = "--scenarios", split = ",", hidden = true)
    void oldSpelling(List<String> values) {
        deprecated(values, "--scenarios");
        oldSpelling = List.copyOf(values);
    }

    @Option(names = "--routings", split = ",", hidden = true)
    void sweepSpelling(List<String> values) {
        deprecated(values, "--routings");
        sweepSpelling = List.copyOf(values);
    }

    private void deprecated(List<String> values, String spelling) {
        if (!values.isEmpty()) { // picocli hands this setter every value so far, each time: the line comes once
            Deprecated.spelling(mixee.name(), spelling, "--scenario, which takes one or more names");
        }
    }

    /** Every name given, under any spelling, in order of spelling. */
    List<String> names() {
        List<String> all = new ArrayList<>(named);
        all.addAll(oldSpelling);
        all.addAll(sweepSpelling);
        return all;
    }

    boolean given() {
        return !names().isEmpty();
    }

    /**
     * The scenarios named, each looked up (an unknown name is bad input, before anything starts), or {@code fallback}
     * alone when none was given.
     */
    List<Scenario> scenariosOr(String fallback) {
        return (given() ? names() : List.of(fallback)).stream().map(name -> Scenarios.byName(name.trim())).toList();
    }
}
