package io.cpbench.bench.history;

import io.cpbench.bench.results.HistoryRun;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cpbench.core.csv.Csv;
import io.cpbench.core.trend.EDivisive;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What {@code cpbench history} does, each verb one call: import run directories, list and show runs, show trends,
 * find regressions and acknowledge them. Lines go to {@code out}; problems are one-line exceptions.
 */
public final class History {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** What to show of the store: which series, which metric, over what. */
    public record Query(String scenario, String op, String harness, String topology, String release,
                        Map<String, String> labels, Trends.Metric metric, Trends.Order order, String since,
                        EDivisive.Options options) {

        /** The rows its series are made of, chosen by the store ({@link #filter} also checks the labels). */
        HistoryStore.Selection selection(boolean sinceToo) {
            return new HistoryStore.Selection(sinceToo ? since : null, scenario, op, harness, topology, release, true);
        }

        Predicate<HistoryStore.SeriesPoint> filter() {
            return p -> (scenario == null || scenario.equals(p.row().scenario()))
                    && (op == null || op.equals(p.row().op()))
                    && (harness == null || harness.equals(p.row().harness()))
                    && (topology == null || topology.equals(p.topology()))
                    && (release == null || release.equals(p.memberRelease()))
                    && labels.entrySet().stream().allMatch(l -> ("," + p.labels() + ",").contains("," + l.getKey() + "="
                    + l.getValue() + ","));
        }
    }

    private History() {
    }

    /** {@code 2026-10-01} or an instant, as the instant that the store's text compares with; null stays null. */
    public static String since(String text) {
        if (text == null) {
            return null;
        }
        try {
            return text.length() == 10 ? LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant().toString()
                    : Instant.parse(text).toString();
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("--since: '" + text + "' is not a date (2026-10-01) or an instant"
                    + " (2026-10-01T08:00:00Z)");
        }
    }

    /** Imports every run directory under each of {@code roots}; prints a line per run and a total. */
    public static void importRuns(HistoryStore store, List<Path> roots, Map<String, String> labels, PrintStream out) {
        int added = 0;
        int known = 0;
        List<String> problems = new ArrayList<>();
        for (Path root : roots) {
            List<Path> dirs = RunImport.find(root);
            if (dirs.isEmpty()) {
                problems.add(root + ": no result files in it or below it");
            }
            for (Path dir : dirs) {
                HistoryRun run;
                try {
                    run = RunImport.read(dir, null);
                } catch (RuntimeException e) {
                    problems.add(dir + ": skipped: " + e.getMessage());
                    continue;
                }
                run = run.with(labels, null, run.status());
                if (store.add(run)) {
                    added++;
                    out.printf(Locale.ROOT, "added   %s  %-8s %-10s %3d rows  %s%n", shortId(run.id()), run.kind(),
                            run.status(), run.rows().size(), dir);
                } else {
                    known++;
                }
            }
        }
        problems.forEach(p -> out.println("warning: " + p));
        out.printf(Locale.ROOT, "%d run%s added, %d already in %s (%,d runs in all)%n", added, added == 1 ? "" : "s",
                known, store.shown(), store.count());
    }

    /** The newest runs, one line each. */
    public static void list(HistoryStore store, int limit, PrintStream out) {
        List<HistoryRun> runs = store.runs(limit);
        if (runs.isEmpty()) {
            out.println("no runs in " + store.shown() + " yet: runs record themselves as they end, and history import"
                    + " adds older ones");
            return;
        }
        out.printf(Locale.ROOT, "%-12s %-20s %-9s %-10s %-9s %-9s %-10s %s%n", "run", "started", "kind", "status",
                "commit", "members", "topology", "labels");
        for (HistoryRun r : runs) {
            out.printf(Locale.ROOT, "%-12s %-20s %-9s %-10s %-9s %-9s %-10s %s%n", shortId(r.id()),
                    r.startedAt() == null ? "-" : r.startedAt().replaceFirst("\\.\\d+Z$", "Z"), r.kind(), r.status(),
                    Objects.toString(r.build().cpbenchCommit(), "-"), Objects.toString(r.build().memberRelease(), "-"),
                    Objects.toString(r.topology(), "-"), labelText(r.labels()));
        }
    }

