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
}
