package io.cpbench.lb;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LatencyStatsTest {

    static final long MS = 1_000_000;

    final AtomicLong now = new AtomicLong(1_000 * MS);
    final LatencyStats<String> stats = new LatencyStats<>(Duration.ofSeconds(2), 3.0, 1.5, 3, now::get);

    void probe(String member, long millis, int times) {
        for (int i = 0; i < times; i++) {
            stats.record(member, millis * MS);
            now.addAndGet(10 * MS);
        }
    }

    @Test
    void medianNeedsEnoughRecentSamples() {
        probe("a", 1, 2);
        assertThat(stats.median("a")).isEmpty();

        probe("a", 5, 1);

        assertThat(stats.median("a")).hasValue(1 * MS);
    }

    @Test
    void latestGivesTheNewestSamplesInOrderWhileTheWindowStillHoldsOlderOnes() {
        probe("a", 1, 8);
        probe("a", 3, 1);
        probe("a", 4, 1);

        assertThat(stats.latest("a", 2)).containsExactly(3 * MS, 4 * MS);
        assertThat(stats.latest("a", 3)).containsExactly(1 * MS, 3 * MS, 4 * MS);
        assertThat(stats.quantiles(0.1).get("a")).isEqualTo(1 * MS); // the old samples still set the fastest tenth
        assertThat(stats.latest("b", 3)).isEmpty();

        now.addAndGet(Duration.ofSeconds(3).toNanos());
        assertThat(stats.latest("a", 3)).isEmpty(); // aged out of the window
    }

    @Test
    void aMemberSlowerThanTheRatioTimesTheBestIsExcluded() {
        probe("leader", 1, 5);
        probe("follower", 2, 5);
        probe("slow", 21, 5);

        assertThat(stats.excluded()).containsExactly("slow");
    }

    @Test
    void samplesOlderThanTheWindowNoLongerCount() {
        probe("a", 1, 5);
        probe("b", 30, 5);
        assertThat(stats.excluded()).containsExactly("b");

        now.addAndGet(Duration.ofSeconds(3).toNanos()); // b's slow samples age out
        probe("a", 1, 5);

        assertThat(stats.median("b")).isEmpty();
        assertThat(stats.excluded()).containsExactly("b"); // no fresh evidence yet: still excluded
        probe("b", 1, 5);
        assertThat(stats.excluded()).isEmpty();
    }

    @Test
    void readmissionNeedsTheLowerBarSoAMemberNearTheLineDoesNotFlap() {
        probe("a", 10, 5);
        probe("b", 40, 5);
        assertThat(stats.excluded()).containsExactly("b");

        now.addAndGet(Duration.ofSeconds(3).toNanos());
        probe("a", 10, 5);
        probe("b", 20, 5); // 2.0 x best: under the exclusion bar (3.0) but over the readmission bar (1.5)
        assertThat(stats.excluded()).containsExactly("b");

        now.addAndGet(Duration.ofSeconds(3).toNanos());
        probe("a", 10, 5);
        probe("b", 14, 5); // 1.4 x best
        assertThat(stats.excluded()).isEmpty();
    }

    @Test
    void forgottenMembersAreNeitherMeasuredNorExcluded() {
        probe("a", 1, 5);
        probe("b", 30, 5);
        assertThat(stats.excluded()).containsExactly("b");

        stats.forget("b");

        assertThat(stats.excluded()).isEmpty();
        assertThat(stats.median("b")).isEmpty();
    }

    @Test
    void rejectsRatiosThatCannotWork() {
        assertThatThrownBy(() -> new LatencyStats<String>(Duration.ofSeconds(1), 1.0, 1.0, 1, System::nanoTime))
                .hasMessageContaining("excludeRatio > 1");
        assertThatThrownBy(() -> new LatencyStats<String>(Duration.ofSeconds(1), 2.0, 3.0, 1, System::nanoTime))
                .hasMessageContaining("readmitRatio <= excludeRatio");
    }

    @Test
    void aLowQuantileShowsThePathsFixedCostThroughNoise() {
        // The leader's path is 1 ms, a follower's 1.3 ms; noise (a busy machine) only ever adds.
        long[] leaderNoise = {0, 4, 0, 0, 6, 0, 0, 5, 0, 0};
        long[] followerNoise = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        for (int i = 0; i < 10; i++) {
            stats.record("leader", (10 + leaderNoise[i] * 10) * MS / 10);
            stats.record("follower", (13 + followerNoise[i]) * MS / 10);
            now.addAndGet(10 * MS);
        }

        assertThat(stats.quantiles(0.1)).containsEntry("leader", 1 * MS).containsEntry("follower", 13 * MS / 10);
        assertThat(stats.quantiles(0.0).get("leader")).isLessThan(stats.quantiles(0.0).get("follower"));
        assertThat(stats.quantiles(1.0)).containsEntry("leader", 7 * MS);
        assertThatThrownBy(() -> stats.quantiles(1.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void clearForgetsEverything() {
        probe("a", 1, 5);
        probe("b", 30, 5);
        assertThat(stats.excluded()).containsExactly("b");

        stats.clear();

        assertThat(stats.medians()).isEmpty();
        assertThat(stats.excluded()).isEmpty();
    }
}
