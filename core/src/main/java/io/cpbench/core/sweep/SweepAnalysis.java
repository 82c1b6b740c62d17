package io.cpbench.core.sweep;

import io.cpbench.core.load.Threshold;
import io.cpbench.core.stats.Bootstrap;
import io.cpbench.core.stats.Usl;
import io.soabase.recordbuilder.core.RecordBuilder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a sweep's cells say: throughput per routing and level with a 95 % bootstrap interval over repeats, the knee
 * under an SLO, a Universal Scalability Law fit per routing, which routing wins at each level (paired ratios of runs
 * of the same repeat), and an "optimal configuration" with the reasons taken from those numbers.
 *
 * @param slo       the SLO, as given ({@code p99<10ms})
 * @param routings  per routing, in the order the grid gave them
 * @param winners   per level, in the order of the grid
 * @param knee      the best knee over all routings, or null when no level met the SLO
 * @param optimal   the recommended configuration, one row per component
 * @param complete  every cell of every repeat was measured
 * @param repeatSpeed per repeat, in order: the median over cells of the run's op/s ÷ that cell's median op/s over
 *                  the repeats (cells with two or more usable runs); 1.0 everywhere when every cell ran alike in every
 *                  repeat. All cells moving together is the machine or the cluster, not a routing: absolute figures
 *                  such as the knee move with it, ratios paired by repeat much less. Empty with fewer than two repeats.
 */
