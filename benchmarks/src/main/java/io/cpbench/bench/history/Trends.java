package io.cpbench.bench.history;

import io.cpbench.bench.results.HistoryRun;
import io.cpbench.core.status.Status;
import io.cpbench.core.trend.EDivisive;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Series of one metric over runs, from the history's rows, and the change points in each ({@link EDivisive}).
 *
 * <p>A series is one (scenario, variant, op, harness, topology, member release, labels): a run that measured several rounds
 * gives it one point, the median of its rounds. Only rows that ended OK count: a TIMEBOXED, UNSTABLE, INCOMPLETE or
 * failed row is kept in the store but would put a number that means something else into the series. Over commits
 * ({@link Order#COMMIT}), the runs of one commit are one point, their median, in the order the commits first ran.
 */
public final class Trends {

    /** What a series is measured in, and which way is worse. */
    public enum Metric {
        OPS("op/s", true), P50("p50 µs", false), P90("p90 µs", false), P99("p99 µs", false), P999("p99.9 µs", false),
        MAX("max µs", false);

        private final String label;
        private final boolean higherIsBetter;

        Metric(String label, boolean higherIsBetter) {
            this.label = label;
            this.higherIsBetter = higherIsBetter;
        }

        public String label() {
            return label;
        }

        public boolean higherIsBetter() {
            return higherIsBetter;
        }

        /** {@code ops}, {@code p50} ... {@code p999}, {@code max}. */
        public static Metric of(String name) {
            for (Metric m : values()) {
                if (m.name().equalsIgnoreCase(name) || m.name().equalsIgnoreCase(name.replace(".", ""))) {
                    return m;
                }
            }
            throw new IllegalArgumentException("unknown metric '" + name + "'; known: ops, p50, p90, p99, p999, max");
        }

        Double of(HistoryRun.Row row) {
            Long micros = switch (this) {
                case OPS -> null;
                case P50 -> row.latency().p50();
                case P90 -> row.latency().p90();
                case P99 -> row.latency().p99();
                case P999 -> row.latency().p999();
                case MAX -> row.latency().max();
            };
            return this == OPS ? Double.valueOf(row.opsPerSecond()) : micros == null ? null : Double.valueOf(micros);
        }

        /** Whether this row's value of the metric is a lower bound (ops abandoned in flight). */
        boolean censored(HistoryRun.Row row) {
            Double v = of(row);
            return this != OPS && row.latency().censoredFrom() != null && v != null && v >= row.latency().censoredFrom();
        }
    }

    /** A series' points in the order runs started, or one per commit. */
    public enum Order { TIME, COMMIT }

    /** What identifies a series. */
    public record Key(String scenario, String variant, String op, String harness, String topology, String memberRelease,
                      String labels) {
        /**
         * {@code client-leader all driver | local 5.4.0 | env=lab}: how lines and the report name it. A topology that
         * names its release already ({@code stock 5.3.8}) is not followed by it again.
         */
        public String text() {
            boolean named = memberRelease == null || memberRelease.isEmpty() || topology.endsWith(" " + memberRelease);
            return name(named ? topology : topology + " " + memberRelease);
        }

        /**
         * The name an acknowledgement is stored under: {@link #text()} with the release always written, as the first
         * stores have them ({@code stock 5.3.8 5.3.8}); a stored name never changes.
         */
        public String ackName() {
            return name(topology + " " + memberRelease);
        }

        private String name(String where) {
            return scenario + (variant == null || variant.isEmpty() ? "" : " " + variant) + " " + op + " " + harness
                    + " | " + where + (labels == null || labels.isEmpty() ? "" : " | " + labels);
        }
    }

    /**
     * One point: a run's (or a commit's) value.
     *
     * @param runId    the run (over commits: the commit's first run)
     * @param censored whether the value is a lower bound
     */
    public record Point(String runId, String startedAt, String commit, double value, boolean censored, String directory) {
    }

    /**
     * A change point in a series.
     *
     * @param before   the last point before the change
     * @param after    the first point after it
     * @param worse    whether the change is for the worse (lower op/s, higher latency)
     */
    public record Change(Point before, Point after, double meanBefore, double meanAfter, double changePercent,
                         double pValue, boolean worse) {
    }

    /** A metric's series and its change points. */
    public record Series(Key key, Metric metric, List<Point> points, List<Change> changes) {
    }

    private Trends() {
    }

    /**
     * Every series of {@code metric} among {@code points} that {@code filter} keeps, with its change points.
     *
     * @param directories run id → its run directory, for the report's links (may be empty)
     */
    public static List<Series> series(List<HistoryStore.SeriesPoint> points, Metric metric, Order order,
                                      Predicate<HistoryStore.SeriesPoint> filter, EDivisive.Options options,
                                      Map<String, String> directories) {
        Map<Key, Map<String, List<HistoryStore.SeriesPoint>>> grouped = new LinkedHashMap<>();
        for (HistoryStore.SeriesPoint p : points) {
            if (p.row().status() != Status.OK || !filter.test(p) || metric.of(p.row()) == null) {
                continue;
            }
            Key key = key(p);
            String group = order == Order.COMMIT ? String.valueOf(p.commit()) : p.runId();
            grouped.computeIfAbsent(key, k -> new LinkedHashMap<>()).computeIfAbsent(group, g -> new ArrayList<>()).add(p);
        }
        // the series are independent: their change points are found in parallel, each on one thread, in key order
        return grouped.entrySet().parallelStream().map(entry -> {
            List<Point> series = new ArrayList<>();
            entry.getValue().forEach((group, rows) -> {
                double[] values = rows.stream().mapToDouble(p -> metric.of(p.row())).toArray();
                boolean censored = rows.stream().anyMatch(p -> metric.censored(p.row()));
                HistoryStore.SeriesPoint first = rows.get(0);
                series.add(new Point(first.runId(), first.runStartedAt(), first.commit(), median(values), censored,
                        directories.get(first.runId())));
            });
            return new Series(entry.getKey(), metric, series, changes(series, metric, options));
        }).toList();
    }

    /** The series a row belongs to. */
    public static Key key(HistoryStore.SeriesPoint p) {
        HistoryRun.Row r = p.row();
        return new Key(r.scenario(), r.variant(), r.op(), r.harness(), p.topology(), p.memberRelease(), p.labels());
    }

    static List<Change> changes(List<Point> points, Metric metric, EDivisive.Options options) {
        double[] values = points.stream().mapToDouble(Point::value).toArray();
        List<Change> changes = new ArrayList<>();
        for (EDivisive.ChangePoint cp : EDivisive.detect(values, options)) {
            boolean worse = metric.higherIsBetter() ? cp.meanAfter() < cp.meanBefore() : cp.meanAfter() > cp.meanBefore();
            changes.add(new Change(points.get(cp.index() - 1), points.get(cp.index()), cp.meanBefore(), cp.meanAfter(),
                    cp.changePercent(), cp.pValue(), worse));
        }
        return changes;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** {@code -7.2 %}. */
    static String percent(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%+.1f %%", value);
    }
}