    /** One run and its rows. */
    public static void show(HistoryStore store, String id, PrintStream out) {
        HistoryRun r = store.run(id);
        if (r == null) {
            throw new IllegalArgumentException("no run " + id + " in " + store.shown() + " (history list shows them)");
        }
        out.printf(Locale.ROOT, "run %s: %s, %s%n", r.id(), r.kind(), r.status());
        out.printf(Locale.ROOT, "  started %s, ended %s%n", r.startedAt(), r.endedAt());
        HistoryRun.Build b = r.build();
        HistoryRun.Machine m = r.machine();
        out.printf(Locale.ROOT, "  cp-bench %s (%s), members %s, clients %s, topology %s%n", b.cpbenchVersion(),
                Objects.toString(b.cpbenchCommit(), "commit unknown"), b.memberRelease(), b.clientRelease(), r.topology());
        out.printf(Locale.ROOT, "  %s: %s cores, %s MB heap, %s, %s%n", m.host(), m.cores(), m.maxHeapMb(), m.os(), m.jvm());
        out.printf(Locale.ROOT, "  labels %s%n  options %s%n  results %s%n", labelText(r.labels()),
                Objects.toString(r.options(), "-"), r.directory());
        out.printf(Locale.ROOT, "%n%-40s %-10s %5s %-10s %12s %10s %10s %10s %10s %8s  %s%n", "scenario", "op", "round",
                "status", "op/s", "p50 µs", "p99 µs", "p99.9 µs", "max µs", "errors", "leader (term)");
        for (HistoryRun.Row row : r.rows()) {
            out.printf(Locale.ROOT, "%-40s %-10s %5d %-10s %,12.0f %10s %10s %10s %10s %,8d  %s%n",
                    row.scenario() + (row.variant().isEmpty() ? "" : " " + row.variant())
                            + ("driver".equals(row.harness()) ? "" : " [" + row.harness() + "]"), row.op(),
                    row.round(), row.status(), row.opsPerSecond(), micros(row.latency().p50(), row),
                    micros(row.latency().p99(), row), micros(row.latency().p999(), row), micros(row.latency().max(), row),
                    row.errors(), leaders(row.leaders()));
        }
    }

    /** The series the query selects, with their change points, as a table, CSV or JSON. */
    public static void trend(HistoryStore store, Query query, String format, PrintStream out) {
        List<Trends.Series> all = Trends.series(store.points(query.selection(true)), query.metric(), query.order(), query.filter(),
                query.options(), Map.of());
        if (all.isEmpty()) {
            throw new IllegalArgumentException("no series in " + store.shown() + " matches (history list shows the runs;"
                    + " only rows that ended OK count)");
        }
        switch (format) {
            case "json" -> out.println(json(all));
            case "csv" -> {
                out.println("series,metric,run,started,commit,value,censored,change_after");
                for (Trends.Series s : all) {
                    for (Trends.Point p : s.points()) {
                        Trends.Change c = s.changes().stream().filter(ch -> ch.after().runId().equals(p.runId())).findFirst()
                                .orElse(null);
                        out.println(Csv.row(s.key().text(), s.metric().name().toLowerCase(Locale.ROOT), p.runId(),
                                p.startedAt(), p.commit(), String.format(Locale.ROOT, "%.3f", p.value()), p.censored(),
                                c == null ? "" : Trends.percent(c.changePercent()).replace(" ", "")));
                    }
                }
            }
            case "table" -> all.forEach(s -> table(s, out));
            default -> throw new IllegalArgumentException("--format must be table, csv or json, was '" + format + "'");
        }
    }

    private static void table(Trends.Series s, PrintStream out) {
        out.printf(Locale.ROOT, "%n%s  (%s, %d point%s)%n", s.key().text(), s.metric().label(), s.points().size(),
                s.points().size() == 1 ? "" : "s");
        for (Trends.Point p : s.points()) {
            Trends.Change c = s.changes().stream().filter(ch -> ch.after().runId().equals(p.runId())).findFirst().orElse(null);
            if (c != null) {
                out.printf(Locale.ROOT, "  ---- change %s (%s), p = %.2g: mean %,.1f -> %,.1f%n", Trends.percent(c.changePercent()),
                        c.worse() ? "worse" : "better", c.pValue(), c.meanBefore(), c.meanAfter());
            }
            out.printf(Locale.ROOT, "  %-12s %-20s %-9s %s%,14.1f%n", shortId(p.runId()),
                    p.startedAt() == null ? "-" : p.startedAt().replaceFirst("\\.\\d+Z$", "Z"),
                    Objects.toString(p.commit(), "-"), p.censored() ? "≥" : " ", p.value());
        }
    }

    /**
     * A change for the worse, significant, at least {@code failOn} % in size, newer than {@code since} and than the
     * series' last acknowledged change point.
     */
    public record Regression(Trends.Series series, Trends.Change change) {
    }

