package io.cpbench.core.sweep;

import io.cpbench.core.result.ComparisonTable;
import io.cpbench.core.result.Comparison;
import io.cpbench.core.result.MarkdownTable;
import io.cpbench.core.stats.Bootstrap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Two sweeps of the same grid, before (BASE) and after (NEW): per cell (routing and level) new ÷ base of op/s, p50
 * and p99 over the repeats, with {@link Comparison}'s verdict; per routing, how far the knee moved; and how every cell
 * moved together. A knee is an absolute throughput: when every cell of NEW ran slower alike, the machine (or the
 * cluster) was slower, and the knee moves with it whatever else changed, so this says so beside the knees.
 *
 * @param cells      one row per cell both sweeps measured, in BASE's order (routing, level)
 * @param knees      one per routing both sweeps have
 * @param onlyBase   cells only BASE measured
 * @param onlyNew    cells only NEW measured
 * @param slo        the SLO both were analysed under
 */
public record SweepComparison(Comparison.Result cells, List<KneeChange> knees, List<String> onlyBase,
                              List<String> onlyNew, String slo) {

    /** Within this of BASE's, a knee counts as held: one that moves more between two sweeps of one build is news. */
    public static final double KNEE_HOLDS = 0.10;

    /**
     * @param base     BASE's knee level, null when no level met the SLO
     * @param next     NEW's
     * @param baseAt   BASE's SLO-reached estimate ({@link SweepAnalysis.RoutingStats#kneeEstimate}), NaN without a knee
     * @param nextAt   NEW's
     */
    public record KneeChange(String routing, SweepAnalysis.LevelStats base, SweepAnalysis.LevelStats next, double baseAt,
                             double nextAt) {
        /** new ÷ base of the knee's throughput; NaN when either has no knee. */
        public double ratio() {
            return base == null || next == null ? Double.NaN : next.throughput().median() / base.throughput().median();
        }

        /** Both have a knee at the same level and its throughput moved by at most {@link #KNEE_HOLDS}. */
        public boolean holds() {
            double r = ratio();
            return !Double.isNaN(r) && base.level().equals(next.level()) && Math.abs(r - 1) <= KNEE_HOLDS;
        }
    }

    /**
     * @param base    BASE's analysis and its runs (analysed under the SLO to compare by)
     * @throws IllegalArgumentException when the sweeps share no cell
     */
    public static SweepComparison of(SweepAnalysis base, List<CellRun> baseRuns, SweepAnalysis next, List<CellRun> nextRuns,
                                     double tolerance, Set<Comparison.Metric> gate) {
        Map<Cell, List<CellRun>> b = byCell(baseRuns);
        Map<Cell, List<CellRun>> n = byCell(nextRuns);
        List<Cell> shared = b.keySet().stream().filter(n::containsKey).toList();
        if (shared.isEmpty()) {
            throw new IllegalArgumentException("these sweeps share no cell: BASE has " + b.keySet() + ", NEW has " + n.keySet());
        }
        List<Comparison.Samples> samples = shared.stream().map(c -> new Comparison.Samples(c.series(), c.level(),
                metrics(b.get(c)), metrics(n.get(c)))).toList();
        List<KneeChange> knees = new ArrayList<>();
        for (SweepAnalysis.RoutingStats r : base.routings()) {
            next.routings().stream().filter(x -> x.routing().equals(r.routing())).findFirst()
                    .ifPresent(x -> knees.add(new KneeChange(r.routing(), r.knee(), x.knee(), r.kneeEstimate(), x.kneeEstimate())));
        }
        return new SweepComparison(Comparison.ofSamples(samples, tolerance, gate), knees,
                b.keySet().stream().filter(k -> !n.containsKey(k)).map(Cell::toString).toList(),
                n.keySet().stream().filter(k -> !b.containsKey(k)).map(Cell::toString).toList(), base.slo());
    }

    /** Per cell both sweeps measured, new ÷ base of the medians of op/s over the repeats. */
    public double[] cellRatios() {
        return cells.rows().stream().map(r -> r.metrics().get(Comparison.Metric.OPS)).filter(m -> m != null && m.base() > 0)
                .mapToDouble(m -> m.next() / m.base()).toArray();
    }

    /** The median over cells of {@link #cellRatios}; NaN with no cell. */
    public double cellSpeed() {
        double[] r = cellRatios();
        return r.length == 0 ? Double.NaN : Bootstrap.medianOf(r);
    }

    /** Every measured cell moved the same way, by more than {@link SweepAnalysis#SPEED_SPREAD_WARNING} at the median. */
    public boolean machineMoved() {
        double[] r = cellRatios();
        boolean together = Arrays.stream(r).allMatch(x -> x < 1) || Arrays.stream(r).allMatch(x -> x > 1);
        return r.length >= 3 && together && Math.abs(cellSpeed() - 1) > SweepAnalysis.SPEED_SPREAD_WARNING;
    }

    public String markdown(String baseName, String newName) {
        StringBuilder out = new StringBuilder();
        out.append("Knees (SLO ").append(slo).append("): BASE -> NEW\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (KneeChange k : knees) {
            rows.add(List.of(k.routing(), knee(k.base()), knee(k.next()), percent(k.ratio()), at(k.baseAt()) + " -> " + at(k.nextAt())
                    + (Double.isNaN(k.baseAt()) || Double.isNaN(k.nextAt()) ? "" : " (" + percent(k.nextAt() / k.baseAt()) + ")"),
                    k.holds() ? "yes" : "**no**"));
        }
        out.append(MarkdownTable.render(List.of("routing", "knee BASE", "knee NEW", "change", "SLO reached at",
                String.format(Locale.ROOT, "held (same level, ±%.0f %%)", KNEE_HOLDS * 100)), rows));
        out.append('\n');
        double[] ratios = cellRatios();
        if (ratios.length > 0) {
            out.append(String.format(Locale.ROOT, "Every cell, new ÷ base op/s: median %.3f; %d of %d cells slower, %d faster%n",
                    cellSpeed(), Arrays.stream(ratios).filter(x -> x < 1).count(), ratios.length,
                    Arrays.stream(ratios).filter(x -> x > 1).count()));
            if (machineMoved()) {
                out.append(String.format(Locale.ROOT, "every cell moved together by %+.0f %%: that is the machine's (or the"
                        + " cluster's) speed between the sweeps, unless what changed slows every routing and level alike;"
                        + " the knees move with it. Compare routings within one sweep (its paired ratios), or A/B two"
                        + " builds side by side with 'cpbench ab'%n", (cellSpeed() - 1) * 100));
            }
            out.append('\n');
        }
        out.append("Per cell (routing, level), new ÷ base over the repeats:\n\n");
        out.append(ComparisonTable.markdown(cells, baseName, newName, "repeats", "routing", "level"));
        if (!onlyBase.isEmpty() || !onlyNew.isEmpty()) {
            out.append(String.format(Locale.ROOT, "%nNot compared: %s%s%n",
                    onlyBase.isEmpty() ? "" : "only in BASE " + onlyBase, onlyNew.isEmpty() ? ""
                            : (onlyBase.isEmpty() ? "" : "; ") + "only in NEW " + onlyNew));
        }
        return out.toString();
    }

    /** A cell of the grid as both sweeps name it: the series (routing, with member settings) and the level. */
    private record Cell(String series, String level) {
        @Override
        public String toString() {
            return series + " " + level;
        }
    }

    /** Each cell's usable runs. */
    private static Map<Cell, List<CellRun>> byCell(List<CellRun> runs) {
        Map<Cell, List<CellRun>> map = new LinkedHashMap<>();
        for (CellRun r : runs) {
            List<CellRun> here = map.computeIfAbsent(new Cell(r.cell().series(), r.cell().level()), k -> new ArrayList<>());
            if (r.usable()) {
                here.add(r);
            }
        }
        return map;
    }

    private static Map<Comparison.Metric, double[]> metrics(List<CellRun> runs) {
        Map<Comparison.Metric, double[]> m = new EnumMap<>(Comparison.Metric.class);
        m.put(Comparison.Metric.OPS, runs.stream().mapToDouble(CellRun::opsPerSecond).toArray());
        m.put(Comparison.Metric.P50, runs.stream().mapToDouble(r -> r.latency().p50Us()).toArray());
        m.put(Comparison.Metric.P99, runs.stream().mapToDouble(r -> r.latency().p99Us()).toArray());
        return m;
    }

    private static String knee(SweepAnalysis.LevelStats l) {
        return l == null ? "none" : l.level() + ": " + SweepAnalysis.opsWithCi(l.throughput()) + " op/s";
    }

    private static String at(double x) {
        return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%,.0f", x);
    }

    private static String percent(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%+.1f %%", (ratio - 1) * 100);
    }
}
