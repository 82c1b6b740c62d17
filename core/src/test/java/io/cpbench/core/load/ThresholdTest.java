package io.cpbench.core.load;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ThresholdTest {

    private static LoadResult.LoadLatency latency(long p50, long p99, long max) {
        return LoadResultLoadLatencyBuilder.builder().count(100).min(1).mean(p50).p50(p50).p90(p50).p95(p99).p99(p99)
                .p999(p99).max(max).build();
    }

    private static final LoadResult.StageStats STATS = new LoadResult.StageStats(1, 10, 0, 100,
            List.of(new LoadResult.OpStats("cas", 1000, 0, 100, 0, latency(900, 4_000, 9_000), latency(800, 3_000, 8_000), Map.of()),
                    new LoadResult.OpStats("get", 990, 10, 99, 0.01, latency(400, 6_000, 7_000), latency(400, 6_000, 7_000),
                            Map.of("OperationTimeoutException", 10L))),
            new LoadResult.OpStats("all", 1990, 10, 199, 10 / 2000.0, latency(700, 5_000, 9_000), latency(700, 5_000, 9_000), Map.of()),
            latency(50, 300, 2_000));

    /** Every metric different from every other, so a threshold that reads the wrong one cannot pass both sides. */
    private static final LoadResult.LoadLatency DISTINCT = LoadResultLoadLatencyBuilder.builder().count(1000).min(3)
            .mean(173).p50(101).p90(203).p95(307).p99(411).p999(521).max(631).build();
    private static final LoadResult.StageStats DISTINCT_STATS = new LoadResult.StageStats(1, 10, 0, 100, List.of(),
            new LoadResult.OpStats("all", 1990, 10, 199, 0.005, DISTINCT, DISTINCT, Map.of()),
            LoadResultLoadLatencyBuilder.builder().count(1000).p50(11).p90(13).p95(17).p99(23).p999(29).max(37).build());

    /**
     * Each metric a threshold may name is read from its own field: on a fixture where all differ, {@code metric<=v}
     * holds at the metric's value and {@code metric<v} does not, and the value compared is that one.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} = {1}")
    @org.junit.jupiter.params.provider.CsvSource({
            "p50, 101, us", "p90, 203, us", "p95, 307, us", "p99, 411, us", "p99.9, 521, us", "p999, 521, us",
            "max, 631, us", "mean, 173, us", "lag_p50, 11, us", "lag_p99, 23, us", "lag_max, 37, us",
            "rate, 199, ''", "errors, 10, ''", "error_rate, 0.005, ''"})
    void eachMetricReadsItsOwnNumber(String metric, String value, String unit) {
        Threshold atMost = Threshold.parse(metric + "<=" + value + unit);
        Threshold under = Threshold.parse(metric + "<" + value + unit);
        Threshold atLeast = Threshold.parse(metric + ">=" + value + unit);
        assertThat(atMost.actual(DISTINCT_STATS)).isEqualTo(Double.parseDouble(value));
        assertThat(atMost.judge(DISTINCT_STATS).passed()).as(metric + "<=" + value).isTrue();
        assertThat(under.judge(DISTINCT_STATS).passed()).as(metric + "<" + value).isFalse();
        assertThat(atLeast.judge(DISTINCT_STATS).passed()).as(metric + ">=" + value).isTrue();
    }

    @Test
    void readsTheFormsTheReadmeShows() {
        Threshold t = Threshold.parse("cas:p99<5ms");
        assertThat(t.op()).isEqualTo(OpType.CAS);
        assertThat(t.metric()).isEqualTo(Threshold.Metric.P99);
        assertThat(t.limit()).isEqualTo(5000.0);
        assertThat(Threshold.parse("error_rate<0.1%").limit()).isEqualTo(0.001);
        assertThat(Threshold.parse("error_rate<0.001").limit()).isEqualTo(0.001);
        assertThat(Threshold.parse("rate>=1000").comparison()).isEqualTo(Threshold.Comparison.GE);
        Threshold staged = Threshold.parse("get,stage2:p99.9 <= 20ms");
        assertThat(staged.stage()).isEqualTo(2);
        assertThat(staged.op()).isEqualTo(OpType.GET);
        assertThat(Threshold.parse("lag_p99<500us").limit()).isEqualTo(500.0);
    }

    @Test
    void judgesAgainstTheSelectedNumbers() {
        assertThat(Threshold.parse("cas:p99<5ms").judge(STATS).passed()).isTrue();
        assertThat(Threshold.parse("get:p99<5ms").judge(STATS)).satisfies(r -> {
            assertThat(r.passed()).isFalse();
            assertThat(r.actual()).isEqualTo("6.00ms");
        });
        assertThat(Threshold.parse("p99<5ms").judge(STATS).passed()).isFalse(); // all ops: 5.00 ms is not < 5 ms
        assertThat(Threshold.parse("p99<=5ms").judge(STATS).passed()).isTrue();
        assertThat(Threshold.parse("error_rate<0.1%").judge(STATS).passed()).isFalse();
        assertThat(Threshold.parse("error_rate<1%").judge(STATS).passed()).isTrue();
        assertThat(Threshold.parse("rate>=200").judge(STATS).passed()).isFalse();
        assertThat(Threshold.parse("rate>=199").judge(STATS).passed()).isTrue();
        assertThat(Threshold.parse("get:errors<10").judge(STATS).passed()).isFalse();
        assertThat(Threshold.parse("lag_p99<1ms").judge(STATS).passed()).isTrue();
        assertThat(Threshold.parse("set:p99<1ms").judge(STATS)).satisfies(r -> {
            assertThat(r.passed()).isFalse();
            assertThat(r.actual()).isEqualTo("no ops measured");
        });
    }

    @Test
    void badThresholdsSayWhatIsWrong() {
        assertThatThrownBy(() -> Threshold.parse("cas:p99 5ms")).hasMessageContaining("must read");
        assertThatThrownBy(() -> Threshold.parse("p97<5ms")).hasMessageContaining("unknown metric 'p97'");
        assertThatThrownBy(() -> Threshold.parse("p99<5")).hasMessageContaining("time unit");
        assertThatThrownBy(() -> Threshold.parse("rate>5ms")).hasMessageContaining("plain number");
        assertThatThrownBy(() -> Threshold.parse("cas:lag_p99<1ms")).hasMessageContaining("leave out the op");
        assertThatThrownBy(() -> Threshold.parse("bogus:p99<1ms")).hasMessageContaining("neither an op");
        assertThatThrownBy(() -> Threshold.parse("error_rate<150%")).hasMessageContaining("above 100%");
        assertThatThrownBy(() -> Threshold.parse("stage3:p99<1ms").checkAgainst(java.util.Set.of(OpType.CAS), 2, true))
                .hasMessageContaining("there are 2 stages");
        assertThatThrownBy(() -> Threshold.parse("lock:p99<1ms").checkAgainst(java.util.Set.of(OpType.CAS), 1, true))
                .hasMessageContaining("not in the mix");
        assertThatThrownBy(() -> Threshold.parse("lag_max<1ms").checkAgainst(java.util.Set.of(OpType.CAS), 1, false))
                .hasMessageContaining("open-loop runs only");
    }

    @Test
    void unitsLimitsAndWhatAThresholdSaysOfItself() {
        assertThat(Threshold.parse("p99<2s").limit()).isEqualTo(2_000_000.0);
        assertThat(Threshold.parse("p99<2ms").limit()).isEqualTo(2_000.0);
        assertThat(Threshold.parse("p99<2us").limit()).isEqualTo(2.0);
        assertThat(Threshold.parse("error_rate<=100%").limit()).isEqualTo(1.0);
        assertThatThrownBy(() -> Threshold.parse("error_rate<100.1%")).hasMessageContaining("error_rate above 100%");
        assertThat(Threshold.parse("stage1:p99<5ms").stage()).isEqualTo(1);
        assertThatThrownBy(() -> Threshold.parse("stage0:p99<5ms")).hasMessageContaining("stages count from 1");
        Threshold p99 = Threshold.parse("p99<5ms");
        assertThat(p99.metricKey()).isEqualTo("p99");
        assertThat(p99.isLatency()).isTrue();
        assertThat(Threshold.parse("lag_p99<5ms").isLatency()).as("lag is not an op's latency").isFalse();
        assertThat(Threshold.parse("rate>10").isLatency()).isFalse();
        assertThat(p99.holds(4_999)).isTrue();
        assertThat(p99.holds(5_000)).isFalse();
        assertThat(Threshold.parse("p99<=5ms").holds(5_000)).isTrue();
        assertThat(Threshold.parse("rate>10").holds(10)).isFalse();
        assertThat(Threshold.parse("rate>=10").holds(10)).isTrue();
        assertThat(p99.canAbortEarly()).as("an upper bound, once crossed, stays crossed").isTrue();
        assertThat(Threshold.parse("rate>=10").canAbortEarly()).isFalse();
        assertThat(Threshold.parse("p99<=5ms").canAbortEarly()).isTrue();
        assertThat(Threshold.parse("rate>10").canAbortEarly()).isFalse();
    }

    @Test
    void aStageThresholdMustNameAStageTheRunHas() {
        Threshold second = Threshold.parse("stage2:rate>1");
        second.checkAgainst(java.util.Set.of(OpType.CAS), 2, true);
        assertThatThrownBy(() -> second.checkAgainst(java.util.Set.of(OpType.CAS), 1, true)).hasMessageContaining("there is 1 stage");
        assertThatThrownBy(() -> Threshold.parse("stage3:rate>1").checkAgainst(java.util.Set.of(OpType.CAS), 2, true))
                .hasMessageContaining("there are 2 stages");
    }

    /** A stage's threshold reads that stage's numbers, the others the whole run's. */
    @Test
    void judgeAllReadsEachThresholdsOwnStage() {
        LoadResult.StageStats first = new LoadResult.StageStats(1, 5, 0, 10, List.of(),
                new LoadResult.OpStats("all", 100, 0, 20, 0, DISTINCT, DISTINCT, Map.of()), null);
        LoadResult.StageStats second = new LoadResult.StageStats(2, 5, 10, 20, List.of(),
                new LoadResult.OpStats("all", 400, 0, 80, 0, DISTINCT, DISTINCT, Map.of()), null);
        List<LoadResult.ThresholdResult> judged = Threshold.judgeAll(List.of(Threshold.parse("stage1:rate>=20"),
                Threshold.parse("stage2:rate>=80"), Threshold.parse("stage1:rate>=21"), Threshold.parse("rate>=199")),
                DISTINCT_STATS, List.of(first, second));
        assertThat(judged).extracting(LoadResult.ThresholdResult::passed).containsExactly(true, true, false, true);
        assertThat(judged).extracting(LoadResult.ThresholdResult::actual).containsExactly("20.0 op/s", "80.0 op/s", "20.0 op/s", "199.0 op/s");
    }

    /** A run whose every op failed is judged on its errors, not called empty; one with no op at all is. */
    @Test
    void opsThatAllFailedAreMeasuredAndNoOpsAreNot() {
        LoadResult.StageStats failed = new LoadResult.StageStats(1, 10, 0, 100, List.of(),
                new LoadResult.OpStats("all", 5, 5, 0.5, 0.5, DISTINCT, DISTINCT, Map.of()), null);
        assertThat(Threshold.parse("p99<1s").judge(failed).passed()).as("5 ops and 5 errors are something measured").isTrue();
        LoadResult.StageStats none = new LoadResult.StageStats(1, 10, 0, 100, List.of(),
                new LoadResult.OpStats("all", 0, 0, 0, 0, DISTINCT, DISTINCT, Map.of()), null);
        LoadResult.ThresholdResult r = Threshold.parse("p99<1s").judge(none);
        assertThat(r.passed()).isFalse();
        assertThat(r.actual()).isEqualTo("no ops measured");
        assertThat(Threshold.parse("errors<1").judge(none).passed()).as("no errors among no ops").isTrue();
    }

    @Test
    void valuesAreShownInTheirUnit() {
        assertThat(Threshold.parse("p99<1s").formatValue(999)).isEqualTo("999us");
        assertThat(Threshold.parse("p99<1s").formatValue(1000)).isEqualTo("1.00ms");
        assertThat(Threshold.parse("p99<1s").formatValue(4210)).isEqualTo("4.21ms");
        assertThat(Threshold.parse("rate>1").formatValue(1234.5)).isEqualTo("1,234.5 op/s");
        assertThat(Threshold.parse("error_rate<1%").formatValue(0.0005)).isEqualTo("0.050%");
        assertThat(Threshold.parse("errors<1").formatValue(12345)).isEqualTo("12,345");
    }
}
