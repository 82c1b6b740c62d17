package io.cpbench.core.result;

import io.cpbench.core.load.LoadResult;
import io.cpbench.core.stats.Bootstrap;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * Two runs of the same scenarios, before and after a change: per scenario (and per op of a load run) the ratio
 * new ÷ base of op/s, p50 and p99, each the ratio of the medians over rounds with a 95 % bootstrap interval (the two
 * runs resampled apart), and a verdict.
 *
 * <p>A metric is {@code slower} when its interval lies wholly on the worse side of 1 (the runs differ beyond their
 * round-to-round noise) and its point estimate is worse than the tolerance (the difference is big enough to matter);
 * {@code faster} the other way round; else {@code no change}. A row is slower when any gated metric is, faster when
 * op/s is faster and nothing gated is slower. With one round on a side there is no interval, and the verdict rests on
 * the point estimate alone; the table says so.
 */
public final class Comparison {

    public enum Metric {
        OPS("op/s", true), P50("p50", false), P99("p99", false);

        final String label;
        final boolean higherIsBetter;

        Metric(String label, boolean higherIsBetter) {
            this.label = label;
            this.higherIsBetter = higherIsBetter;
        }

        public String label() {
            return label;
        }

        /** @throws IllegalArgumentException for anything but ops, p50, p99 */
        public static Metric of(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "ops", "op/s", "throughput" -> OPS;
                case "p50" -> P50;
                case "p99" -> P99;
                default -> throw new IllegalArgumentException("unknown metric '" + text + "' (expected ops, p50 or p99)");
            };
        }
    }

    public enum Verdict {
        FASTER("faster"), SLOWER("slower"), NO_CHANGE("no change"),
        /** Too few samples to judge (a caller's minimum): the ratios are shown, not judged. */
        UNDECIDED("too few pairs");

        private final String text;

        Verdict(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** One metric of one row: base and new medians, new ÷ base with its interval, and what that means. */
    public record MetricChange(Metric metric, double base, double next, Bootstrap.Interval ratio, Verdict verdict) {
    }

    /** One scenario (with its op, for a load run's per-op rows; "all" otherwise). */
    /**
     * @param note     why the row has no numbers (no usable round on a side), or null
     * @param censored the latency metrics that some round on either side has only as a lower bound (its ops still in
     *                 flight at the end counted at their latency so far): their ratios are not exact, marked †
     */
    public record Row(String scenario, String op, int baseRounds, int newRounds, Map<Metric, MetricChange> metrics,
                      Verdict verdict, String note,
                      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                      Set<Metric> censored) {
        public Row {
            censored = censored == null ? Set.of() : Set.copyOf(censored);
        }

        public Row(String scenario, String op, int baseRounds, int newRounds, Map<Metric, MetricChange> metrics,
                   Verdict verdict, String note) {
            this(scenario, op, baseRounds, newRounds, metrics, verdict, note, Set.of());
        }
    }

    /**
     * @param tolerance how much worse (or better) a metric's point estimate must be to count, 0.05 = 5 %
     * @param gate      the metrics whose slowdown makes a row slower
     */
    public record Result(List<Row> rows, double tolerance, Set<Metric> gate) {
        public boolean regression() {
            return rows.stream().anyMatch(r -> r.verdict() == Verdict.SLOWER);
        }

        public long count(Verdict v) {
            return rows.stream().filter(r -> r.verdict() == v).count();
        }
    }

    private Comparison() {
    }

    /**
     * @throws IllegalArgumentException when the runs are not of the same scenarios, harnesses and ops
     */
    public static Result of(List<RunResult> base, List<RunResult> next, double tolerance, Set<Metric> gate) {
        checkTolerance(tolerance);
        Map<String, List<RunResult>> b = usable(base);
        Map<String, List<RunResult>> n = usable(next);
        if (!b.keySet().equals(n.keySet())) {
            throw new IllegalArgumentException("these runs are not of the same scenarios: BASE has " + b.keySet()
                    + ", NEW has " + n.keySet());
        }
        List<Row> rows = new ArrayList<>();
        for (String label : b.keySet()) {
            List<RunResult> bs = b.get(label);
            List<RunResult> ns = n.get(label);
            if (bs.isEmpty() || ns.isEmpty()) {
                rows.add(new Row(label, "all", bs.size(), ns.size(), Map.of(), ns.isEmpty() && !bs.isEmpty()
                        ? Verdict.SLOWER : Verdict.NO_CHANGE, "no usable (OK, UNSTABLE or TIMEBOXED) round in "
                        + (ns.isEmpty() && bs.isEmpty() ? "either run" : ns.isEmpty() ? "NEW" : "BASE")));
                continue;
            }
            Set<String> bOps = ops(bs);
            Set<String> nOps = ops(ns);
            if (!bOps.equals(nOps)) {
                throw new IllegalArgumentException("these runs are not of the same ops: " + label + " has " + bOps
                        + " in BASE, " + nOps + " in NEW");
            }
            rows.add(row(label, "all", bs, ns, new Values(r -> r.measured().opsPerSecond(), r -> r.latencyMicros().p50(),
                    r -> r.latencyMicros().p99(), r -> !r.latencyMicros().mark(r.latencyMicros().p50()).isEmpty(),
                    r -> !r.latencyMicros().mark(r.latencyMicros().p99()).isEmpty()), tolerance, gate));
            if (bOps.size() > 1) {
                for (String op : bOps) {
                    rows.add(row(label, op, bs, ns, new Values(r -> opStats(r, op).opsPerSecond(),
                            r -> opStats(r, op).latency().p50(), r -> opStats(r, op).latency().p99(),
                            r -> !opStats(r, op).latency().mark(opStats(r, op).latency().p50()).isEmpty(),
                            r -> !opStats(r, op).latency().mark(opStats(r, op).latency().p99()).isEmpty()), tolerance, gate));
                }
            }
        }
        return new Result(rows, tolerance, gated(gate));
    }

    /** What a row compares, read from each result: op/s, p50 and p99 (of all ops, or of one op). */
    private record Values(ToDoubleFunction<RunResult> ops, ToDoubleFunction<RunResult> p50,
                          ToDoubleFunction<RunResult> p99, java.util.function.Predicate<RunResult> p50Censored,
                          java.util.function.Predicate<RunResult> p99Censored) {
    }

    private static Row row(String label, String op, List<RunResult> base, List<RunResult> next, Values values,
                           double tolerance, Set<Metric> gate) {
        Map<Metric, MetricChange> metrics = new LinkedHashMap<>();
        metrics.put(Metric.OPS, change(Metric.OPS, base, next, values.ops(), tolerance));
        if (base.stream().allMatch(Comparison::hasLatencies) && next.stream().allMatch(Comparison::hasLatencies)) {
            metrics.put(Metric.P50, change(Metric.P50, base, next, values.p50(), tolerance));
            metrics.put(Metric.P99, change(Metric.P99, base, next, values.p99(), tolerance));
        }
        Set<Metric> censored = new java.util.TreeSet<>();
        if (metrics.containsKey(Metric.P50) && java.util.stream.Stream.concat(base.stream(), next.stream())
                .anyMatch(values.p50Censored())) {
            censored.add(Metric.P50);
        }
        if (metrics.containsKey(Metric.P99) && java.util.stream.Stream.concat(base.stream(), next.stream())
                .anyMatch(values.p99Censored())) {
            censored.add(Metric.P99);
        }
        return new Row(label, op, base.size(), next.size(), metrics, rowVerdict(metrics, gate), null, censored);
    }

    /** Slower when a gated metric is; else faster when op/s is; else no change. */
    private static Verdict rowVerdict(Map<Metric, MetricChange> metrics, Set<Metric> gate) {
        boolean slower = metrics.values().stream().anyMatch(m -> gate.contains(m.metric()) && m.verdict() == Verdict.SLOWER);
        return slower ? Verdict.SLOWER
                : metrics.get(Metric.OPS).verdict() == Verdict.FASTER ? Verdict.FASTER : Verdict.NO_CHANGE;
    }

    /**
     * A row from paired samples (BASE and NEW measured side by side, pair by pair, as {@code cpbench ab} does): per
     * metric, new ÷ base of each pair, the median of those ratios with a 95 % bootstrap interval over the pairs, and
     * the medians of each side. The pairing takes out what both sides of a pair shared (the machine's slow drift),
     * which separate runs cannot.
     *
     * @param pairs per metric (op/s at least), {base values, new values}, the same length, index i being pair i
     */
    public static Result paired(String scenario, Map<Metric, double[][]> pairs, double tolerance, Set<Metric> gate) {
        return paired(scenario, pairs, null, tolerance, gate);
    }

    /**
     * As {@link #paired(String, Map, double, Set)}, the pairs falling into groups that may differ as wholes (each
     * pair of client processes of {@code cpbench ab}); the interval is then a two-stage bootstrap, groups then pairs
     * ({@link Bootstrap#clusteredMedian95}).
     *
     * @param groupOf the group of each pair, 0 upwards; null for one group
     */
    public static Result paired(String scenario, Map<Metric, double[][]> pairs, int[] groupOf, double tolerance,
                                Set<Metric> gate) {
        checkTolerance(tolerance);
        Map<Metric, MetricChange> metrics = new LinkedHashMap<>();
        int n = pairs.get(Metric.OPS)[0].length;
        for (Metric metric : Metric.values()) {
            double[][] sides = pairs.get(metric);
            if (sides == null) {
                continue;
            }
            double[] b = sides[0];
            double[] x = sides[1];
            if (b.length != n || x.length != n || n == 0) {
                throw new IllegalArgumentException(metric.label() + ": " + b.length + " base and " + x.length
                        + " new values for " + n + " pairs");
            }
            // A turn that measured no op is the slowest a turn can be: its pair's op/s ratio is 0 (NEW) or infinite
            // (BASE), not a reason to judge nothing (a 6x slower NEW once read "no change" for one such turn, CI on a
            // new machine, stop 79). It has no latency, so its pair is left out of p50 and p99; a pair in which
            // neither side measured an op says nothing and is left out of every metric.
            List<Double> kept = new ArrayList<>();
            List<Integer> keptGroups = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                double ratio;
                if (metric == Metric.OPS) {
                    if (!(b[i] > 0) && !(x[i] > 0)) {
                        continue;
                    }
                    ratio = b[i] > 0 ? Math.max(0, x[i]) / b[i] : Double.POSITIVE_INFINITY;
                } else {
                    if (!(b[i] > 0) || !(x[i] > 0)) {
                        continue;
                    }
                    ratio = x[i] / b[i];
                }
                kept.add(ratio);
                keptGroups.add(groupOf == null ? 0 : groupOf[i]);
            }
            if (kept.isEmpty()) {
                metrics.put(metric, new MetricChange(metric, Bootstrap.medianOf(b), Bootstrap.medianOf(x), null, Verdict.UNDECIDED));
                continue;
            }
            double[] ratios = kept.stream().mapToDouble(Double::doubleValue).toArray();
            int[] groupsOfKept = groupOf == null ? null : keptGroups.stream().mapToInt(Integer::intValue).toArray();
            Bootstrap.Interval ratio = Bootstrap.clusteredMedian95(groups(ratios, groupsOfKept));
            metrics.put(metric, new MetricChange(metric, Bootstrap.medianOf(b), Bootstrap.medianOf(x), ratio, verdict(metric, ratio, tolerance)));
        }
        Set<Metric> gated = gated(gate);
        Row row = new Row(scenario, "all", n, n, metrics, rowVerdict(metrics, gated), null);
        return new Result(List.of(row), tolerance, gated);
    }

    /**
     * NEW's results against BASE's, scenario by scenario, paired by round (a matrix across releases runs each scenario
     * on both back to back in every round): per metric the median of the rounds' ratios with a 95 % bootstrap
     * interval over the rounds ({@link #paired}). Only rounds with a usable (OK, UNSTABLE or TIMEBOXED) result on both
     * sides count; a scenario with none gets a row saying so, {@link Verdict#UNDECIDED}.
     */
    public static Result pairedByRound(List<String> scenarios, List<RunResult> baseResults, List<RunResult> newResults,
                                       double tolerance, Set<Metric> gate) {
        checkTolerance(tolerance);
        List<Row> rows = new ArrayList<>();
        for (String scenario : scenarios) {
            Map<Integer, RunResult> base = usableByRound(baseResults, scenario);
            Map<Integer, RunResult> next = usableByRound(newResults, scenario);
            List<Integer> both = base.keySet().stream().filter(next::containsKey).sorted().toList();
            if (both.isEmpty()) {
                rows.add(new Row(scenario, "all", base.size(), next.size(), Map.of(), Verdict.UNDECIDED,
                        "no round usable (OK, UNSTABLE or TIMEBOXED) on both sides"));
                continue;
            }
            Map<Metric, double[][]> pairs = new LinkedHashMap<>();
            pairs.put(Metric.OPS, sides(both, base, next, r -> r.measured().opsPerSecond()));
            if (both.stream().allMatch(r -> hasLatencies(base.get(r)) && hasLatencies(next.get(r)))) {
                pairs.put(Metric.P50, sides(both, base, next, r -> r.latencyMicros().p50()));
                pairs.put(Metric.P99, sides(both, base, next, r -> r.latencyMicros().p99()));
            }
            rows.addAll(paired(scenario, pairs, tolerance, gate).rows());
        }
        return new Result(rows, tolerance, gated(gate));
    }

    private static Map<Integer, RunResult> usableByRound(List<RunResult> results, String scenario) {
        Map<Integer, RunResult> byRound = new LinkedHashMap<>();
        for (RunResult r : results) {
            if (r.scenario().equals(scenario) && r.status().usable()) {
                byRound.put(r.round(), r);
            }
        }
        return byRound;
    }

    private static double[][] sides(List<Integer> rounds, Map<Integer, RunResult> base, Map<Integer, RunResult> next,
                                    ToDoubleFunction<RunResult> value) {
        return new double[][] {rounds.stream().mapToDouble(r -> value.applyAsDouble(base.get(r))).toArray(),
                rounds.stream().mapToDouble(r -> value.applyAsDouble(next.get(r))).toArray()};
    }

    /**
     * {@code result}'s rows with fewer than {@code minPairs} samples on a side made {@link Verdict#UNDECIDED}: their
     * ratios and intervals kept, no metric or row judged. With few pairs every ratio can fall on one side of 1 by
     * chance (all of 3 with probability 1/4 when nothing changed), and a bootstrap interval over them is no guard.
     */
    public static Result undecidedBelow(Result result, int minPairs) {
        List<Row> rows = new ArrayList<>();
        for (Row r : result.rows()) {
            if (Math.min(r.baseRounds(), r.newRounds()) >= minPairs || r.metrics().isEmpty()) {
                rows.add(r);
                continue;
            }
            Map<Metric, MetricChange> metrics = new LinkedHashMap<>();
            r.metrics().forEach((m, c) -> metrics.put(m, new MetricChange(m, c.base(), c.next(), c.ratio(), Verdict.UNDECIDED)));
            rows.add(new Row(r.scenario(), r.op(), r.baseRounds(), r.newRounds(), metrics, Verdict.UNDECIDED, r.note()));
        }
        return new Result(rows, result.tolerance(), result.gate());
    }

    /**
     * One row of unpaired samples: per metric, BASE's values and NEW's (a sweep cell's repeats, say). A metric
     * missing from either map is left out of the row; op/s is required.
     */
    public record Samples(String scenario, String op, Map<Metric, double[]> base, Map<Metric, double[]> next) {
    }

    /**
     * Rows from unpaired samples, by the same rule as {@link #of}: per metric the ratio of the medians with a two-sample
     * 95 % bootstrap interval, and the verdict.
     */
    public static Result ofSamples(List<Samples> samples, double tolerance, Set<Metric> gate) {
        checkTolerance(tolerance);
        Set<Metric> gated = gated(gate);
        List<Row> rows = new ArrayList<>();
        for (Samples s : samples) {
            double[] bo = s.base().get(Metric.OPS);
            double[] no = s.next().get(Metric.OPS);
            if (bo == null || no == null || bo.length == 0 || no.length == 0) {
                int nb = bo == null ? 0 : bo.length;
                int nn = no == null ? 0 : no.length;
                rows.add(new Row(s.scenario(), s.op(), nb, nn, Map.of(), nn == 0 && nb > 0 ? Verdict.SLOWER : Verdict.NO_CHANGE,
                        "no usable sample in " + (nb == 0 && nn == 0 ? "either" : nn == 0 ? "NEW" : "BASE")));
                continue;
            }
            Map<Metric, MetricChange> metrics = new LinkedHashMap<>();
            for (Metric m : Metric.values()) {
                double[] b = s.base().get(m);
                double[] n = s.next().get(m);
                if (b != null && n != null && b.length > 0 && n.length > 0) {
                    metrics.put(m, change(m, b, n, tolerance));
                }
            }
            rows.add(new Row(s.scenario(), s.op(), bo.length, no.length, metrics, rowVerdict(metrics, gated), null));
        }
        return new Result(rows, tolerance, gated);
    }

    private static void checkTolerance(double tolerance) {
        if (!(tolerance >= 0 && tolerance < 1)) {
            throw new IllegalArgumentException("the tolerance must be between 0 % and 100 %, was " + tolerance);
        }
    }

    private static Set<Metric> gated(Set<Metric> gate) {
        return gate.isEmpty() ? EnumSet.noneOf(Metric.class) : EnumSet.copyOf(gate);
    }

    static MetricChange change(Metric metric, List<RunResult> base, List<RunResult> next, ToDoubleFunction<RunResult> f,
                               double tolerance) {
        return change(metric, base.stream().mapToDouble(f).toArray(), next.stream().mapToDouble(f).toArray(), tolerance);
    }

    private static MetricChange change(Metric metric, double[] b, double[] n, double tolerance) {
        if (Bootstrap.medianOf(b) <= 0 || Bootstrap.medianOf(n) <= 0) {
            return new MetricChange(metric, Bootstrap.medianOf(b), Bootstrap.medianOf(n), null, Verdict.NO_CHANGE);
        }
        Bootstrap.Interval ratio = Bootstrap.ratioOfMedians(b, n, 0.95);
        return new MetricChange(metric, Bootstrap.medianOf(b), Bootstrap.medianOf(n), ratio, verdict(metric, ratio, tolerance));
    }

    /** Worse beyond the noise (the interval excludes 1) and beyond the tolerance (the point estimate). */
    static Verdict verdict(Metric metric, Bootstrap.Interval ratio, double tolerance) {
        double r = ratio.median();
        boolean above = ratio.low() > 1 && r > 1 + tolerance;
        boolean below = ratio.high() < 1 && r < 1 - tolerance;
        if (ratio.n() < 2) { // no interval: the point estimate alone
            above = r > 1 + tolerance;
            below = r < 1 - tolerance;
        }
        if (above) {
            return metric.higherIsBetter ? Verdict.FASTER : Verdict.SLOWER;
        }
        if (below) {
            return metric.higherIsBetter ? Verdict.SLOWER : Verdict.FASTER;
        }
        return Verdict.NO_CHANGE;
    }

    /** Per scenario label (every label the run has, so the scenario sets compare), its usable rounds. */
    private static Map<String, List<RunResult>> usable(List<RunResult> results) {
        Map<String, List<RunResult>> map = new LinkedHashMap<>();
        for (RunResult r : results) {
            List<RunResult> list = map.computeIfAbsent(r.label(), k -> new ArrayList<>());
            if (r.status().usable()) { // OK, UNSTABLE or TIMEBOXED: measured to the end, or to its time box
                list.add(r);
            }
        }
        return map;
    }

    private static boolean hasLatencies(RunResult r) {
        return r.latencyMicros() != null && !r.latencyMicros().isEmpty();
    }

    private static Set<String> ops(List<RunResult> runs) {
        Set<String> ops = new TreeSet<>();
        for (RunResult r : runs) {
            if (r.load() != null && r.load().total() != null) {
                r.load().total().ops().forEach(o -> ops.add(o.op()));
            }
        }
        return ops;
    }

    private static LoadResult.OpStats opStats(RunResult r, String op) {
        return r.load().total().ops().stream().filter(o -> o.op().equals(op)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(r.label() + " round " + r.round() + " has no op " + op));
    }

    private static double[][] groups(double[] values, int[] groupOf) {
        if (groupOf == null) {
            return new double[][]{values};
        }
        if (groupOf.length != values.length) {
            throw new IllegalArgumentException(groupOf.length + " groups given for " + values.length + " pairs");
        }
        Map<Integer, List<Double>> by = new java.util.TreeMap<>();
        for (int i = 0; i < values.length; i++) {
            by.computeIfAbsent(groupOf[i], k -> new ArrayList<>()).add(values[i]);
        }
        return by.values().stream().map(l -> l.stream().mapToDouble(Double::doubleValue).toArray()).toArray(double[][]::new);
    }
}
