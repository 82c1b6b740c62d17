package io.cpbench.core.load;

import io.cpbench.core.status.Status;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The end-of-run text of a load result: a table per stage and op, the schedule, thresholds and invariants. */
public final class LoadSummary {

    private LoadSummary() {
    }

    public static String render(LoadResult r) {
        boolean open = "open".equals(schedule(r).get("mode"));
        String unit = open ? " op/s" : " workers";
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-6s %-22s %-9s %10s %10s %9s %9s %9s %9s %9s %8s%n", "stage", "level", "op",
                "ops", "op/s", "p50", "p95", "p99", "p99.9", "max", "errors"));
        List<LoadResult.StageStats> rows = new ArrayList<>(r.stages());
        if (r.stages().size() > 1) {
            rows.add(r.total());
        }
        for (LoadResult.StageStats s : rows) {
            String stage = s.stage() == 0 ? "all" : String.valueOf(s.stage());
            String level = s.stage() == 0 ? String.format(Locale.ROOT, "%.0f s", s.seconds())
                    : (s.fromLevel() == s.toLevel() ? num(s.toLevel()) : num(s.fromLevel()) + "->" + num(s.toLevel())) + unit;
            List<LoadResult.OpStats> ops = new ArrayList<>(s.ops());
            if (ops.size() > 1) {
                ops.add(s.all());
            }
            boolean first = true;
            for (LoadResult.OpStats o : ops) {
                LoadResult.LoadLatency l = o.latency();
                java.util.function.LongFunction<String> ms = v -> l.count() == 0 ? "-" : l.mark(v) + LoadSummary.ms(v);
                out.append(String.format(Locale.ROOT, "%-6s %-22s %-9s %,10d %,10.1f %9s %9s %9s %9s %9s %,8d%n",
                        first ? stage : "", first ? level : "", o.op(), o.ops(), o.opsPerSecond(), ms.apply(l.p50()),
                        ms.apply(l.p95()), ms.apply(l.p99()), ms.apply(l.p999()), ms.apply(l.max()), o.errors()));
                first = false;
            }
        }
        agents(out, r);
        for (LoadResult.StageStats s : r.stages()) {
            for (LoadResult.OpStats o : s.ops()) {
                if (!o.errorTypes().isEmpty()) {
                    out.append(String.format(Locale.ROOT, "errors, stage %d, %s: %s%n", s.stage(), o.op(), types(o.errorTypes())));
                }
            }
        }
        if (open) {
            out.append("latency counts from when each op was due (open loop); service time, from when it started, is in the CSV\n");
        }
        io.cpbench.core.stats.Censored censored = r.total().all().latency().censored();
        if (censored != null) {
            out.append(String.format(Locale.ROOT, "≥: a lower bound; %,d op%s still in flight at the end %s counted at"
                    + " %s or more (when abandoned), not left out%n", censored.ops(), censored.ops() == 1 ? "" : "s",
                    censored.ops() == 1 ? "is" : "are", ms(censored.fromMicros())));
        }
        schedule(out, r.schedule());
        out.append(verdicts(r));
        return out.toString();
    }

    /** An open loop's schedule: ops due, started and late, the lag, and whether the target rate was met. */
    private static void schedule(StringBuilder out, LoadResult.ScheduleStats sc) {
        if (sc == null) {
            return;
        }
        out.append(String.format(Locale.ROOT, "schedule: %,d ops due, %,d started, %,d never started, %,d started over 1 ms"
                        + " late; lag p50 %s, p99 %s, max %s%s%n", sc.due(), sc.started(), sc.unstarted(), sc.late(),
                ms(sc.lag().p50()), ms(sc.lag().p99()), ms(sc.lag().max()),
                sc.abandoned() > 0 ? String.format(Locale.ROOT, "; %,d abandoned in flight", sc.abandoned()) : ""));
        if (sc.unstarted() > 0 || sc.lag().p99() > 10_000) {
            out.append(String.format(Locale.ROOT, "target rate not met: the workers could not start every op when it was"
                    + " due (%s); latency includes the wait. Add threads or clients, or lower the rate.%n",
                    sc.unstarted() > 0 ? String.format(Locale.ROOT, "%,d never started", sc.unstarted())
                            : "lag p99 " + ms(sc.lag().p99())));
        }
    }

    /** The thresholds and invariants with their verdicts, and how the run ended when not COMPLETED. */
    public static String verdicts(LoadResult r) {
        StringBuilder out = new StringBuilder();
        if (!r.thresholds().isEmpty()) {
            out.append("thresholds:\n");
            for (LoadResult.ThresholdResult t : r.thresholds()) {
                out.append(String.format(Locale.ROOT, "  %-4s  %-28s %s%n", t.passed() ? "PASS" : "FAIL", t.threshold(), t.actual()));
            }
        }
        if (!r.invariants().isEmpty()) {
            out.append("invariants:\n");
            for (LoadResult.InvariantResult i : r.invariants()) {
                out.append(String.format(Locale.ROOT, "  %-4s  %-8s %s%n", i.holds() ? "OK" : "FAIL", i.name(), i.evidence()));
            }
        }
        if (r.outcome() != Status.OK) {
            out.append(r.outcome()).append(r.reason() == null ? "" : ": " + r.reason()).append('\n');
        } else if (r.reason() != null) {
            out.append("note: ").append(r.reason()).append('\n');
        }
        return out.toString();
    }

    /** A row per load generator, then who began late and why the run is unsteady (several generators only). */
    private static void agents(StringBuilder out, LoadResult r) {
        for (LoadResult.AgentRow a : r.agents()) {
            LoadResult.OpStats o = a.all();
            String where = String.format(Locale.ROOT, "%s (%+.1f ms)", a.agent(), a.clockOffsetMs());
            if (o == null) {
                out.append(String.format(Locale.ROOT, "%-6s %-22s %-9s %s%n", "agent", where, "-", "no numbers: " + a.reason()));
                continue;
            }
            LoadResult.LoadLatency l = o.latency();
            java.util.function.LongFunction<String> ms = v -> l.count() == 0 ? "-" : l.mark(v) + LoadSummary.ms(v);
            out.append(String.format(Locale.ROOT, "%-6s %-22s %-9s %,10d %,10.1f %9s %9s %9s %9s %9s %,8d%n", "agent", where,
                    "all", o.ops(), o.opsPerSecond(), ms.apply(l.p50()), ms.apply(l.p95()), ms.apply(l.p99()),
                    ms.apply(l.p999()), ms.apply(l.max()), o.errors()));
        }
        if (r.agents().stream().anyMatch(a -> a.lateMs() != null && a.lateMs() >= 1)) {
            out.append("agents began measuring after the first: ").append(String.join(", ", r.agents().stream()
                    .filter(a -> a.lateMs() != null).map(a -> String.format(Locale.ROOT, "%s %.0f ms", a.agent(),
                            a.lateMs())).toList())).append('\n');
        }
        for (String why : r.caveats().unsteady()) {
            out.append("unsteady: ").append(why).append('\n');
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> schedule(LoadResult r) {
        Object s = r.spec() == null ? null : r.spec().get("schedule");
        return s instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static String types(Map<String, Long> types) {
        List<String> parts = new ArrayList<>();
        types.forEach((type, n) -> parts.add(String.format(Locale.ROOT, "%s %,d", type, n)));
        return String.join(", ", parts);
    }

    static String num(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%,d", (long) v) : String.format(Locale.ROOT, "%,.1f", v);
    }

    static String ms(long micros) {
        return micros >= 100_000 ? String.format(Locale.ROOT, "%.0fms", micros / 1000.0)
                : String.format(Locale.ROOT, "%.2fms", micros / 1000.0);
    }
}
