package io.cpbench.bench.run;

import io.cpbench.core.load.Durations;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.run.RunPlan;

import java.util.Locale;

/** The one-line forms runs print as they go: a scenario run's result, and what a plan measures. */
public final class RunLines {

    private RunLines() {
    }

    /** A scenario run's result in one line: status, ops, op/s, p50 and p99, errors, where its calls went and why. */
    public static String oneLine(RunResult r) {
        RunResult.Latency l = r.latencyMicros();
        String latency = l.isEmpty() ? "" : String.format(Locale.ROOT, "  p50 %,d µs  p99 %,d µs", l.p50(), l.p99());
        return String.format(Locale.ROOT, "%s  %,d ops in %.1f s  %,.0f op/s%s  errors %d  via %s%s",
                r.status(), r.ops(), r.durationSeconds(), r.opsPerSecond(), latency, r.errors(),
                r.clientTarget() == null ? "-" : r.clientTarget(), r.reason() == null ? "" : "  (" + r.reason() + ")");
    }

    /** What each run of {@code plan} measures: its time or ops, after its warm-up ops, on its threads. */
    public static String describe(RunPlan plan) {
        String measured = plan.duration() != null ? "measure " + Durations.human(plan.duration().toSeconds())
                : String.format(Locale.ROOT, "%,d ops", plan.ops());
        return String.format(Locale.ROOT, "%s after %,d warm-up, %d thread%s", measured, plan.warmupOps(),
                plan.threads(), plan.threads() == 1 ? "" : "s");
    }
}
