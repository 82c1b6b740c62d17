package io.cpbench.bench.run;

import io.cpbench.bench.run.AbProtocol.Pair;
import io.cpbench.bench.run.AbProtocol.Slice;
import io.cpbench.core.load.Durations;
import io.cpbench.core.result.AbSlices;
import io.cpbench.core.result.AbSlicesTurnBuilder;
import io.cpbench.core.result.Comparison;
import io.cpbench.core.result.ComparisonTable;
import io.cpbench.core.stats.Bootstrap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * What an ab run's pairs say, and how it is written: the paired verdict per gated metric (resampled by process pair),
 * how wide its intervals still are, the table, and the turns as {@code slices.csv}.
 */
final class AbAnalysis {

    private AbAnalysis() {
    }

    /** The verdict over {@code pairs}: per metric, the median of new ÷ base in each pair, resampled by process pair. */
    static Comparison.Result analyse(List<Pair> pairs, double tolerance, Set<Comparison.Metric> gate) {
        Map<Comparison.Metric, double[][]> values = new EnumMap<>(Comparison.Metric.class);
        values.put(Comparison.Metric.OPS, sides(pairs, Slice::opsPerSecond));
        values.put(Comparison.Metric.P50, sides(pairs, Slice::p50));
        values.put(Comparison.Metric.P99, sides(pairs, Slice::p99));
        return Comparison.paired(pairs.isEmpty() ? "-" : "ab", values, pairs.stream().mapToInt(p -> p.fork() - 1).toArray(),
                tolerance, gate);
    }

    private static double[][] sides(List<Pair> pairs, ToDoubleFunction<Slice> f) {
        return new double[][]{pairs.stream().mapToDouble(p -> f.applyAsDouble(p.base())).toArray(),
                pairs.stream().mapToDouble(p -> f.applyAsDouble(p.next())).toArray()};
    }

    /** The widest relative half-width among the gated metrics' intervals (infinite when one has none). */
    static double widest(Comparison.Result result, Set<Comparison.Metric> gate) {
        double widest = 0;
        for (Comparison.MetricChange m : result.rows().get(0).metrics().values()) {
            if (gate.contains(m.metric())) {
                widest = Math.max(widest, m.ratio() == null ? Double.POSITIVE_INFINITY : m.ratio().relativeHalfWidth());
            }
        }
        return widest;
    }

    static String progress(Comparison.Result result, Set<Comparison.Metric> gate, int pairs, Duration elapsed) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%d pairs, %s:", pairs, Durations.human(elapsed)));
        for (Comparison.MetricChange m : result.rows().get(0).metrics().values()) {
            Bootstrap.Interval i = m.ratio();
            if (i != null) {
                b.append(String.format(Locale.ROOT, " %s new÷base %.3f [%.3f-%.3f] ±%.1f%%%s;", m.metric().label(),
                        i.median(), i.low(), i.high(), i.relativeHalfWidth() * 100, gate.contains(m.metric()) ? "" : " (not gated)"));
            }
        }
        return b.substring(0, b.length() - 1);
    }

    static String table(Comparison.Result result, List<Pair> pairs, long started, boolean interrupted, String failure,
                        boolean ownClusters) {
        StringBuilder b = new StringBuilder();
        if (interrupted || failure != null) {
            b.append(String.format(Locale.ROOT, "INCOMPLETE: %s after %d pairs%n%n",
                    interrupted ? "interrupted" : "stopped (" + failure + ")", pairs.size()));
        }
        if (result == null) {
            b.append("No verdict: fewer than 2 pairs measured (").append(started).append(" started).\n");
            return b.toString();
        }
        b.append(ComparisonTable.markdown(result, "BASE", "NEW", "pairs"));
        long baseFirst = pairs.stream().filter(Pair::baseFirst).count();
        long forks = pairs.stream().mapToInt(Pair::fork).distinct().count();
        b.append(String.format(Locale.ROOT, "%nEach pair: a turn of each side %s, BASE first in %d"
                + " pairs, NEW first in %d, from %d pair%s of client processes; a ratio is the median over pairs of"
                + " new ÷ base in the pair, its interval a bootstrap over %s. op/s base and new are the medians of the"
                + " turns.%n", ownClusters ? "on its own cluster (both up throughout, fresh for each pair of client"
                        + " processes)" : "on the same cluster", baseFirst, pairs.size() - baseFirst, forks, forks == 1 ? "" : "s",
                forks == 1 ? "pairs" : "process pairs, then the pairs in them"));
        return b.toString();
    }

    /**
     * Adds a pair's two turns to {@code slices.csv} as the pair ends (the header first), so that what was measured is
     * on disk even if this process dies; {@link AbRun#write} writes the whole file again at the end. Between pairs, never
     * inside a turn.
     */
    static void appendSlices(Path runDir, Pair pair) {
        Path file = runDir.resolve("slices.csv");
        String lines = turn(pair, true).csvLine() + "\n" + turn(pair, false).csvLine() + "\n";
        try {
            if (pair.index() == 1 || !Files.exists(file)) {
                Files.writeString(file, AbSlices.HEADER + "\n" + lines, StandardCharsets.UTF_8);
            } else {
                Files.writeString(file, lines, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    static String csv(List<Pair> pairs) {
        List<AbSlices.Turn> turns = new ArrayList<>();
        for (Pair p : pairs) {
            turns.add(turn(p, true));
            turns.add(turn(p, false));
        }
        return AbSlices.csv(turns);
    }

    private static AbSlices.Turn turn(Pair p, boolean base) {
        AbProtocol.Slice x = base ? p.base() : p.next();
        return AbSlicesTurnBuilder.builder().pair(p.index()).processes(p.fork()).first(p.baseFirst() ? "BASE" : "NEW")
                .side(base ? "BASE" : "NEW").ops(x.ops()).errors(x.errors()).seconds(x.seconds())
                .opsPerSecond(x.opsPerSecond()).p50Us(x.p50()).p99Us(x.p99()).build();
    }
}
