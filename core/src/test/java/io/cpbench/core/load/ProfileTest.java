package io.cpbench.core.load;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ProfileTest {

    @Test
    void flatRateSpacesOpsEvenly() {
        Profile p = Profile.flat(1000, Duration.ofSeconds(2));
        assertThat(p.totalOps()).isEqualTo(2000.0);
        assertThat(p.slotOffsetNanos(0)).isZero();
        assertThat(p.slotOffsetNanos(1)).isEqualTo(1_000_000);
        assertThat(p.slotOffsetNanos(1999)).isEqualTo(1_999_000_000L);
        assertThat(p.slotOffsetNanos(2000)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void linearRampMakesOpsDueAsTheIntegralOfTheRate() {
        // 0 -> 1000 op/s over 10 s: N(t) = 50 t^2, so op k is due at sqrt(k / 50) s
        Profile p = new Profile(0, List.of(new Stage(Duration.ofSeconds(10), 1000)));
        assertThat(p.totalOps()).isEqualTo(5000.0);
        for (long k : new long[]{1, 50, 200, 1250, 4999}) {
            assertThat(p.slotOffsetNanos(k) / 1e9).isCloseTo(Math.sqrt(k / 50.0), within(1e-6));
        }
        // ramp down 1000 -> 0: ops are dense first, sparse last; the last one is due just before 10 s
        Profile down = new Profile(1000, List.of(new Stage(Duration.ofSeconds(10), 0)));
        assertThat(down.slotOffsetNanos(2500) / 1e9).isCloseTo(10 - Math.sqrt(50), within(1e-6));
        assertThat(down.slotOffsetNanos(4999)).isLessThan(10_000_000_000L);
    }

    @Test
    void stagesChainAndDueCountsFollowThem() {
        // k6-style 2s:100 (from 0), 2s:100, 2s:0
        Profile p = new Profile(0, Stage.parseList("2s:100,2s:100,2s:0"));
        assertThat(p.totalOps()).isEqualTo(100 + 200 + 100, within(1e-9));
        assertThat(p.stageAt(0)).isZero();
        assertThat(p.stageAt(2_000_000_000L)).isEqualTo(1);
        assertThat(p.stageAt(5_999_999_999L)).isEqualTo(2);
        assertThat(p.levelAt(1_000_000_000L)).isCloseTo(50, within(1e-9));
        assertThat(p.levelAt(5_000_000_000L)).isCloseTo(50, within(1e-9));
        // the first op of the flat stage is due as it starts, and ops of that stage are 10 ms apart
        assertThat(p.slotOffsetNanos(100)).isEqualTo(2_000_000_000L);
        assertThat(p.slotOffsetNanos(101) - p.slotOffsetNanos(100)).isEqualTo(10_000_000L);
        assertThat(p.dueBy(3_000_000_000L)).isEqualTo(200);
        assertThat(p.dueBy(6_000_000_000L)).isEqualTo(400);
        // offsets never go backwards
        long previous = -1;
        for (long k = 0; k < 400; k++) {
            long t = p.slotOffsetNanos(k);
            assertThat(t).isGreaterThanOrEqualTo(previous);
            previous = t;
        }
    }

    @Test
    void stageTextRoundTrips() {
        assertThat(Stage.parseList("30s:10,1m:50,1m30s:0").toString()).isEqualTo("[30s:10, 1m:50, 1m30s:0]");
        assertThat(Durations.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("250ms")).isEqualTo(Duration.ofMillis(250));
    }
}
