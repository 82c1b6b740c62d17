package io.cpbench.bench.cli;

import io.cpbench.core.run.RunPlan;
import picocli.CommandLine.Option;

import java.time.Duration;

/** What each scenario run does. Unset options take the seed's values, or the quick preset's with --quick. */
final class PlanOptions {

    static final long QUICK_WARMUP = 2_000;
    static final long QUICK_OPS = 10_000;
    static final Duration QUICK_TIMEBOX = Duration.ofSeconds(45);

    @Option(names = "--quick", description = "Quick preset: ${sys:cpbench.quick.text}.")
    boolean quick;

    @Option(names = "--ops", paramLabel = "N", description = "Measured ops per scenario (default: 500,000; quick: 10,000).")
    Long ops;

    @Option(names = "--warmup", paramLabel = "N", description = "Warm-up ops before measuring (default: 10,000; quick: 2,000).")
    Long warmup;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Measure for this long instead of a number of ops (e.g. 60s).")
    Duration duration;

    @Option(names = "--timebox", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Most a scenario may take, warm-up included; it then reports what it measured as TIMEBOXED (default: 10m; quick: 45s).")
    Duration timebox;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1", description = "Client threads driving ops (default: ${DEFAULT-VALUE}, as the seed).")
    int threads;

    static {
        System.setProperty("cpbench.quick.text", "10,000 ops after 2,000 warm-up, 45s time box, 3 rounds for a matrix");
    }

    RunPlan plan() {
        RunPlan.Builder builder = RunPlan.builder().threads(threads);
        builder.warmupOps(warmup != null ? warmup : quick ? QUICK_WARMUP : RunPlan.SEED_WARMUP_OPS);
        builder.timebox(timebox != null ? timebox : quick ? QUICK_TIMEBOX : RunPlan.DEFAULT_TIMEBOX);
        if (duration != null) {
            if (ops != null) {
                throw new IllegalArgumentException("give --ops or --duration, not both");
            }
            builder.duration(duration);
        } else {
            builder.ops(ops != null ? ops : quick ? QUICK_OPS : RunPlan.SEED_OPS);
        }
        return builder.build();
    }
}
