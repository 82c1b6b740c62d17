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
}
