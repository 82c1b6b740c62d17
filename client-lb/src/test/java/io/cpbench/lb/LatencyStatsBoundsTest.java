package io.cpbench.lb;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The edges of the latency judge, each on both sides: a member exactly at the exclusion bar stays in, one exactly at
 * the readmission bar comes back, a sample exactly a window old still counts, a member with exactly the minimum of
 * samples is judged, and medians are checked against the samples sorted (given out of order).
 */
class LatencyStatsBoundsTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private LatencyStats<String> stats(int minSamples) {
        return new LatencyStats<>(Duration.ofSeconds(10), 3.0, 1.5, minSamples, now::get);
    }

    @Test
    void theRatiosAndTheMinimumAreCheckedAtTheirEdges() {
        assertThatThrownBy(() -> new LatencyStats<>(Duration.ofSeconds(1), 1.0, 1.0, 1, now::get)).isInstanceOf(IllegalArgumentException.class);
        assertThatCode(() -> new LatencyStats<>(Duration.ofSeconds(1), 1.0001, 1.0, 1, now::get)).doesNotThrowAnyException();
        assertThatThrownBy(() -> new LatencyStats<>(Duration.ofSeconds(1), 2.0, 0.9999, 1, now::get)).isInstanceOf(IllegalArgumentException.class);
        assertThatCode(() -> new LatencyStats<>(Duration.ofSeconds(1), 2.0, 2.0, 1, now::get)).as("readmit = exclude").doesNotThrowAnyException();
        assertThatThrownBy(() -> new LatencyStats<>(Duration.ofSeconds(1), 2.0, 2.0001, 1, now::get)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LatencyStats<>(Duration.ofSeconds(1), 2.0, 1.0, 0, now::get)).isInstanceOf(IllegalArgumentException.class);
        assertThatCode(() -> new LatencyStats<>(Duration.ofSeconds(1), 2.0, 1.0, 1, now::get)).doesNotThrowAnyException();
        assertThatThrownBy(() -> new LatencyStats<>(Duration.ZERO, 2.0, 1.0, 1, now::get)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> stats(1).quantiles(-0.01)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> stats(1).quantiles(1.01)).isInstanceOf(IllegalArgumentException.class);
        assertThatCode(() -> stats(1).quantiles(1.0)).doesNotThrowAnyException();
        assertThatCode(() -> stats(1).quantiles(0.0)).doesNotThrowAnyException();
    }

    @Test
    void mediansAreTheSortedSamplesMiddle() {
        LatencyStats<String> s = stats(1);
        long[] odd = {900, 100, 500, 300, 700};
        long[] even = {800, 200, 600, 400};
        for (long v : odd) {
            s.record("odd", v);
        }
        for (long v : even) {
            s.record("even", v);
        }
        long[] sortedOdd = odd.clone();
        Arrays.sort(sortedOdd);
        long[] sortedEven = even.clone();
        Arrays.sort(sortedEven);
        assertThat(s.median("odd")).hasValue(sortedOdd[2]);
        assertThat(s.median("even")).hasValue((sortedEven[1] + sortedEven[2]) / 2);
        assertThat(s.medians()).isEqualTo(Map.of("odd", 500L, "even", 500L));
        assertThat(s.quantiles(0.0)).isEqualTo(Map.of("odd", 100L, "even", 200L));
        assertThat(s.quantiles(1.0)).isEqualTo(Map.of("odd", 900L, "even", 800L));
        assertThat(s.quantiles(0.25)).as("floor(0.25 * 4) = 1, floor(0.25 * 3) = 0").isEqualTo(Map.of("odd", 300L, "even", 200L));
    }

    @Test
    void aMemberWithExactlyTheMinimumOfSamplesIsJudged() {
        LatencyStats<String> s = stats(3);
        for (int i = 0; i < 3; i++) {
            s.record("fast", 1_000);
            s.record("slow", 10_000);
        }
        s.record("new", 50_000);
        s.record("new", 50_000);
        assertThat(s.quantiles(0.5)).containsOnlyKeys("fast", "slow");
        assertThat(s.medians()).containsOnlyKeys("fast", "slow");
        assertThat(s.excluded()).containsExactly("slow");
    }

    @Test
    void theExclusionBarIsStrictAndTheReadmissionBarIsNot() {
        LatencyStats<String> s = stats(1);
        s.record("best", 1_000);
        s.record("at-bar", 3_000); // exactly 3 x the best: not over it
        s.record("over-bar", 3_001);
        assertThat(s.excluded()).containsExactly("over-bar");

        now.addAndGet(Duration.ofSeconds(11).toNanos()); // the old samples leave the window
        s.record("best", 1_000);
        s.record("at-bar", 3_000);
        s.record("over-bar", 1_500); // exactly 1.5 x the best: readmitted
        assertThat(s.excluded()).isEmpty();
        s.record("over-bar", 5_000);
        s.record("over-bar", 5_000); // median 5,000: out again
        assertThat(s.excluded()).containsExactly("over-bar");
        now.addAndGet(Duration.ofSeconds(11).toNanos());
        s.record("best", 1_000);
        s.record("over-bar", 1_501); // just over the readmission bar: stays out
        assertThat(s.excluded()).containsExactly("over-bar");
    }

    @Test
    void aSampleExactlyAWindowOldStillCounts() {
        LatencyStats<String> s = stats(1);
        s.record("m", 1_000);
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(s.median("m")).as("exactly 10 s old").hasValue(1_000);
        now.incrementAndGet();
        assertThat(s.median("m")).as("a nanosecond older").isEmpty();
    }

    @Test
    void withABestOfZeroNothingIsJudged() {
        LatencyStats<String> s = stats(1);
        s.record("instant", 0);
        s.record("other", 5_000);
        assertThat(s.excluded()).isEqualTo(Set.of());
    }
}
