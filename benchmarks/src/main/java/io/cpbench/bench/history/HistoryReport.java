package io.cpbench.bench.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cpbench.bench.report.HtmlReport;

import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code history report --html}: one self-contained page with a trend chart per series, its change points marked,
 * each point linking to its run's directory. Works offline (uPlot is inlined, as in the run report).
 */
public final class HistoryReport {

    private static final ObjectMapper JSON = new ObjectMapper();

    private HistoryReport() {
    }

    /** Writes the page for the series {@code query} selects; how many series it shows. */
    public static int write(HistoryStore store, History.Query query, List<Trends.Metric> metrics, Path file) {
        List<HistoryStore.SeriesPoint> points = store.points(query.selection(true));
        Map<String, String> directories = new HashMap<>();
        store.runs(Integer.MAX_VALUE).forEach(r -> directories.put(r.id(), r.directory()));
        ObjectNode data = JSON.createObjectNode();
        data.put("title", "cp-bench history: " + store.shown());
        data.put("generated", "generated " + Instant.now() + " from " + store.count() + " runs; change points by"
                + " E-Divisive means, " + query.options().text());
        ArrayNode all = data.putArray("series");
        for (Trends.Metric metric : metrics) {
            for (Trends.Series s : Trends.series(points, metric, query.order(), query.filter(), query.options(), directories)) {
                ObjectNode series = all.addObject();
                series.put("name", s.key().text());
                series.put("metric", metric.label());
                ArrayNode list = series.putArray("points");
                for (Trends.Point p : s.points()) {
                    ObjectNode point = list.addObject();
                    point.put("run", p.runId());
                    point.put("started", p.startedAt());
                    point.put("commit", p.commit());
                    point.put("value", p.value());
                    point.put("censored", p.censored());
                    point.put("href", p.directory() == null ? null : Path.of(p.directory()).toUri().toString());
                }
                ArrayNode changes = series.putArray("changes");
                for (Trends.Change c : s.changes()) {
                    ObjectNode change = changes.addObject();
                    change.put("after", s.points().indexOf(c.after()));
                    change.put("percent", c.changePercent());
                    change.put("p", c.pValue());
                    change.put("worse", c.worse());
                    change.put("meanBefore", c.meanBefore());
                    change.put("meanAfter", c.meanAfter());
                }
            }
        }
        if (all.isEmpty()) {
            throw new IllegalArgumentException("no series in " + store.shown() + " matches (history list shows the runs;"
                    + " only rows that ended OK count)");
        }
        HtmlReport.write(HtmlReport.page("io/cpbench/bench/history/trend.html", "io/cpbench/bench/history/trend.js", data), file);
        return all.size();
    }
}
