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