    /** The regressions in the series the query selects (op/s and p99 when no metric is given). */
    public static List<Regression> regressions(HistoryStore store, Query query, List<Trends.Metric> metrics, double failOn) {
        Map<String, List<String>> acks = store.acks();
        List<Regression> found = new ArrayList<>();
        List<HistoryStore.SeriesPoint> points = store.points(query.selection(false));
        for (Trends.Metric metric : metrics) {
            for (Trends.Series s : Trends.series(points, metric, query.order(), query.filter(), query.options(), Map.of())) {
                int lastAck = -1;
                List<String> acked = acks.getOrDefault(ackKey(s), List.of());
                for (int i = 0; i < s.points().size(); i++) {
                    if (acked.contains(s.points().get(i).runId())) {
                        lastAck = i;
                    }
                }
                for (Trends.Change c : s.changes()) {
                    int at = s.points().indexOf(c.after());
                    boolean recent = query.since() == null || (c.after().startedAt() != null
                            && c.after().startedAt().compareTo(query.since()) >= 0);
                    if (c.worse() && Math.abs(c.changePercent()) >= failOn && at > lastAck && recent) {
                        found.add(new Regression(s, c));
                    }
                }
            }
        }
        return found;
    }

    /** Prints the regressions; whether there were any. */
    public static boolean printRegressions(List<Regression> found, HistoryStore store, PrintStream out) {
        if (found.isEmpty()) {
            out.println("no regressions in " + store.shown());
            return false;
        }
        for (Regression r : found) {
            Trends.Change c = r.change();
            out.printf(Locale.ROOT, "REGRESSION %s %s: %s (p = %.2g), mean %,.1f -> %,.1f%n", r.series().key().text(),
                    r.series().metric().label(), Trends.percent(c.changePercent()), c.pValue(), c.meanBefore(), c.meanAfter());
            out.printf(Locale.ROOT, "    between run %s (%s, commit %s) and run %s (%s, commit %s)%n", shortId(c.before().runId()),
                    c.before().startedAt(), Objects.toString(c.before().commit(), "-"), shortId(c.after().runId()),
                    c.after().startedAt(), Objects.toString(c.after().commit(), "-"));
            out.printf(Locale.ROOT, "    acknowledge it: cpbench history ack %s --reason '...'%n", shortId(c.after().runId()));
        }
        out.printf(Locale.ROOT, "%d regression%s in %s%n", found.size(), found.size() == 1 ? "" : "s", store.shown());
        return true;
    }

    /** Acknowledges every current change point whose first run after is {@code runId}; how many. */
    public static int ack(HistoryStore store, String runId, String reason, Query query, List<Trends.Metric> metrics,
                          PrintStream out) {
        HistoryRun run = store.run(runId);
        if (run == null) {
            throw new IllegalArgumentException("no run " + runId + " in " + store.shown());
        }
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("--reason: say why the change is accepted (a nightly job reads it later)");
        }
        int n = 0;
        List<HistoryStore.SeriesPoint> points = store.points(query.selection(false));
        for (Trends.Metric metric : metrics) {
            for (Trends.Series s : Trends.series(points, metric, query.order(), query.filter(), query.options(), Map.of())) {
                for (Trends.Change c : s.changes()) {
                    if (c.after().runId().equals(run.id())) {
                        store.ack(ackKey(s), run.id(), reason);
                        out.printf(Locale.ROOT, "acknowledged %s %s: %s%n", s.key().text(), metric.label(),
                                Trends.percent(c.changePercent()));
                        n++;
                    }
                }
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException("no change point starts at run " + shortId(run.id())
                    + " (history regressions lists them)");
        }
        return n;
    }

    /** How an acknowledgement names a series: its text and metric. */
    static String ackKey(Trends.Series s) {
        return s.key().ackName() + " | " + s.metric().name().toLowerCase(Locale.ROOT);
    }

    static String shortId(String id) {
        return id.length() > 12 ? id.substring(0, 12) : id;
    }

    private static String labelText(Map<String, String> labels) {
        if (labels.isEmpty()) {
            return "-";
        }
        List<String> parts = new ArrayList<>();
        labels.forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(",", parts);
    }

    private static String micros(Long value, HistoryRun.Row row) {
        if (value == null) {
            return "-";
        }
        Long censoredFrom = row.latency().censoredFrom();
        String mark = censoredFrom != null && value >= censoredFrom ? "≥" : "";
        return mark + String.format(Locale.ROOT, "%,d", value);
    }

    private static String leaders(HistoryRun.Leaders l) {
        if (l.before() == null && l.after() == null) {
            return "-";
        }
        String same = Objects.equals(l.before(), l.after()) && Objects.equals(l.termBefore(), l.termAfter()) ? "held" : "moved";
        return l.before() + " (" + l.termBefore() + ") -> " + l.after() + " (" + l.termAfter() + "), " + same;
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }
}
