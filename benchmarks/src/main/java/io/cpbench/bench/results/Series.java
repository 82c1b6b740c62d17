package io.cpbench.bench.results;

import io.cpbench.core.result.AbSlices;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The numbers the report's charts draw, read off histograms and interval logs. */
public final class Series {

    /** Points per decade of 1/(1-p) on the percentile axis (HdrHistogram's plotter uses 5 ticks per half). */
    static final int STEPS_PER_DECADE = 20;
    /** At most this many points per time series; longer runs are averaged into wider buckets. */
    static final int MAX_TIME_POINTS = 600;

    private Series() {
    }

    /** x and y of a line (y may hold nulls for gaps). */
    public record Line(String label, double[] x, Double[] y) {
    }

    /**
     * The latency percentile distribution as HdrHistogram's plotter draws it: x is 1/(1-p) (1 = the median's
     * left end, 100 = p99, 1000 = p99.9, ...) on a log axis, y the latency in µs at that percentile. Points stop
     * where the count no longer resolves the percentile (1/(1-p) above the count), then the maximum closes the line.
     */
    public static Line percentiles(String label, Histogram h) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        long count = h.getTotalCount();
        if (count > 0) {
            for (int k = 0; ; k++) {
                double x = Math.pow(10, (double) k / STEPS_PER_DECADE);
                if (x > count || k > 6 * STEPS_PER_DECADE) {
                    break;
                }
                double p = 100.0 * (1 - 1 / x);
                xs.add(x);
                ys.add((double) h.getValueAtPercentile(p));
            }
            xs.add((double) Math.max(count, 2));
            ys.add((double) h.getMaxValue());
        }
        return new Line(label, xs.stream().mapToDouble(Double::doubleValue).toArray(), ys.toArray(Double[]::new));
    }

    /** Per interval of an HdrHistogram log: seconds since the log's first interval, op/s, p50 and p99 (µs). */
    record Intervals(double[] t, Double[] opsPerSecond, Double[] p50, Double[] p99) {
        boolean isEmpty() {
            return t.length == 0;
        }
    }

    /** Reads an interval log (missing or unreadable: empty). Long logs are merged into at most {@link #MAX_TIME_POINTS} buckets. */
    static Intervals intervals(Path hlog) {
        List<Histogram> intervals = new ArrayList<>();
        if (hlog != null && Files.isRegularFile(hlog)) {
            try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
                for (int i = 0; i < 1_000_000; i++) {
                    var next = reader.nextIntervalHistogram();
                    if (next == null) {
                        break;
                    }
                    if (next instanceof Histogram h) {
                        intervals.add(h);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // A truncated log (a run cut short) keeps what was read before the damage.
            }
        }
        if (intervals.isEmpty()) {
            return new Intervals(new double[0], new Double[0], new Double[0], new Double[0]);
        }
        int per = (intervals.size() + MAX_TIME_POINTS - 1) / MAX_TIME_POINTS;
        double origin = intervals.get(0).getStartTimeStamp() / 1000.0;
        List<double[]> rows = new ArrayList<>();
        for (int i = 0; i < intervals.size(); i += per) {
            Histogram bucket = intervals.get(i).copy(); // counts, start and end time stamps
            for (int j = i + 1; j < Math.min(i + per, intervals.size()); j++) {
                bucket.add(intervals.get(j));
            }
            long end = intervals.get(Math.min(i + per, intervals.size()) - 1).getEndTimeStamp();
            double seconds = Math.max(1e-3, (end - bucket.getStartTimeStamp()) / 1000.0);
            long n = bucket.getTotalCount();
            rows.add(new double[]{end / 1000.0 - origin, n / seconds, n == 0 ? Double.NaN : bucket.getValueAtPercentile(50),
                    n == 0 ? Double.NaN : bucket.getValueAtPercentile(99)});
        }
        return new Intervals(rows.stream().mapToDouble(r -> r[0]).toArray(), column(rows, 1), column(rows, 2), column(rows, 3));
    }

    private static Double[] column(List<double[]> rows, int i) {
        return rows.stream().map(r -> Double.isNaN(r[i]) ? null : r[i]).toArray(Double[]::new);
    }

    /**
     * An {@code ab} run's turns, from its {@code slices.csv}, per whole pair (a pair with only one turn, as an
     * interrupted run may leave, is left out): when each side's turn ended (seconds of turns from the first), each
     * side's op/s, new ÷ base op/s, new ÷ base p50 (null where the file has no p50), and the pair of client processes
     * the pair ran on.
     */
    public record AbTurns(double[] baseT, Double[] baseOps, double[] newT, Double[] newOps, Double[] pairs,
                          Double[] p50Pairs, int[] processPair) {
    }

    /** @throws io.cpbench.core.result.ResultFormatException naming the file and line when it is not an ab slices file */
    public static AbTurns abTurns(Path csv) {
        // base end, base op/s, new end, new op/s, process pair, base p50, new p50
        java.util.Map<Integer, double[]> byPair = new java.util.TreeMap<>();
        double clock = 0;
        for (AbSlices.Turn turn : AbSlices.read(csv)) {
            clock += turn.seconds();
            double[] row = byPair.computeIfAbsent(turn.pair(), k -> new double[]{Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, 0, Double.NaN, Double.NaN});
            int at = turn.base() ? 0 : 2;
            row[at] = clock;
            row[at + 1] = turn.opsPerSecond();
            row[4] = turn.processes();
            if (turn.p50Us() != null) {
                row[5 + at / 2] = turn.p50Us();
            }
        }
        List<double[]> whole = byPair.values().stream().filter(r -> !Double.isNaN(r[0]) && !Double.isNaN(r[2])).toList();
        int k = whole.size();
        AbTurns turns = new AbTurns(new double[k], new Double[k], new double[k], new Double[k], new Double[k], new Double[k],
                new int[k]);
        for (int i = 0; i < k; i++) {
            double[] r = whole.get(i);
            turns.baseT()[i] = r[0];
            turns.baseOps()[i] = r[1];
            turns.newT()[i] = r[2];
            turns.newOps()[i] = r[3];
            turns.pairs()[i] = r[1] > 0 ? r[3] / r[1] : null;
            turns.p50Pairs()[i] = r[5] > 0 && r[6] > 0 ? r[6] / r[5] : null;
            turns.processPair()[i] = (int) r[4];
        }
        return turns;
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
