package io.cpbench.bench.results;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cpbench.core.status.Status;
import io.cpbench.core.stats.Usl;
import io.cpbench.core.sweep.CellRun;
import io.cpbench.core.sweep.SweepAnalysis;
import io.cpbench.core.sweep.SweepDocument;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A sweep's {@code sweep.json}: its cells' runs, their analysis (intervals over repeats, the USL fit, the knee). */
public final class SweepResults implements ResultKind {

    static final String FILE = "sweep.json";

    private final Path dir;
    private final SweepDocument doc;

    private SweepResults(Path dir, SweepDocument doc) {
        this.dir = dir;
        this.doc = doc;
    }

    static boolean in(Path dir) {
        return Files.isRegularFile(dir.resolve(FILE));
    }

    static SweepResults read(Path dir) {
        return new SweepResults(dir, Documents.read(dir.resolve(FILE), SweepDocument.class, "a sweep's " + FILE));
    }

    /** OK, or INCOMPLETE when it was interrupted or a cell could not run. */
    @Override
    public Status status() {
        return doc.status() == null ? Status.UNKNOWN : doc.status();
    }

    @Override
    public String why() {
        return doc.analysis() != null && !doc.analysis().complete()
                ? "not every cell of every repeat was measured" : null;
    }

    /** A row per cell run: its cell the variant, its repeat the round. */
    @Override
    public HistoryRun history(String kind) {
        List<HistoryRun.Row> rows = new ArrayList<>();
        for (CellRun c : doc.cells()) {
            boolean any = c.ops() > 0;
            CellRun.Latencies l = c.latency();
            rows.add(new HistoryRun.Row(c.cell().series(), c.cell().level(), "all", "sweep", c.repeat(), null, c.status(),
                    doc.startedAt(), c.ops(), c.errors(), c.opsPerSecond(), new HistoryRun.Latency(any ? l.p50Us() : null,
                    any ? l.p90Us() : null, any ? l.p99Us() : null, any ? l.p999Us() : null, any ? l.maxUs() : null,
                    c.censored() == null ? null : c.censored().fromMicros()), null));
        }
        String started = ScenarioResults.normal(doc.startedAt());
        return HistoryRun.ofDocument(dir.resolve(FILE), kind == null ? "sweep" : kind, started, started, status(),
                doc.environment(), doc.topology(), rows);
    }

    @Override
    public void report(Section section) {
        section.kind("sweep");
        if (doc.environment() != null) {
            section.environment(doc.environment());
        }
        if (doc.topology() != null) {
            section.put("topology", doc.topology());
        }
        Path md = dir.resolve("sweep.md");
        if (Files.isRegularFile(md)) {
            section.table("Sweep", Series.read(md).replaceFirst("^# cp-bench sweep\\s*", ""));
        }
        SweepAnalysis analysis = doc.analysis();
        ObjectNode chart = section.chart("sweep", "Throughput against concurrency (95 % intervals over repeats), USL fit, knee");
        chart.put("slo", analysis == null || analysis.slo() == null ? "" : analysis.slo());
        for (SweepAnalysis.RoutingStats routing : analysis == null || analysis.routings() == null
                ? List.<SweepAnalysis.RoutingStats>of() : analysis.routings()) {
            routing(section, chart, routing);
        }
        boolean rates = doc.grid() != null && doc.grid().rates() != null && !doc.grid().rates().isEmpty();
        chart.put("xLabel", rates ? "offered op/s" : "workers (clients × threads)");
        if (analysis != null && !analysis.complete()) {
            section.note("the sweep is INCOMPLETE: not every cell of every repeat was measured");
        }
    }

    /** One routing's curve: its levels' medians with their intervals, its USL fit dashed, its knee marked. */
    private static void routing(Section section, ObjectNode chart, SweepAnalysis.RoutingStats routing) {
        String name = routing.routing();
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        List<Double> lo = new ArrayList<>();
        List<Double> hi = new ArrayList<>();
        for (SweepAnalysis.LevelStats level : routing.levels() == null ? List.<SweepAnalysis.LevelStats>of() : routing.levels()) {
            if (level.throughput() == null) {
                continue;
            }
            x.add(concurrency(level));
            y.add(level.throughput().median());
            lo.add(level.throughput().low());
            hi.add(level.throughput().high());
        }
        double[] xs = x.stream().mapToDouble(Double::doubleValue).toArray();
        ObjectNode s = Section.line(chart, new Series.Line(name, xs, y.toArray(Double[]::new)), "ops");
        s.set("low", Section.JSON.valueToTree(lo));
        s.set("high", Section.JSON.valueToTree(hi));
        Usl fit = routing.usl();
        if (fit != null && !Double.isNaN(fit.lambda()) && xs.length > 0) {
            int points = 60;
            double max = xs[xs.length - 1] * 1.25;
            double[] ux = new double[points];
            Double[] uy = new Double[points];
            for (int i = 0; i < points; i++) {
                ux[i] = 1 + (max - 1) * i / (points - 1);
                uy[i] = fit.throughput(ux[i]);
            }
            ObjectNode curve = Section.line(chart, new Series.Line(name + " USL (R² " + String.format(Locale.ROOT, "%.2f",
                    fit.rSquared()) + ")", ux, uy), "ops");
            curve.put("dash", true);
            curve.put("of", name);
        } else if (routing.uslNote() != null && !routing.uslNote().isEmpty()) {
            section.note(name + ": no USL fit (" + routing.uslNote() + ")");
        }
        SweepAnalysis.LevelStats knee = routing.knee();
        if (knee != null && knee.throughput() != null) {
            ObjectNode k = s.putObject("knee");
            k.put("x", concurrency(knee));
            k.put("y", knee.throughput().median());
        }
    }

    /** A level's place on the x axis: its offered rate (open loop), else its workers. */
    private static double concurrency(SweepAnalysis.LevelStats level) {
        return level.rate() != null ? level.rate() : level.workers();
    }
}
