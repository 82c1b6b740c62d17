package io.cpbench.core.result;

import io.cpbench.core.status.Status;

import io.cpbench.core.result.Comparison.Metric;
import io.cpbench.core.result.Comparison.Verdict;
import io.cpbench.core.stats.Bootstrap;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ComparisonTest {

    private static final Set<Metric> DEFAULT_GATE = EnumSet.of(Metric.OPS, Metric.P50);

    /** Rounds of one scenario: op/s as given, latencies 1000 values around {@code p50} with a tail to {@code p99}. */
    private static List<RunResult> rounds(String scenario, double p50, double p99, double... opsPerSecond) {
        List<RunResult> list = new ArrayList<>();
        for (int i = 0; i < opsPerSecond.length; i++) {
            long[] latencies = new long[1000];
            for (int k = 0; k < latencies.length; k++) {
                latencies[k] = k < 980 ? Math.round(p50 * (0.8 + 0.4 * k / 980.0)) : Math.round(p99);
            }
            list.add(ResultFilesTest.result(scenario, i + 1, opsPerSecond[i], Status.OK, latencies));
        }
        return list;
    }

    private static Comparison.Row only(Comparison.Result r) {
        assertThat(r.rows()).hasSize(1);
        return r.rows().get(0);
    }

    @Test
    void aTenPercentSlowdownIsARegression() {
        List<RunResult> base = rounds("client-leader", 1000, 3000, 1000, 1030, 980);
        List<RunResult> slower = rounds("client-leader", 1110, 3300, 905, 920, 890);
        Comparison.Result result = Comparison.of(base, slower, 0.05, DEFAULT_GATE);
        Comparison.Row row = only(result);
        assertThat(row.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(result.regression()).isTrue();
        Bootstrap.Interval ops = row.metrics().get(Metric.OPS).ratio();
        assertThat(ops.median()).isCloseTo(905.0 / 1000, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(ops.high()).isLessThan(1);
        assertThat(row.metrics().get(Metric.P50).verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(ComparisonTable.markdown(result, "base", "new")).contains("verdict: REGRESSION: 1 of 1 rows slower")
                .contains("**slower**");
    }

    @Test
    void aRerunWithinItsNoiseIsNoChange() {
        List<RunResult> base = rounds("client-leader", 1000, 3000, 1000, 1030, 980);
        List<RunResult> rerun = rounds("client-leader", 1010, 2900, 1010, 985, 1022);
        Comparison.Result result = Comparison.of(base, rerun, 0.05, DEFAULT_GATE);
        assertThat(only(result).verdict()).isEqualTo(Verdict.NO_CHANGE);
        assertThat(result.regression()).isFalse();
    }

    @Test
    void aClearChangeSmallerThanTheToleranceIsNoChangeUntilTheToleranceIsSmaller() {
        List<RunResult> base = rounds("client-leader", 1000, 3000, 1000, 1001, 999);
        List<RunResult> next = rounds("client-leader", 1000, 3000, 970, 971, 969); // 3 % slower, no overlap at all
        assertThat(only(Comparison.of(base, next, 0.05, DEFAULT_GATE)).verdict()).isEqualTo(Verdict.NO_CHANGE);
        assertThat(only(Comparison.of(base, next, 0.01, DEFAULT_GATE)).verdict()).isEqualTo(Verdict.SLOWER);
    }

    @Test
    void fasterIsNotARegression() {
        List<RunResult> base = rounds("client-leader", 1000, 3000, 1000, 1030, 980);
        List<RunResult> next = rounds("client-leader", 830, 2500, 1200, 1230, 1190);
        Comparison.Result result = Comparison.of(base, next, 0.05, DEFAULT_GATE);
        assertThat(only(result).verdict()).isEqualTo(Verdict.FASTER);
        assertThat(result.regression()).isFalse();
    }

    @Test
    void p99IsReportedButGatesOnlyWhenAsked() {
        List<RunResult> base = rounds("client-leader", 1000, 3000, 1000, 1030, 980);
        List<RunResult> tail = rounds("client-leader", 1000, 6000, 1000, 1030, 980);
        Comparison.Row row = only(Comparison.of(base, tail, 0.05, DEFAULT_GATE));
        assertThat(row.metrics().get(Metric.P99).verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(row.verdict()).isEqualTo(Verdict.NO_CHANGE);
        assertThat(only(Comparison.of(base, tail, 0.05, EnumSet.allOf(Metric.class))).verdict()).isEqualTo(Verdict.SLOWER);
    }

    @Test
    void oneRoundASideHasNoIntervalAndTheRatioDecides() {
        Comparison.Row row = only(Comparison.of(rounds("client-leader", 1000, 3000, 1000),
                rounds("client-leader", 1000, 3000, 880), 0.05, DEFAULT_GATE));
        assertThat(row.metrics().get(Metric.OPS).ratio().n()).isEqualTo(1);
        assertThat(row.verdict()).isEqualTo(Verdict.SLOWER);
    }

    @Test
    void runsOfDifferentScenariosAreRefused() {
        List<RunResult> base = rounds("client-leader", 1000, 3000, 1000, 1030);
        List<RunResult> other = rounds("client-follower", 1000, 3000, 1000, 1030);
        assertThatThrownBy(() -> Comparison.of(base, other, 0.05, DEFAULT_GATE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not of the same scenarios").hasMessageContaining("client-follower");
    }

    @Test
    void aScenarioThatFailedEveryRoundInNewIsSlower() {
        List<RunResult> base = rounds("client-leader", 1000, 3000, 1000, 1030);
        List<RunResult> failed = new ArrayList<>();
        for (RunResult r : rounds("client-leader", 1000, 3000, 1000, 1030)) {
            failed.add(ResultFilesTest.result(r.scenario(), r.round(), 1, Status.FAIL, 1));
        }
        Comparison.Row row = only(Comparison.of(base, failed, 0.05, DEFAULT_GATE));
        assertThat(row.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(row.note()).contains("NEW");
    }

    @Test
    void theRatioIntervalIsReproducibleAndHoldsThePoint() {
        double[] before = {1000, 1030, 980, 1010};
        double[] after = {905, 920, 890};
        Bootstrap.Interval a = Bootstrap.ratioOfMedians(before, after, 0.95);
        Bootstrap.Interval b = Bootstrap.ratioOfMedians(before, after, 0.95);
        assertThat(a).isEqualTo(b);
        assertThat(a.median()).isBetween(a.low(), a.high());
        assertThat(a.low()).isGreaterThanOrEqualTo(890.0 / 1030);
        assertThat(a.high()).isLessThanOrEqualTo(920.0 / 980);
    }

    @Test
    void metricsAndTolerancesAreParsedOrRefused() {
        assertThat(Metric.of("ops")).isEqualTo(Metric.OPS);
        assertThat(Metric.of(" P99 ")).isEqualTo(Metric.P99);
        assertThatThrownBy(() -> Metric.of("p95")).hasMessageContaining("unknown metric 'p95'");
        assertThatThrownBy(() -> Comparison.of(List.of(), List.of(), 1.5, DEFAULT_GATE)).hasMessageContaining("tolerance");
    }

    @Test
    void pairedSamplesTakeOutADriftBothSidesShare() {
        // both sides drift from 600 to 1,000 op/s; NEW is 8 % slower in every pair: separate medians barely see it,
        // the pairs do
        int n = 40;
        double[] base = new double[n];
        double[] next = new double[n];
        double[] p50Base = new double[n];
        double[] p50Next = new double[n];
        for (int i = 0; i < n; i++) {
            base[i] = 600 + 10 * i + (i % 3) * 7;
            next[i] = base[i] * 0.92 * (1 + ((i % 5) - 2) * 0.004);
            p50Base[i] = 1e6 / base[i];
            p50Next[i] = 1e6 / next[i];
        }
        Comparison.Result r = Comparison.paired("ab", java.util.Map.of(Metric.OPS, new double[][]{base, next},
                Metric.P50, new double[][]{p50Base, p50Next}), 0.05, DEFAULT_GATE);
        Comparison.Row row = only(r);
        assertThat(row.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(row.baseRounds()).isEqualTo(n);
        assertThat(row.metrics().get(Metric.OPS).ratio().median()).isCloseTo(0.92, org.assertj.core.data.Offset.offset(0.01));
        assertThat(row.metrics().get(Metric.OPS).ratio().high()).isLessThan(0.95);
        assertThat(row.metrics().get(Metric.P50).verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(row.metrics()).doesNotContainKey(Metric.P99);
        // the same numbers unpaired: the drift swamps the 8 %
        List<RunResult> b = new ArrayList<>();
        List<RunResult> x = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            b.addAll(rounds("client-leader", p50Base[i], 3 * p50Base[i], base[i]));
            x.addAll(rounds("client-leader", p50Next[i], 3 * p50Next[i], next[i]));
        }
        assertThat(only(Comparison.of(b, x, 0.05, DEFAULT_GATE)).metrics().get(Metric.OPS).ratio().high()).isGreaterThan(1);
        // a pair with itself: no change, exactly 1
        Comparison.Row same = only(Comparison.paired("ab", java.util.Map.of(Metric.OPS, new double[][]{base, base}), 0.05,
                DEFAULT_GATE));
        assertThat(same.verdict()).isEqualTo(Verdict.NO_CHANGE);
        assertThat(same.metrics().get(Metric.OPS).ratio().median()).isEqualTo(1.0);
    }

    @Test
    void pairedSamplesMustPair() {
        assertThatThrownBy(() -> Comparison.paired("ab", java.util.Map.of(Metric.OPS, new double[][]{{1, 2, 3}, {1, 2}}),
                0.05, DEFAULT_GATE)).hasMessageContaining("3 base and 2 new values for 3 pairs");
        assertThatThrownBy(() -> Comparison.paired("ab", java.util.Map.of(Metric.OPS, new double[][]{{1}, {1}}),
                2, DEFAULT_GATE)).hasMessageContaining("tolerance");
    }

    @Test
    void aMatrixAcrossReleasesPairsRunsByRoundAndSkipsRoundsUnusableOnEitherSide() {
        // the machine drifts from round to round; NEW is 8 % slower than BASE in every round
        double[] base = {1000, 1200, 800, 1100, 900, 1050, 950};
        List<RunResult> b = new ArrayList<>();
        List<RunResult> n = new ArrayList<>();
        for (int i = 0; i < base.length; i++) {
            RunResult x = rounds("client-leader", 1000, 3000, base[i]).get(0);
            RunResult y = rounds("client-leader", 1087, 3200, base[i] * 0.92).get(0);
            b.add(x.toBuilder().run(new RunResult.RunInfo("client-leader", "a", "d", i + 1, null, null)).build());
            n.add(y.toBuilder().run(new RunResult.RunInfo("client-leader", "a", "d", i + 1, null, null)).build());
        }
        // round 3 failed on BASE: paired by position, NEW's round 3 would meet BASE's round 4 and so on
        b.set(2, ResultFilesTest.result("client-leader", 3, 10, Status.FAIL, 1, 2, 3));
        Comparison.Result r = Comparison.pairedByRound(List.of("client-leader", "client-follower"), b, n, 0.05, DEFAULT_GATE);
        assertThat(r.rows()).hasSize(2);
        Comparison.Row row = r.rows().get(0);
        assertThat(row.baseRounds()).isEqualTo(6);
        assertThat(row.metrics().get(Metric.OPS).ratio().median()).isCloseTo(0.92, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.metrics().get(Metric.OPS).ratio().high()).isCloseTo(0.92, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(r.rows().get(1).note()).isEqualTo("no round usable (OK, UNSTABLE or TIMEBOXED) on both sides");
        assertThat(r.rows().get(1).verdict()).isEqualTo(Verdict.UNDECIDED);

        // the first three rounds alone (two pairs): ratios shown, nothing judged
        Comparison.Result few = Comparison.undecidedBelow(Comparison.pairedByRound(List.of("client-leader"),
                b.subList(0, 3), n.subList(0, 3), 0.05, DEFAULT_GATE), 5);
        Comparison.Row undecided = only(few);
        assertThat(undecided.baseRounds()).isEqualTo(2);
        assertThat(undecided.verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(undecided.metrics().values()).allMatch(m -> m.verdict() == Verdict.UNDECIDED);
        assertThat(undecided.metrics().get(Metric.OPS).ratio().median()).isCloseTo(0.92, org.assertj.core.data.Offset.offset(1e-9));
        String table = ComparisonTable.markdown(few, "5.3.8", "5.4.0", "pairs");
        assertThat(table).contains("verdict: UNDECIDED: 0 of 1 rows slower, 0 faster, 0 no change, 1 too few pairs")
                .contains("| too few pairs |").doesNotContain("] !").contains("Rows with too few pairs");
        // enough pairs keep their verdict
        assertThat(Comparison.undecidedBelow(r, 5).rows().get(0).verdict()).isEqualTo(Verdict.SLOWER);
    }

    /** A p99 that some round has only as a lower bound (censored ops) makes its ratio inexact: marked †, with a line. */
    @Test
    void aRatioOfACensoredPercentileIsMarked() {
        List<RunResult> base = rounds("client-leader", 1000, 3000, 1000, 1030, 980);
        List<RunResult> next = new ArrayList<>(rounds("client-leader", 1000, 3000, 1000, 1010, 990));
        RunResult.Latency l = next.get(1).latencyMicros();
        next.set(1, ResultFilesTest.withLatency(next.get(1), new RunResult.Latency(l.min(), l.mean(), l.p50(), l.p90(),
                l.p99(), l.p999(), l.max(), new io.cpbench.core.stats.Censored(1, l.p99()))));
        Comparison.Result result = Comparison.of(base, next, 0.05, DEFAULT_GATE);
        assertThat(only(result).censored()).containsExactly(Metric.P99);
        String md = ComparisonTable.markdown(result, "base", "new");
        String row = md.lines().filter(x -> x.contains("client-leader")).findFirst().orElseThrow();
        assertThat(row.split("†", -1)).as("the p99 cell alone").hasSize(2);
        assertThat(md).contains("† some round on a side has this percentile only as a lower bound");
        assertThat(ComparisonTable.markdown(Comparison.of(base, base, 0.05, DEFAULT_GATE), "base", "new")).doesNotContain("†");
    }

    /**
     * The gate's verdict on a ratio new÷base: worse or better only when the whole 95 % interval is beyond 1 (the noise)
     * and the median beyond the tolerance; for op/s higher is faster, for latencies lower is.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} median {1} [{2}, {3}] n={4} tolerance {5}: {6}")
    @org.junit.jupiter.params.provider.CsvSource({
            // beyond the tolerance and beyond the noise
            "OPS, 1.10, 1.02, 1.20, 10, 0.05, FASTER",
            "OPS, 0.90, 0.85, 0.95, 10, 0.05, SLOWER",
            "P99, 1.10, 1.02, 1.20, 10, 0.05, SLOWER",
            "P50, 0.90, 0.85, 0.95, 10, 0.05, FASTER",
            // beyond the tolerance, within the noise: the interval holds 1
            "OPS, 1.10, 0.95, 1.25, 10, 0.05, NO_CHANGE",
            "OPS, 0.90, 0.80, 1.02, 10, 0.05, NO_CHANGE",
            "P99, 1.10, 0.99, 1.20, 10, 0.05, NO_CHANGE",
            // beyond the noise, within the tolerance
            "OPS, 1.03, 1.01, 1.05, 10, 0.05, NO_CHANGE",
            "OPS, 0.97, 0.95, 0.99, 10, 0.05, NO_CHANGE",
            // one sample a side: no interval, the point estimate against the tolerance
            "OPS, 1.10, 1.10, 1.10, 1, 0.05, FASTER",
            "OPS, 0.90, 0.90, 0.90, 1, 0.05, SLOWER",
            "OPS, 1.04, 1.04, 1.04, 1, 0.05, NO_CHANGE",
            // at the edges, which count as inside: an interval that touches 1, a median exactly at the tolerance
            "OPS, 1.10, 1.00, 1.20, 10, 0.05, NO_CHANGE",
            "OPS, 0.90, 0.80, 1.00, 10, 0.05, NO_CHANGE",
            "OPS, 1.05, 1.01, 1.10, 10, 0.05, NO_CHANGE",
            "OPS, 0.95, 0.90, 0.99, 10, 0.05, NO_CHANGE",
            "OPS, 1.05, 1.05, 1.05, 1, 0.05, NO_CHANGE",
            "OPS, 0.95, 0.95, 0.95, 1, 0.05, NO_CHANGE",
            // two samples a side have an interval, and it decides
            "OPS, 1.10, 0.95, 1.25, 2, 0.05, NO_CHANGE",
            "OPS, 1.10, 1.02, 1.25, 2, 0.05, FASTER"})
    void theGateJudgesTheNoiseAndTheTolerance(Comparison.Metric metric, double median, double low, double high, int n,
                                              double tolerance, Comparison.Verdict expected) {
        assertThat(Comparison.verdict(metric, new Bootstrap.Interval(median, low, high, n), tolerance)).isEqualTo(expected);
    }

    @Test
    void theToleranceMayBeZeroButNotAHundredPercent() {
        List<RunResult> base = rounds("client-leader", 1000, 3000, 1000, 1030, 980);
        assertThat(Comparison.of(base, base, 0.0, DEFAULT_GATE).rows()).hasSize(1);
        assertThat(Comparison.of(base, base, 0.99, DEFAULT_GATE).rows()).hasSize(1);
        assertThatThrownBy(() -> Comparison.of(base, base, 1.0, DEFAULT_GATE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the tolerance must be between 0 % and 100 %, was 1.0");
        assertThatThrownBy(() -> Comparison.of(base, base, -0.01, DEFAULT_GATE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Comparison.ofSamples(List.of(), 1.0, DEFAULT_GATE)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Comparison.ofSamples(List.of(), 0.0, DEFAULT_GATE).rows()).isEmpty();
    }

    /** Unpaired samples (a sweep cell's repeats): the ratio of medians per metric, and a side with nothing usable. */
    @Test
    void unpairedSamplesAreJudgedByTheSameRule() {
        Comparison.Samples slower = new Comparison.Samples("client-leader", "4 threads",
                java.util.Map.of(Metric.OPS, new double[]{1000, 1010, 990, 1005, 995}, Metric.P99, new double[]{3000, 3100, 2900, 3050, 2950}),
                java.util.Map.of(Metric.OPS, new double[]{800, 810, 790, 805, 795}, Metric.P99, new double[]{3000, 3100, 2900, 3050, 2950}));
        Comparison.Samples emptyNew = new Comparison.Samples("client-follower", "4 threads",
                java.util.Map.of(Metric.OPS, new double[]{1000}), java.util.Map.of(Metric.OPS, new double[0]));
        Comparison.Samples emptyBoth = new Comparison.Samples("client-lb", "4 threads", java.util.Map.of(), java.util.Map.of());
        Comparison.Samples emptyBase = new Comparison.Samples("client-smart", "4 threads",
                java.util.Map.of(), java.util.Map.of(Metric.OPS, new double[]{5}));
        Comparison.Result r = Comparison.ofSamples(List.of(slower, emptyNew, emptyBoth, emptyBase), 0.05, DEFAULT_GATE);

        Comparison.Row row = r.rows().get(0);
        assertThat(row.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(row.baseRounds()).isEqualTo(5);
        assertThat(row.newRounds()).isEqualTo(5);
        assertThat(row.metrics().get(Metric.OPS).ratio().median()).isCloseTo(800.0 / 1000, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.metrics().get(Metric.P99).verdict()).isEqualTo(Verdict.NO_CHANGE);
        assertThat(row.metrics()).doesNotContainKey(Metric.P50);
        assertThat(r.rows().get(1).verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(r.rows().get(1).note()).isEqualTo("no usable sample in NEW");
        assertThat(r.rows().get(2).verdict()).isEqualTo(Verdict.NO_CHANGE);
        assertThat(r.rows().get(2).note()).isEqualTo("no usable sample in either");
        assertThat(r.rows().get(3).verdict()).isEqualTo(Verdict.NO_CHANGE);
        assertThat(r.rows().get(3).note()).isEqualTo("no usable sample in BASE");
        assertThat(r.regression()).isTrue();
    }

    /** A metric whose median is 0 on a side has no ratio: no interval, no change. */
    @Test
    void aZeroMedianHasNoRatio() {
        Comparison.Result r = Comparison.ofSamples(List.of(new Comparison.Samples("s", "op",
                java.util.Map.of(Metric.OPS, new double[]{0, 0, 0}), java.util.Map.of(Metric.OPS, new double[]{10, 11, 12})),
                new Comparison.Samples("t", "op", java.util.Map.of(Metric.OPS, new double[]{10, 11, 12}),
                        java.util.Map.of(Metric.OPS, new double[]{0, 0, 0}))), 0.05, DEFAULT_GATE);
        for (Comparison.Row row : r.rows()) {
            assertThat(row.metrics().get(Metric.OPS).ratio()).isNull();
            assertThat(row.metrics().get(Metric.OPS).verdict()).isEqualTo(Verdict.NO_CHANGE);
        }
    }

    /** Runs that recorded no latencies (a JMH throughput trial) are compared on op/s alone. */
    @Test
    void runsWithoutLatenciesAreComparedOnOpsAlone() {
        List<RunResult> base = new ArrayList<>();
        List<RunResult> next = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            base.add(ResultFilesTest.withLatency(rounds("client-leader", 1000, 3000, 1000 + i).get(0), new RunResult.Latency(0, 0, 0, 0, 0, 0, 0, null)));
            next.add(rounds("client-leader", 1000, 3000, 800 + i).get(0));
        }
        Comparison.Row row = only(Comparison.of(base, next, 0.05, DEFAULT_GATE));
        assertThat(row.metrics()).containsOnlyKeys(Metric.OPS);
        assertThat(row.verdict()).isEqualTo(Verdict.SLOWER);
    }

    /** Rounds paired across two releases: latencies only where both sides have them, a zero on a side judged as nothing. */
    @Test
    void pairedRoundsAtTheirEdges() {
        List<RunResult> base = rounds("s", 1000, 3000, 1000, 1010, 990);
        List<RunResult> next = new ArrayList<>(rounds("s", 1000, 3000, 800, 810, 790));
        assertThatThrownBy(() -> Comparison.pairedByRound(List.of("s"), base, next, 1.0, DEFAULT_GATE))
                .isInstanceOf(IllegalArgumentException.class);
        Comparison.Row row = only(Comparison.pairedByRound(List.of("s"), base, next, 0.05, DEFAULT_GATE));
        assertThat(row.metrics()).containsOnlyKeys(Metric.OPS, Metric.P50, Metric.P99);
        assertThat(row.verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(row.metrics().get(Metric.OPS).ratio().median()).isCloseTo(0.8, org.assertj.core.data.Offset.offset(1e-9));

        next.set(1, ResultFilesTest.withLatency(next.get(1), new RunResult.Latency(0, 0, 0, 0, 0, 0, 0, null)));
        Comparison.Row noLatency = only(Comparison.pairedByRound(List.of("s"), base, next, 0.05, DEFAULT_GATE));
        assertThat(noLatency.metrics()).as("one round without latencies: op/s alone").containsOnlyKeys(Metric.OPS);

        // a BASE turn with no op: that pair's op/s ratio is infinite (NEW did better than nothing), the others stand
        Comparison.Result paired = Comparison.paired("s", java.util.Map.of(Metric.OPS, new double[][]{{1000, 0, 990}, {800, 810, 790}}),
                0.05, DEFAULT_GATE);
        assertThat(only(paired).metrics().get(Metric.OPS).ratio().median()).isCloseTo(0.8, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(only(paired).metrics().get(Metric.OPS).ratio().n()).isEqualTo(3);
        // neither side measured anything in any pair: nothing to judge, and it says so
        Comparison.Row nothing = only(Comparison.paired("s", java.util.Map.of(Metric.OPS, new double[][]{{0, 0}, {0, 0}}),
                0.05, DEFAULT_GATE));
        assertThat(nothing.metrics().get(Metric.OPS).ratio()).isNull();
        assertThat(nothing.metrics().get(Metric.OPS).verdict()).isEqualTo(Verdict.UNDECIDED);
    }

    /**
     * A NEW six times slower whose slowest turn measured no op at all (CI on a new machine, stop 79: the verdict was
     * "no change", every ratio n/a). The empty turn is the slowest pair, 0 for op/s; it has no latency, so p50 is
     * judged on the other pairs. Oracle: the median of the pairs' ratios computed here by hand.
     */
    @Test
    void aTurnWithNoOpIsTheSlowestPairNotAReasonToJudgeNothing() {
        int n = 20;
        double[] baseOps = new double[n];
        double[] newOps = new double[n];
        double[] baseP50 = new double[n];
        double[] newP50 = new double[n];
        int[] group = new int[n];
        for (int i = 0; i < n; i++) {
            baseOps[i] = 110 + i;
            newOps[i] = i == 5 ? 0 : (110 + i) / 6.0;
            baseP50[i] = 8_000;
            newP50[i] = i == 5 ? 0 : 48_000;
            group[i] = i / 10;
        }
        Comparison.Row row = only(Comparison.paired("ab", java.util.Map.of(Metric.OPS, new double[][]{baseOps, newOps},
                Metric.P50, new double[][]{baseP50, newP50}), group, 0.05, DEFAULT_GATE));

        double[] ratios = new double[n];
        for (int i = 0; i < n; i++) {
            ratios[i] = newOps[i] / baseOps[i];
        }
        java.util.Arrays.sort(ratios);
        assertThat(row.metrics().get(Metric.OPS).ratio().median()).isCloseTo((ratios[9] + ratios[10]) / 2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.metrics().get(Metric.OPS).ratio().n()).isEqualTo(20);
        assertThat(row.metrics().get(Metric.OPS).verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(row.metrics().get(Metric.P50).ratio().n()).as("the empty turn has no latency").isEqualTo(19);
        assertThat(row.metrics().get(Metric.P50).ratio().median()).isCloseTo(6.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.metrics().get(Metric.P50).verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(row.verdict()).isEqualTo(Verdict.SLOWER);
    }

    @Test
    void fewerPairsThanTheMinimumAreUndecidedAndTheMinimumIsEnough() {
        Comparison.Result three = Comparison.of(rounds("s", 1000, 3000, 1000, 1010, 990), rounds("s", 1000, 3000, 800, 810, 790),
                0.05, DEFAULT_GATE);
        assertThat(only(Comparison.undecidedBelow(three, 3)).verdict()).isEqualTo(Verdict.SLOWER);
        Comparison.Row undecided = only(Comparison.undecidedBelow(three, 4));
        assertThat(undecided.verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(undecided.metrics().get(Metric.OPS).verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(undecided.metrics().get(Metric.OPS).ratio()).as("the ratio is kept").isNotNull();
    }

    private static Comparison.Samples ops(String scenario, double[] base, double[] next) {
        return new Comparison.Samples(scenario, "all", base == null ? java.util.Map.of() : java.util.Map.of(Metric.OPS, base),
                next == null ? java.util.Map.of() : java.util.Map.of(Metric.OPS, next));
    }

    /** The table's cells and the verdict line, read as a user reads them. */
    @Test
    void theTableMarksChangedMetricsAndTheLineCountsTheRows() {
        Comparison.Result r = Comparison.ofSamples(List.of(
                ops("slow", new double[]{1000, 1010, 990}, new double[]{800, 810, 790}),
                ops("same", new double[]{1000, 1010, 990}, new double[]{1000, 1010, 990}),
                ops("zero", new double[]{0, 0, 0}, new double[]{5, 5, 5}),
                ops("one", new double[]{1000}, new double[]{800}),
                ops("none", null, null)), 0.05, DEFAULT_GATE);
        String md = ComparisonTable.markdown(r, "b", "n");
        // padded as the terminal shows it; the intervals are a seeded bootstrap, the same every time
        assertThat(md.lines().toList()).contains(
                "| slow     | all | 3/3             | 1,000     | 800      | 0.800 [0.782-0.818] !      | -                      | -                      | **slower** |",
                "| same     | all | 3/3             | 1,000     | 1,000    | 1.000 [0.980-1.020]        | -                      | -                      | no change  |",
                "| zero     | all | 3/3             | 0         | 5        | n/a                        | -                      | -                      | no change  |",
                "| one      | all | 1/1             | 1,000     | 800      | 0.800 !                    | -                      | -                      | **slower** |",
                "| none     | all | 0/0             | -         | -        | no usable sample in either | -                      | -                      | no change  |");
        assertThat(md).contains("verdict: REGRESSION: 2 of 5 rows slower, 0 faster, 3 no change (b -> n, tolerance 5 %)");
        assertThat(md).contains("Rows with 1 round on a side have no interval: their verdict rests on the ratio alone.");
        assertThat(md).contains("beyond ±5 %; a row is slower when a gated metric (op/s, p50) is.");

        Comparison.Result faster = Comparison.ofSamples(List.of(ops("up", new double[]{800, 810, 790}, new double[]{1000, 1010, 990})),
                0.05, DEFAULT_GATE);
        assertThat(ComparisonTable.summary(faster, "b", "n")).isEqualTo("verdict: FASTER: 0 of 1 rows slower, 1 faster, 0 no change (b -> n, tolerance 5 %)");
        assertThat(ComparisonTable.markdown(faster, "b", "n")).contains("**faster**").doesNotContain("Rows with 1 ");
        Comparison.Result undecided = Comparison.undecidedBelow(faster, 5);
        assertThat(ComparisonTable.summary(undecided, "b", "n")).isEqualTo("verdict: UNDECIDED: 0 of 1 rows slower, 0 faster, 0 no change, 1 too few pairs (b -> n, tolerance 5 %)");
        assertThat(ComparisonTable.markdown(undecided, "b", "n")).contains("Rows with too few pairs have fewer rounds than a verdict needs");
        Comparison.Result unchanged = Comparison.ofSamples(List.of(ops("same", new double[]{1, 2, 3}, new double[]{1, 2, 3})), 0.05, DEFAULT_GATE);
        assertThat(ComparisonTable.summary(unchanged, "b", "n")).startsWith("verdict: NO CHANGE: 0 of 1 rows slower, 0 faster, 1 no change");
    }
}
