package io.cpbench.bench.results;

import io.cpbench.core.load.Durations;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import io.cpbench.core.load.LoadSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one-line forms runs print: a scenario run's result, what a plan measures, and at the end the results that are
 * not OK.
 */
public final class RunLines {

    private RunLines() {
    }

    /** A scenario run's result in one line: status, ops, op/s, p50 and p99, errors, where its calls went and why. */
    public static String oneLine(RunResult r) {
        RunResult.Latency l = r.latencyMicros();
        String latency = l.isEmpty() ? "" : String.format(Locale.ROOT, "  p50 %s%,d µs  p99 %s%,d µs", l.mark(l.p50()),
                l.p50(), l.mark(l.p99()), l.p99());
        return String.format(Locale.ROOT, "%s  %,d ops in %.1f s  %,.0f op/s%s  errors %d  via %s%s",
                r.status(), r.measured().ops(), r.measured().durationSeconds(), r.measured().opsPerSecond(), latency, r.measured().errors(),
                r.cluster().clientTarget() == null ? "-" : r.cluster().clientTarget(), r.reason() == null ? "" : "  (" + r.reason() + ")");
    }

    /** What each run of {@code plan} measures: its time or ops, after its warm-up, on its threads. */
    public static String describe(LoadSpec plan) {
        String measured = plan.measuredFor() != null ? "measure " + Durations.human(plan.measuredFor().toSeconds())
                : String.format(Locale.ROOT, "%,d ops", plan.bounds().ops());
        return String.format(Locale.ROOT, "%s after %s warm-up, %d thread%s", measured, plan.warmupText(),
                plan.threads(), plan.threads() == 1 ? "" : "s");
    }

    /**
     * One line naming the results that are not OK, for standard error, or null when all are OK: what a script's
     * log shows without scrolling through the table.
     */
    public static String notOk(String command, List<RunResult> results) {
        List<RunResult> notOk = results.stream().filter(r -> r.status() != Status.OK).toList();
        if (notOk.isEmpty()) {
            return null;
        }
        Map<Status, Integer> counts = new LinkedHashMap<>();
        for (Status status : Status.values()) {
            int n = (int) notOk.stream().filter(r -> r.status() == status).count();
            if (n > 0) {
                counts.put(status, n);
            }
        }
        List<String> countText = new ArrayList<>();
        counts.forEach((status, n) -> countText.add(n + " " + status));
        List<String> rows = new ArrayList<>();
        for (RunResult r : notOk) {
            String reason = (r.status() == Status.FAIL || r.status() == Status.BREACHED) && r.reason() != null
                    ? " (" + shorten(r.reason(), 90) + ")" : "";
            rows.add(r.scenario() + " round " + r.round() + " " + r.status() + reason);
        }
        return String.format(Locale.ROOT, "cpbench %s: %s of %d result%s: %s", command, String.join(", ", countText),
                results.size(), results.size() == 1 ? "" : "s", String.join("; ", rows));
    }

    private static String shorten(String text, int max) {
        String line = text.lines().findFirst().orElse("");
        return line.length() <= max ? line : line.substring(0, max - 3) + "...";
    }
}
