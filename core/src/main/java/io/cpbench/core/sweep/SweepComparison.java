package io.cpbench.core.sweep;

import io.cpbench.core.result.Comparison;
import io.cpbench.core.result.ScenarioTable;
import io.cpbench.core.stats.Bootstrap;

import java.util.ArrayList;
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
 * @param cells      one row per cell both sweeps measured, in BASE's order
 * @param knees      one per routing both sweeps have
 * @param cellSpeed  the median over cells of new ÷ base op/s (the cells' medians over repeats); NaN with no cell
 * @param slowerCells how many cells' op/s ratio was below 1
 * @param fasterCells how many cells' op/s ratio was above 1
 * @param onlyBase   cells only BASE measured
 * @param onlyNew    cells only NEW measured
 * @param slo        the SLO both were analysed under
 */
public record SweepComparison(Comparison.Result cells, List<KneeChange> knees, double cellSpeed, int slowerCells,
                              int fasterCells, List<String> onlyBase, List<String> onlyNew, String slo) {

    /** Within this of BASE's, a knee counts as held (issue 16's goal: ±10 % across two sweeps). */
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
        Map<String, List<CellRun>> b = byCell(baseRuns);
        Map<String, List<CellRun>> n = byCell(nextRuns);
        List<String> shared = b.keySet().stream().filter(n::containsKey).toList();
        if (shared.isEmpty()) {
            throw new IllegalArgumentException("these sweeps share no cell: BASE has " + b.keySet() + ", NEW has " + n.keySet());
        }
        List<Comparison.Samples> samples = new ArrayList<>();
        List<Double> speeds = new ArrayList<>();
        int slower = 0;
        int faster = 0;
        for (String key : shared) {
            List<CellRun> bs = b.get(key).stream().filter(CellRun::usable).toList();
            List<CellRun> ns = n.get(key).stream().filter(CellRun::usable).toList();
            int space = key.lastIndexOf(' ');
            samples.add(new Comparison.Samples(key.substring(0, space), key.substring(space + 1), metrics(bs), metrics(ns)));
            if (!bs.isEmpty() && !ns.isEmpty()) {
                double ratio = Bootstrap.medianOf(ns.stream().mapToDouble(CellRun::opsPerSecond).toArray())
                        / Bootstrap.medianOf(bs.stream().mapToDouble(CellRun::opsPerSecond).toArray());
                speeds.add(ratio);
                slower += ratio < 1 ? 1 : 0;
                faster += ratio > 1 ? 1 : 0;
            }
        }
        Comparison.Result rows = Comparison.ofSamples(samples, tolerance, gate);
        List<KneeChange> knees = new ArrayList<>();
        for (SweepAnalysis.RoutingStats r : base.routings()) {
            next.routings().stream().filter(x -> x.routing().equals(r.routing())).findFirst()
                    .ifPresent(x -> knees.add(new KneeChange(r.routing(), r.knee(), x.knee(), r.kneeEstimate(), x.kneeEstimate())));
        }
        double speed = speeds.isEmpty() ? Double.NaN : Bootstrap.medianOf(speeds.stream().mapToDouble(Double::doubleValue).toArray());
        return new SweepComparison(rows, knees, speed, slower, faster,
                b.keySet().stream().filter(k -> !n.containsKey(k)).toList(),
                n.keySet().stream().filter(k -> !b.containsKey(k)).toList(), base.slo());
    }

    /** Every measured cell moved the same way, by more than {@link SweepAnalysis#SPEED_SPREAD_WARNING} at the median. */
    public boolean machineMoved() {
        int measured = (int) cells.rows().stream().filter(r -> !r.metrics().isEmpty()).count();
        boolean together = slowerCells == measured || fasterCells == measured;
        return measured >= 3 && together && Math.abs(cellSpeed - 1) > SweepAnalysis.SPEED_SPREAD_WARNING;
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
        out.append(ScenarioTable.render(List.of("routing", "knee BASE", "knee NEW", "change", "SLO reached at",
                String.format(Locale.ROOT, "held (same level, ±%.0f %%)", KNEE_HOLDS * 100)), rows));
        out.append('\n');
        if (!Double.isNaN(cellSpeed)) {
            int measured = (int) cells.rows().stream().filter(r -> !r.metrics().isEmpty()).count();
            out.append(String.format(Locale.ROOT, "Every cell, new ÷ base op/s: median %.3f; %d of %d cells slower, %d faster%n",
                    cellSpeed, slowerCells, measured, fasterCells));
            if (machineMoved()) {
                out.append(String.format(Locale.ROOT, "every cell moved together by %+.0f %%: that is the machine's (or the"
                        + " cluster's) speed between the sweeps, unless what changed slows every routing and level alike;"
                        + " the knees move with it. Compare routings within one sweep (its paired ratios), or A/B two"
                        + " builds side by side with 'cpbench ab'%n", (cellSpeed - 1) * 100));
            }
            out.append('\n');
        }
        out.append("Per cell (routing, level), new ÷ base over the repeats:\n\n");
        out.append(Comparison.markdown(cells, baseName, newName, "repeats", "routing", "level"));
        if (!onlyBase.isEmpty() || !onlyNew.isEmpty()) {
            out.append(String.format(Locale.ROOT, "%nNot compared: %s%s%n",
                    onlyBase.isEmpty() ? "" : "only in BASE " + onlyBase, onlyNew.isEmpty() ? ""
                            : (onlyBase.isEmpty() ? "" : "; ") + "only in NEW " + onlyNew));
        }
        return out.toString();
    }

    private static Map<String, List<CellRun>> byCell(List<CellRun> runs) {
        Map<String, List<CellRun>> map = new LinkedHashMap<>();
        for (CellRun r : runs) {
            map.computeIfAbsent(r.cell().series() + " " + r.cell().level(), k -> new ArrayList<>()).add(r);
        }
        return map;
    }

    private static Map<Comparison.Metric, double[]> metrics(List<CellRun> runs) {
        Map<Comparison.Metric, double[]> m = new EnumMap<>(Comparison.Metric.class);
        m.put(Comparison.Metric.OPS, runs.stream().mapToDouble(CellRun::opsPerSecond).toArray());
        m.put(Comparison.Metric.P50, runs.stream().mapToDouble(CellRun::p50Us).toArray());
        m.put(Comparison.Metric.P99, runs.stream().mapToDouble(CellRun::p99Us).toArray());
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
