package io.cpbench.bench.cli;

import io.cpbench.core.load.LoadSpecBuilder;
import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.core.load.Durations;
import io.cpbench.core.load.LoadSpec;
import picocli.CommandLine.Option;

import java.time.Duration;

/** What each scenario run does. Unset options take the seed's values, or the quick preset's with --quick. */
final class PlanOptions {

    /**
     * The quick preset's warm-up. It used to be 1,000 ops: about 1 s on the leader, but 20-30 s through the slow member
     * (cut at a fifth of the time box); a time is the same everywhere. It was 2 s until the matrix's warm-up round ran
     * every scenario's client path before round 1; since then a cell's warm-up only has its new client's first calls to
     * absorb, and 1 s takes 39 s off the quick matrix (results/reference/local-2core-quick-1s-warmup: round 1 against
     * the later rounds, before and after).
     */
    static final Duration QUICK_WARMUP = Duration.ofSeconds(1);
    /**
     * The quick preset measures each scenario for a fixed time rather than a number of ops, so the quick matrix takes
     * the same wall time on a slow machine as on a fast one (with 10,000 ops it took 14 min at 900 op/s and was on
     * course for 19 min at 450 op/s).
     */
    static final Duration QUICK_DURATION = Duration.ofSeconds(8);
    static final Duration QUICK_TIMEBOX = Duration.ofSeconds(45);
    /**
     * With --quick, the time box of a scenario whose calls go through the slow member (tens of ms per op): its rate
     * is steady after a few seconds, and at 45 s the two such rows took over a third of the quick matrix.
     */
    static final Duration QUICK_SLOW_TIMEBOX = Duration.ofSeconds(15);
    static final Duration MIN_DURATION = Duration.ofSeconds(1);
    static final Duration MIN_TIMEBOX = Duration.ofSeconds(1);
    /** With --duration and no --timebox: time for warm-up and the checks around the measured part. */
    static final Duration DURATION_ALLOWANCE = Duration.ofMinutes(2);
    static final int MAX_THREADS = 1024;

    @Option(names = "--quick", description = "Quick preset: ${sys:cpbench.quick.text}.")
    boolean quick;

    @Option(names = "--ops", paramLabel = "N", description = "Measured ops per scenario, 1 or more (default: 500,000; quick: measure for 8s instead).")
    Long ops;

    @picocli.CommandLine.Spec(picocli.CommandLine.Spec.Target.MIXEE)
    picocli.CommandLine.Model.CommandSpec mixee;

    /** The warm-up asked for: a time, or (the deprecated spelling, a bare number) ops; null for the preset's. */
    Duration warmup;
    Long warmupOps;

    @Option(names = "--warmup", paramLabel = "TIME", description = "How long each scenario runs its op untimed before"
            + " measuring, at most a fifth of its time box; 0 for none (default: 10s; quick: 1s).")
    void warmup(String text) {
        String t = text.strip();
        try {
            warmupOps = ClusterWarmupOption.countedOps(mixee.name(), "--warmup", t);
            warmup = warmupOps == null ? Durations.parse(t) : null;
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(mixee.commandLine(), "--warmup: " + e.getMessage());
        }
    }

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Measure for this long instead of a number of ops, at least 1s (e.g. 60s); without --timebox, the"
                    + " time box grows to fit it.")
    Duration duration;

    @Option(names = "--timebox", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Most a scenario may take, warm-up included, at least 1s; it then reports what it measured as TIMEBOXED"
                    + " (default: 10m; quick: 45s).")
    Duration timebox;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1", description = "Client threads driving ops, 1-1024 (default: ${DEFAULT-VALUE}, as the seed).")
    int threads;

    static {
        System.setProperty("cpbench.quick.text", "measure 8s after a 1s warm-up, 45s time box (15s for scenarios whose"
                + " calls go through the slow member), 3 rounds for a matrix");
    }

    /**
     * The plan for each scenario: {@link #plan()}, except that with --quick and no --timebox or --duration a scenario
     * whose calls go through the slow member gets {@link #QUICK_SLOW_TIMEBOX}.
     */
    java.util.function.Function<io.cpbench.bench.scenario.Scenario, LoadSpec> plans() {
        LoadSpec plan = plan();
        if (!quick || timebox != null || duration != null) {
            return scenario -> plan;
        }
        LoadSpec throughSlow = plan.toBuilder().timebox(QUICK_SLOW_TIMEBOX).build();
        return scenario -> scenario.callsReachSlowMember() ? throughSlow : plan;
    }

    /** The plan these options ask for; anything that cannot work is an {@link IllegalArgumentException} naming the option. */
    LoadSpec plan() {
        if (ops != null && duration != null) {
            throw new IllegalArgumentException("give --ops or --duration, not both");
        }
        if (ops != null && ops < 1) {
            throw new IllegalArgumentException("--ops must be 1 or more, was " + ops);
        }
        if (warmup != null && warmup.isNegative()) {
            throw new IllegalArgumentException("--warmup must be 0 or more, was " + Durations.human(warmup));
        }
        if (duration != null && duration.compareTo(MIN_DURATION) < 0) {
            throw new IllegalArgumentException("--duration must be at least 1s, was " + Durations.human(duration));
        }
        if (timebox != null && timebox.compareTo(MIN_TIMEBOX) < 0) {
            throw new IllegalArgumentException("--timebox must be at least 1s (it bounds a whole scenario, warm-up"
                    + " included), was " + Durations.human(timebox));
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("--threads must be 1-" + MAX_THREADS + ", was " + threads);
        }
        if (duration != null && timebox != null && timebox.compareTo(duration) <= 0) {
            throw new IllegalArgumentException("--timebox " + Durations.human(timebox) + " is not longer than --duration "
                    + Durations.human(duration) + ": every scenario would end TIMEBOXED; give a longer --timebox or omit it");
        }
        LoadSpecBuilder builder = LoadSpec.scenario().threads(threads);
        if (warmupOps != null) {
            builder.warmupOps(warmupOps);
        } else {
            builder.warmup(warmup != null ? warmup : quick ? QUICK_WARMUP : LoadSpec.SCENARIO_WARMUP);
        }
        Duration box = timebox != null ? timebox : quick ? QUICK_TIMEBOX : LoadSpec.DEFAULT_TIMEBOX;
        if (duration != null) {
            builder.duration(duration);
            if (timebox == null && box.compareTo(duration.plus(DURATION_ALLOWANCE)) < 0) {
                // A preset time box shorter than the duration asked for would cut every run short.
                box = duration.plus(DURATION_ALLOWANCE);
            }
        } else if (ops == null && quick) {
            builder.duration(QUICK_DURATION);
        } else {
            builder.ops(ops != null ? ops : LoadSpec.SEED_OPS);
        }
        return builder.timebox(box).build();
    }
}