public record SweepAnalysis(String slo, List<RoutingStats> routings, List<LevelWinner> winners, Knee knee,
                            List<ConfigRow> optimal, boolean complete, List<Double> repeatSpeed) {

    /** Above this spread between the fastest and the slowest repeat the report says the machine's speed moved. */
    public static final double SPEED_SPREAD_WARNING = 0.10;

    /** A sweep's SLO from its text: {@link #checkSlo} on what {@link Threshold#parse} reads; one-line errors naming --slo. */
    public static Threshold slo(String text) {
        Threshold slo;
        try {
            slo = Threshold.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--slo: " + e.getMessage());
        }
        checkSlo(slo);
        return slo;
    }

    /** @throws IllegalArgumentException unless {@code slo} is a latency upper bound, like p99<10ms */
    public static void checkSlo(Threshold slo) {
        if (!slo.isLatency()) {
            throw new IllegalArgumentException("--slo '" + slo.text() + "': an SLO is a latency bound, like p99<10ms or p99.9<50ms");
        }
        if (slo.comparison() == Threshold.Comparison.GT || slo.comparison() == Threshold.Comparison.GE) {
            throw new IllegalArgumentException("--slo '" + slo.text() + "': an SLO is an upper bound, like p99<10ms");
        }
    }

    /**
     * @param runs       usable runs
     * @param failed     runs that were not usable (FAIL, INCOMPLETE)
     * @param throughput median op/s with its 95 % interval over repeats
     * @param p50Us      median over repeats of each run's p50
     * @param p99Us      median over repeats of each run's p99
     * @param sloActual  median over repeats of the SLO's metric
     * @param sloMet     that median meets the SLO
     * @param p99Censored some run's p99 is only a lower bound (ops abandoned in flight were recorded at their latency
     *                    so far): the median is shown "≥"
     */
    @RecordBuilder
    public record LevelStats(String level, int clients, int threads, int workers, Double rate, int runs, int failed,
                             Bootstrap.Interval throughput, double p50Us, double p99Us, double sloActual, boolean sloMet,
                             long errors, boolean p99Censored) {
    }

    /**
     * @param routing      the series: a routing, with its member settings when the sweep varied them
     * @param uslNote      why there is no fit, or null
     * @param members      the member settings of this series (empty: Hazelcast's defaults)
     * @param kneeEstimate the throughput at which the SLO metric reaches its bound, interpolated linearly between
     *                     the knee and the next level up (over the SLO); the knee's own throughput when there is no
     *                     such level, or when the next level gave less; NaN without a knee. Levels are steps (32 to
     *                     64 workers), and a knee read off them jumps a whole step when one median p99 crosses the
     *                     bound; the estimate moves with the numbers instead.
     * @param kneeBracket  the level the estimate reached toward, or null when it is the knee's own throughput
     * @param kneeByRepeat the same estimate from each repeat's own runs alone (one run per level), in repeat order;
     *                     NaN for a repeat with no level within the SLO. Their spread is how far the knee moves
     *                     between passes over the grid minutes apart, so how closely a second sweep can agree with
     *                     this one; empty with fewer than two repeats
     */
    @RecordBuilder
    public record RoutingStats(String routing, List<LevelStats> levels, LevelStats knee, Usl usl, String uslNote,
                               String members, double kneeEstimate, String kneeBracket, List<Double> kneeByRepeat) {

        /** The widest repeat's knee ÷ the narrowest's, minus 1; NaN when a repeat had no knee or there are none. */
        public double kneeSpread() {
            if (kneeByRepeat.isEmpty() || kneeByRepeat.stream().anyMatch(v -> Double.isNaN(v) || v <= 0)) {
                return Double.NaN;
            }
            double min = kneeByRepeat.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            double max = kneeByRepeat.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            return max / min - 1;
        }
    }

    /**
     * @param ratio best ÷ runner-up, paired by repeat, median with its 95 % interval; null with no pair
     * @param clear the interval lies wholly above 1
     */
    public record LevelWinner(String level, String best, String runnerUp, Bootstrap.Interval ratio, boolean clear) {
    }

    public record Knee(String routing, LevelStats level) {
    }

    public record ConfigRow(String component, String value, String reason) {
    }

    /**
     * @param cells the grid's cells in order (routings and levels are taken in their first appearance here)
     * @param runs  every run measured so far
     * @param slo   a latency threshold
     * @param repeats how many repeats were planned (to say whether the sweep is complete)
     */
    public static SweepAnalysis of(List<SweepCell> cells, List<CellRun> runs, Threshold slo, int repeats) {
        Set<String> routingOrder = new LinkedHashSet<>();
        Map<String, String> membersOf = new LinkedHashMap<>();
        Map<String, SweepCell> levelOrder = new LinkedHashMap<>();
        cells.forEach(c -> {
            routingOrder.add(c.series());
            membersOf.put(c.series(), c.members());
            levelOrder.putIfAbsent(c.level(), c);
        });
        List<SweepCell> levels = new ArrayList<>(levelOrder.values());
        levels.sort(Comparator.comparingInt(SweepCell::workers).thenComparing(c -> c.rate() == null ? 0 : c.rate())
                .thenComparingInt(SweepCell::clients));
        List<RoutingStats> routingStats = new ArrayList<>();
        for (String routing : routingOrder) {
            routingStats.add(routing(routing, membersOf.get(routing), levels, runs, slo));
        }
        List<LevelWinner> winners = new ArrayList<>();
        for (SweepCell level : levels) {
            LevelWinner w = winner(level.level(), routingStats, runs);
            if (w != null) {
                winners.add(w);
            }
        }
        Knee best = routingStats.stream().filter(r -> r.knee() != null)
                .max(Comparator.comparingDouble(RoutingStats::kneeEstimate))
                .map(r -> new Knee(r.routing(), r.knee())).orElse(null);
        long planned = (long) cells.size() * repeats;
        boolean complete = runs.size() >= planned && runs.stream().noneMatch(r -> r.status() == io.cpbench.core.status.Status.INCOMPLETE);
        List<Double> speed = repeatSpeed(runs);
        SweepAnalysis partial = new SweepAnalysis(slo.text(), routingStats, winners, best, List.of(), complete, speed);
        return new SweepAnalysis(slo.text(), routingStats, winners, best, OptimalConfiguration.rows(partial, slo), complete,
                speed);
    }

    /** One routing's curve: its levels' statistics, its knee (and each repeat's), and its USL fit. */
    private static RoutingStats routing(String routing, String members, List<SweepCell> levels, List<CellRun> runs,
                                        Threshold slo) {
        List<LevelStats> stats = levelStats(routing, levels, runs.stream().filter(r -> r.cell().series().equals(routing))
                .toList(), slo);
        KneePoint kneePoint = kneeOf(stats, slo);
        List<Double> byRepeat = new ArrayList<>();
        java.util.SortedSet<Integer> repeatsSeen = new java.util.TreeSet<>();
        runs.stream().filter(r -> r.cell().series().equals(routing)).forEach(r -> repeatsSeen.add(r.repeat()));
        if (repeatsSeen.size() > 1) {
            for (int repeat : repeatsSeen) {
                byRepeat.add(kneeOf(levelStats(routing, levels, runs.stream().filter(r -> r.repeat() == repeat
                        && r.cell().series().equals(routing)).toList(), slo), slo).estimate());
            }
        }
        Usl usl = null;
        String note = null;
        List<CellRun> closed = runs.stream().filter(r -> r.cell().series().equals(routing) && r.usable()
                && r.cell().rate() == null).toList();
        if (levels.stream().allMatch(l -> l.rate() != null)) {
            note = "open-loop cells: the USL needs concurrency, not rate";
        } else {
            try {
                usl = Usl.fit(closed.stream().mapToDouble(r -> r.cell().workers()).toArray(),
                        closed.stream().mapToDouble(CellRun::opsPerSecond).toArray());
            } catch (IllegalArgumentException | org.apache.commons.math3.exception.MathIllegalStateException e) {
                note = e.getMessage();
            }
        }
        return SweepAnalysisRoutingStatsBuilder.builder().routing(routing).levels(stats).knee(kneePoint.knee())
                .usl(usl).uslNote(note).members(members).kneeEstimate(kneePoint.estimate())
                .kneeBracket(kneePoint.bracket()).kneeByRepeat(byRepeat).build();
    }

    /** Per level, in {@code levels}' order, the statistics of {@code runs} (one routing's) at it; levels not run left out. */
    private static List<LevelStats> levelStats(String routing, List<SweepCell> levels, List<CellRun> runs, Threshold slo) {
        List<LevelStats> stats = new ArrayList<>();
        for (SweepCell level : levels) {
            List<CellRun> here = runs.stream().filter(r -> r.cell().series().equals(routing)
                    && r.cell().level().equals(level.level())).toList();
            if (!here.isEmpty()) {
                stats.add(levelStats(level, here, slo));
            }
        }
        return stats;
    }

    /** A knee level, the throughput where the SLO metric reaches its bound, and the level it was interpolated toward. */
    private record KneePoint(LevelStats knee, double estimate, String bracket) {
    }

    /**
     * The knee of one routing's levels: the level with the highest throughput within the SLO; then the throughput
     * where the SLO metric reaches its bound, interpolated linearly toward the next level up that is over it (see
     * {@link RoutingStats#kneeEstimate}).
     */
    private static KneePoint kneeOf(List<LevelStats> stats, Threshold slo) {
        LevelStats knee = stats.stream().filter(LevelStats::sloMet)
                .max(Comparator.comparingDouble(l -> l.throughput().median())).orElse(null);
        if (knee == null) {
            return new KneePoint(null, Double.NaN, null);
        }
        LevelStats next = stats.stream()
                .filter(l -> l.runs() > 0 && !l.sloMet() && (l.workers() > knee.workers()
                        || (knee.rate() != null && l.rate() != null && l.rate() > knee.rate())))
                .min(Comparator.comparingInt(LevelStats::workers).thenComparingDouble(l -> l.rate() == null ? 0 : l.rate()))
                .orElse(null);
        double estimate = knee.throughput().median();
        String bracket = null;
        if (next != null && next.throughput().median() > estimate && next.sloActual() > knee.sloActual()) {
            double f = (slo.limit() - knee.sloActual()) / (next.sloActual() - knee.sloActual());
            estimate += Math.max(0, Math.min(1, f)) * (next.throughput().median() - estimate);
            bracket = next.level();
        }
        return new KneePoint(knee, estimate, bracket);
    }

    /** The fastest repeat's speed ÷ the slowest's, minus 1; 0 with fewer than two repeats. */
    public double speedSpread() {
        if (repeatSpeed.size() < 2) {
            return 0;
        }
        double min = repeatSpeed.stream().mapToDouble(Double::doubleValue).min().orElse(1);
        double max = repeatSpeed.stream().mapToDouble(Double::doubleValue).max().orElse(1);
        return min > 0 ? max / min - 1 : Double.POSITIVE_INFINITY;
    }

    private static List<Double> repeatSpeed(List<CellRun> runs) {
        Map<String, List<CellRun>> byCell = new LinkedHashMap<>();
        runs.stream().filter(r -> r.usable() && r.opsPerSecond() > 0)
                .forEach(r -> byCell.computeIfAbsent(r.cell().series() + " " + r.cell().level(), k -> new ArrayList<>()).add(r));
        Map<Integer, List<Double>> relative = new java.util.TreeMap<>();
        for (List<CellRun> same : byCell.values()) {
            if (same.size() < 2) {
                continue;
            }
            double median = Bootstrap.medianOf(same.stream().mapToDouble(CellRun::opsPerSecond).toArray());
            same.forEach(r -> relative.computeIfAbsent(r.repeat(), k -> new ArrayList<>()).add(r.opsPerSecond() / median));
        }
        if (relative.size() < 2) {
            return List.of();
        }
        return relative.values().stream().map(v -> Bootstrap.medianOf(v.stream().mapToDouble(Double::doubleValue).toArray())).toList();
    }

    private static LevelStats levelStats(SweepCell level, List<CellRun> here, Threshold slo) {
        List<CellRun> ok = here.stream().filter(CellRun::usable).toList();
        int failed = here.size() - ok.size();
        long errors = here.stream().mapToLong(CellRun::errors).sum();
        if (ok.isEmpty()) {
            return SweepAnalysisLevelStatsBuilder.builder().level(level.level()).clients(level.clients())
                    .threads(level.threads()).workers(level.workers()).rate(level.rate()).failed(failed)
                    .throughput(new Bootstrap.Interval(0, 0, 0, 0)).p50Us(Double.NaN).p99Us(Double.NaN)
                    .sloActual(Double.NaN).errors(errors).build();
        }
        Bootstrap.Interval x = Bootstrap.median95(ok.stream().mapToDouble(CellRun::opsPerSecond).toArray());
        double p50 = Bootstrap.medianOf(ok.stream().mapToDouble(r -> r.latency().p50Us()).toArray());
        double p99 = Bootstrap.medianOf(ok.stream().mapToDouble(r -> r.latency().p99Us()).toArray());
        double actual = Bootstrap.medianOf(ok.stream().mapToDouble(CellRun::sloActual).toArray());
        return SweepAnalysisLevelStatsBuilder.builder().level(level.level()).clients(level.clients())
                .threads(level.threads()).workers(level.workers()).rate(level.rate()).runs(ok.size()).failed(failed)
                .throughput(x).p50Us(p50).p99Us(p99).sloActual(actual).sloMet(slo.holds(actual)).errors(errors)
                .p99Censored(ok.stream().anyMatch(r -> !r.mark(r.latency().p99Us()).isEmpty())).build();
    }

    private static LevelWinner winner(String level, List<RoutingStats> routings, List<CellRun> runs) {
        List<Map.Entry<String, LevelStats>> ranked = new ArrayList<>();
        for (RoutingStats r : routings) {
            r.levels().stream().filter(l -> l.level().equals(level) && l.runs() > 0).findFirst()
                    .ifPresent(l -> ranked.add(Map.entry(r.routing(), l)));
        }
        if (ranked.isEmpty()) {
            return null;
        }
        ranked.sort(Comparator.comparingDouble((Map.Entry<String, LevelStats> e) -> e.getValue().throughput().median()).reversed());
        String best = ranked.get(0).getKey();
        if (ranked.size() == 1) {
            return new LevelWinner(level, best, null, null, false);
        }
        String second = ranked.get(1).getKey();
        List<Double> ratios = new ArrayList<>();
        Map<Integer, Double> bestByRepeat = new LinkedHashMap<>();
        runs.stream().filter(r -> r.usable() && r.cell().level().equals(level) && r.cell().series().equals(best))
                .forEach(r -> bestByRepeat.put(r.repeat(), r.opsPerSecond()));
        runs.stream().filter(r -> r.usable() && r.cell().level().equals(level) && r.cell().series().equals(second))
                .forEach(r -> {
                    Double b = bestByRepeat.get(r.repeat());
                    if (b != null) {
                        ratios.add(b / r.opsPerSecond());
                    }
                });
        if (ratios.isEmpty()) {
            return new LevelWinner(level, best, second, null, false);
        }
        Bootstrap.Interval ratio = Bootstrap.median95(ratios.stream().mapToDouble(Double::doubleValue).toArray());
        return new LevelWinner(level, best, second, ratio, ratio.n() > 1 && ratio.low() > 1);
    }

    /** {@code 12,345 [12,001-12,700]}. */
    public static String opsWithCi(Bootstrap.Interval x) {
        if (x.n() < 2) {
            return String.format(Locale.ROOT, "%,.0f", x.median());
        }
        return String.format(Locale.ROOT, "%,.0f [%,.0f-%,.0f]", x.median(), x.low(), x.high());
    }

    /** {@code 1.07 [1.02-1.11]}. */
    public static String ratioWithCi(Bootstrap.Interval r) {
        if (r == null) {
            return "-";
        }
        if (r.n() < 2) {
            return String.format(Locale.ROOT, "%.2f (1 pair)", r.median());
        }
        return String.format(Locale.ROOT, "%.2f [%.2f-%.2f]", r.median(), r.low(), r.high());
    }

    /** µs as {@code 850 µs}, {@code 4.21 ms}. */
    public static String micros(double us) {
        if (Double.isNaN(us)) {
            return "-";
        }
        return us < 1000 ? String.format(Locale.ROOT, "%.0f µs", us) : String.format(Locale.ROOT, "%.2f ms", us / 1000);
    }
}
