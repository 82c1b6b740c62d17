package io.cpbench.bench.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cpbench.core.check.Availability;
import io.cpbench.core.check.ChaosDocument;
import io.cpbench.core.check.Checker;
import io.cpbench.core.history.Event;
import io.cpbench.core.history.HistoryFiles;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.result.MarkdownTable;
import io.cpbench.core.status.Status;
import org.HdrHistogram.Histogram;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A chaos run's {@code chaos.json}: the load under the faults, each fault's availability, and the checkers' verdicts
 * (the load's ending, its invariants, the history's linearizability), composed into the run's one verdict.
 */
public final class ChaosResults implements ResultKind {

    static final String FILE = "chaos.json";

    private final Path dir;
    private final ChaosDocument doc;

    private ChaosResults(Path dir, ChaosDocument doc) {
        this.dir = dir;
        this.doc = doc;
    }

    static boolean in(Path dir) {
        return Files.isRegularFile(dir.resolve(FILE));
    }

    static ChaosResults read(Path dir) {
        return new ChaosResults(dir, Documents.read(dir.resolve(FILE), ChaosDocument.class, "a chaos run's " + FILE));
    }

    /** The checkers' verdicts composed ({@link ChaosDocument#verdict}), as the run's exit code was. */
    @Override
    public Status status() {
        return doc.verdict().status();
    }

    @Override
    public String why() {
        return doc.verdict().reason();
    }

    /** One row: the load under the faults, its status the run's one verdict. */
    @Override
    public HistoryRun history(String kind) {
        LoadResult load = doc.load();
        List<HistoryRun.Row> rows = new ArrayList<>();
        String started = load == null ? null : ScenarioResults.normal(load.startedAt());
        if (load != null && load.total() != null) {
            rows.add(new HistoryRun.Row(Objects.toString(doc.setup().scenario(), "chaos"), Objects.toString(doc.setup().nemesis(), ""), "all",
                    "chaos", 1, null, status(), started, load.ops(), load.errors(), load.opsPerSecond(),
                    ScenarioResults.latency(load.total().all().latency()), null));
        }
        String ended = started == null ? null
                : Instant.parse(started).plus(Duration.ofMillis(Math.round(load.seconds() * 1000))).toString();
        return HistoryRun.ofDocument(dir.resolve(FILE), kind == null ? "chaos" : kind, started, ended, status(), null,
                null, rows);
    }

    /** Each checker's verdict, the faults as a table, and availability over time with the fault windows shaded. */
    @Override
    public void report(Section section) {
        section.kind("fault");
        // each checker's verdict, as the run composed them (or, in an older chaos.json, worked out from its parts)
        for (Checker.Verdict check : doc.checkVerdicts()) {
            section.verdict(check.name(), check.status().name(), check.status() == Status.OK,
                    check.evidence() == null ? "" : check.evidence());
        }
        ArrayNode bands = faultTable(section);
        Path history = dir.resolve("history.jsonl");
        if (!Files.isRegularFile(history)) {
            section.note("no history.jsonl here, so no availability timeline");
            return;
        }
        List<Event> events;
        try {
            events = HistoryFiles.read(history).events();
        } catch (RuntimeException e) {
            section.note("history.jsonl could not be read (" + e.getMessage() + "), so no availability timeline");
            return;
        }
        availabilityChart(events, section, bands);
    }

    /** The faults as a table, one row each; returns their windows as the timeline's shaded bands. */
    private ArrayNode faultTable(Section section) {
        MarkdownTable md = MarkdownTable.of("#", "injected at", "fault", "target", "healed after", "first ok after",
                "longest gap", "ok ops", "errors").right(0, 1, 4, 5, 6, 7);
        int i = 1;
        ArrayNode bands = Section.JSON.createArrayNode();
        for (Availability.Result f : doc.faults() == null ? List.<Availability.Result>of() : doc.faults()) {
            double at = f.injectedAtS();
            double healed = f.healedAfterMs() / 1000; // NaN: never healed
            md.row(Integer.toString(i++), String.format(Locale.ROOT, "%.1f s", at), f.fault(), f.target(),
                    Double.isNaN(healed) ? "never" : String.format(Locale.ROOT, "%.1f s", healed),
                    f.firstOkMs() != null ? String.format(Locale.ROOT, "%,.0f ms", f.firstOkMs()) : "none",
                    String.format(Locale.ROOT, "%,.0f ms%s", f.longestGapMs(), f.gapOpen() ? "+" : ""),
                    Long.toString(f.okOps()), errors(f.errors()));
            Section.band(bands, at, Double.isNaN(healed) ? at + 1e9 : at + healed, "fault",
                    "#" + (i - 1) + " " + f.fault() + " " + f.target());
        }
        if (bands.size() > 3) { // labels this long would run into each other: the number alone names the table's row
            for (JsonNode band : bands) {
                ((ObjectNode) band).put("label", band.path("label").asText().split(" ")[0]);
            }
        }
        ChaosDocument.Setup setup = doc.setup();
        section.table("Faults: " + setup.nemesis() + " (" + setup.faultFor() + " on, " + setup.interval() + " off)"
                + (setup.scenario() == null ? "" : "; clients: " + setup.scenario()), md.render());
        return bands;
    }

    /**
     * Per second of the history's clock (the one faults are timed on): successful ops, failed and unknown ones, and
     * the p99 of the successful ops' latency, with the fault windows shaded.
     */
    private static void availabilityChart(List<Event> events, Section section, ArrayNode bands) {
        TreeMap<Integer, long[]> perSecond = new TreeMap<>();
        TreeMap<Integer, Histogram> latency = new TreeMap<>();
        for (Availability.Completion completion : Availability.completions(events)) {
            Event e = completion.end();
            int second = (int) (e.time() / 1_000_000_000L);
            long[] c = perSecond.computeIfAbsent(second, k -> new long[3]);
            c[completion.ok() ? 0 : e.type() == Event.Type.FAIL ? 1 : 2]++;
            if (completion.ok() && completion.invoke() != null) {
                latency.computeIfAbsent(second, k -> new Histogram(3))
                        .recordValue(Math.max(0, (e.time() - completion.invoke().time()) / 1000));
            }
        }
        if (perSecond.isEmpty()) {
            return;
        }
        int first = perSecond.firstKey();
        int n = perSecond.lastKey() - first + 1;
        double[] t = new double[n];
        Double[] ok = new Double[n];
        Double[] failed = new Double[n];
        Double[] unknown = new Double[n];
        Double[] p99 = new Double[n];
        for (int s = 0; s < n; s++) {
            long[] c = perSecond.getOrDefault(first + s, new long[3]);
            t[s] = first + s + 1;
            ok[s] = (double) c[0];
            failed[s] = (double) c[1];
            unknown[s] = (double) c[2];
            Histogram h = latency.get(first + s);
            p99[s] = h == null ? null : (double) h.getValueAtPercentile(99);
        }
        ObjectNode chart = section.chart("time", "Availability: ops completed per second, fault windows shaded");
        Section.line(chart, new Series.Line("ok/s", t, ok), "ops");
        Section.line(chart, new Series.Line("failed/s", t, failed), "ops");
        Section.line(chart, new Series.Line("unknown (info)/s", t, unknown), "ops");
        Section.line(chart, new Series.Line("p99 µs of ok ops", t, p99), "lat");
        chart.set("bands", bands);
    }

    private static String errors(Map<String, Long> errors) {
        List<String> parts = new ArrayList<>();
        (errors == null ? Map.<String, Long>of() : errors).forEach((key, n) -> parts.add(n + " " + key.replace("|", "/")));
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }
}
