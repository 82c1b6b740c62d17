package io.cpbench.bench.cli;

import io.cpbench.bench.suite.ClusterWarmup;
import io.cpbench.core.load.Durations;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.util.Set;

/**
 * {@code --cluster-warmup TIME}: one meaning and one default in every command that warms a cluster up. run, matrix,
 * jmh and emulator-cost used to take an op count; a bare number there is still read as ops, with a deprecation
 * line (elsewhere a bare number is seconds, as in every other duration option).
 */
final class ClusterWarmupOption {

    /** The most a warm-up may take; it ends as soon as the cluster's op/s is steady, quick or not. */
    static final Duration DEFAULT = Duration.ofSeconds(60);

    /** The commands whose --cluster-warmup was an op count. */
    private static final Set<String> COUNTED_OPS = Set.of("run", "matrix", "jmh", "emulator-cost");

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    private ClusterWarmup value;

    @Option(names = "--cluster-warmup", paramLabel = "TIME",
            description = "The most the cluster warm-up may take: untimed ops through a smart client before anything is"
                    + " measured, until the cluster's op/s has stopped rising (10 one-second intervals within 60 %% of their"
                    + " median, climbing under 5 %% across them, their median at most 10 %% above the 10 before them), so"
                    + " nothing measured runs on cold members; 0 for none (default: 60s;"
                    + " the same with --quick).")
    void set(String text) {
        String t = text.strip();
        try {
            Long ops = COUNTED_OPS.contains(mixee.name()) ? countedOps(mixee.name(), "--cluster-warmup", t) : null;
            value = ops != null ? ClusterWarmup.ofOps(ops) : ClusterWarmup.of(Durations.parse(t));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(mixee.commandLine(), "--cluster-warmup: " + e.getMessage());
        }
    }

    /**
     * The old spelling of a warm-up that counted ops: a bare number other than 0 is that many ops, said in one
     * deprecation line on stderr; anything else is null (a duration, to be parsed as one).
     */
    static Long countedOps(String command, String option, String text) {
        if (!text.matches("\\d+") || text.matches("0+")) {
            return null;
        }
        System.err.printf("cpbench %s: %s %s is read as %s ops, as before; a bare number is deprecated here, give a"
                + " duration such as 10s%n", command, option, text, text);
        return Long.parseLong(text);
    }

    /** What was given, or the default (the same with --quick: a warm-up ends when steady). */
    ClusterWarmup get() {
        return value != null ? value : ClusterWarmup.of(DEFAULT);
    }

    /** For commands that only take a duration: what was given, or the default. */
    Duration length() {
        return get().length();
    }
}
