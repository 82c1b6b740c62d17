package io.cpbench.bench.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cpbench.bench.results.HtmlPage;
import io.cpbench.core.trend.EDivisive;

import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

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
        return write(store, query, query.filter(), metrics, List.of(), file);
    }

    /**
     * Where a run report's link leads: a trend page of the series its runs belong to.
     *
     * @param href   the page, relative to the report
     * @param series how many series it shows
     * @param runs   how many runs the store holds
     * @param store  the store, as shown to a user
     */
    public record Link(String href, int series, long runs, String store) {
    }

    /**
     * Writes the trend page (op/s and p99) of every series that a run in {@code runDirs} is part of, its runs' rows in
     * bold, to {@code file}; null, writing nothing, when none of the runs is in the store.
     */
    public static Link forRuns(HistoryStore store, List<Path> runDirs, Path file, Path report) {
        Set<String> ids = new LinkedHashSet<>();
        for (Path dir : runDirs) {
            try {
                ids.add(RunImport.read(dir, null).id());
            } catch (RuntimeException e) {
                // not a run the history could hold (a directory of JMH output, say): it has no series
            }
        }
        return forRunIds(store, ids, file, report);
    }

    /** {@link #forRuns} for the runs {@code ids}. */
    static Link forRunIds(HistoryStore store, Set<String> ids, Path file, Path report) {
        Set<Trends.Key> keys = new HashSet<>();
        store.points(ids).forEach(p -> keys.add(Trends.key(p)));
        if (keys.isEmpty()) {
            return null;
        }
        History.Query query = new History.Query(null, null, null, null, null, Map.of(), Trends.Metric.OPS,
                Trends.Order.TIME, null, EDivisive.Options.DEFAULT);
        int series = write(store, query, p -> keys.contains(Trends.key(p)), List.of(Trends.Metric.OPS, Trends.Metric.P99),
                List.copyOf(ids), file);
        Path base = report.toAbsolutePath().getParent();
        String href = base == null ? file.toString() : base.relativize(file.toAbsolutePath()).toString();
        return new Link(href, series, store.count(), store.shown());
    }

    private static int write(HistoryStore store, History.Query query, Predicate<HistoryStore.SeriesPoint> filter,
                             List<Trends.Metric> metrics, List<String> highlight, Path file) {
        List<HistoryStore.SeriesPoint> points = store.points(query.selection(true));
        Map<String, String> directories = store.directories();
        ObjectNode data = JSON.createObjectNode();
        data.put("title", "cp-bench history: " + store.shown());
        data.put("generated", "generated " + Instant.now() + " from " + store.count() + " runs; change points by"
                + " E-Divisive means, " + query.options().text());
        highlight.forEach(data.putArray("highlight")::add);
        ArrayNode all = data.putArray("series");
        for (Trends.Metric metric : metrics) {
            for (Trends.Series s : Trends.series(points, metric, query.order(), filter, query.options(), directories)) {
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
        HtmlPage.write(HtmlPage.page("io/cpbench/bench/history/trend.js", data, false), file);
        return all.size();
    }
}
