package io.cpbench.core.load;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SteadyStateTest {

    private static final SteadyState RULE = SteadyState.DEFAULT;

    /**
     * Two fresh 5-member clusters' warm-ups on this project's 2-core machine (2026-11-28), op/s each second through a
     * smart client on one thread, as ClusterWarmup printed them; each ended where the rule called it steady.
     */
    static final double[][] RECORDED = {
            {162, 280, 266, 472, 311, 306, 398, 783, 951, 940, 785, 934, 886, 1_070, 603, 793, 767},
            {150, 259, 260, 323, 466, 286, 287, 474, 734, 949, 974, 822, 817, 992, 967, 548, 846, 734}};

    /** The first second at which the rule calls {@code rates} steady (1-based), or -1. */
    private static int steadyAt(double[] rates) {
        for (int n = 1; n <= rates.length; n++) {
            if (RULE.judge(Arrays.copyOf(rates, n)).steady()) {
                return n;
            }
        }
        return -1;
    }

    @Test
    void aRisingSeriesKeepsWarming() {
        double[] rising = new double[40];
        for (int i = 0; i < rising.length; i++) {
            rising[i] = 200 + 20 * i; // +20 op/s a second: at 1,000 op/s still 18 % across 10 s
        }
        assertThat(steadyAt(rising)).isEqualTo(-1);
        assertThat(RULE.judge(rising).riseSeen()).isGreaterThan(0.05);
        // a slow climb, 1 % a second, is still a climb: 9 % across the window
        double[] slow = new double[40];
        for (int i = 0; i < slow.length; i++) {
            slow[i] = 1_000 * Math.pow(1.01, i);
        }
        assertThat(steadyAt(slow)).isEqualTo(-1);
    }

    /** A planted slow start (ops 4 ms slower at first, less and less for 20 s), op/s with 10 % noise: not before 20 s. */
    @Test
    void aClimbThatEndsAt20sIsNotCalledSteadyBeforeIt() {
        SplittableRandom random = new SplittableRandom(20);
        for (int s = 0; s < 200; s++) {
            double[] rates = new double[60];
            for (int t = 0; t < rates.length; t++) {
                double wait = Math.max(0, 4 * (1 - t / 20.0));
                rates[t] = 1_000 / (0.75 + wait) * (1 + 0.10 * gaussian(random));
            }
            assertThat(steadyAt(rates)).as(Arrays.toString(rates)).isBetween(21, 60);
        }
    }

    @Test
    void aFlatSeriesStopsAsSoonAsItHasAWindow() {
        double[] flat = {1_000, 1_010, 990, 1_005, 995, 1_000, 1_020, 980, 1_000, 1_010, 990};
        assertThat(steadyAt(flat)).isEqualTo(10);
        assertThat(RULE.judge(Arrays.copyOf(flat, 9)).steady()).as("fewer than 10 intervals").isFalse();
        // falling is steady enough: a warm-up waits for the cluster to stop getting faster
        double[] falling = new double[10];
        for (int i = 0; i < falling.length; i++) {
            falling[i] = 1_100 - 20 * i;
        }
        assertThat(steadyAt(falling)).isEqualTo(10);
    }

    @Test
    void aDisturbedIntervalHoldsItBackUntilItLeavesTheWindow() {
        double[] dip = new double[16];
        Arrays.fill(dip, 1_000);
        dip[3] = 300; // second 4: in every window up to second 13
        assertThat(steadyAt(dip)).isEqualTo(14);
        assertThat(RULE.judge(Arrays.copyOf(dip, 13)).spreadSeen()).isCloseTo(0.7, org.assertj.core.api.Assertions.within(1e-9));
    }

    /** 10 % Gaussian noise around a flat level: stops within 60 s in every one of 1,000 series, mostly at once. */
    @Test
    void aNoisyFlatSeriesStopsWithinItsBound() {
        SplittableRandom random = new SplittableRandom(62);
        int[] at = new int[1_000];
        for (int s = 0; s < at.length; s++) {
            double[] rates = new double[60];
            for (int i = 0; i < rates.length; i++) {
                rates[i] = 1_000 * (1 + 0.10 * gaussian(random));
            }
            at[s] = steadyAt(rates);
        }
        assertThat(Arrays.stream(at).filter(a -> a < 0).count()).as("series that never settled").isZero();
        Arrays.sort(at);
        assertThat(at[at.length / 2]).as("median second it settled").isLessThanOrEqualTo(12);
    }

    @Test
    void aRecordedWarmUpIsCalledSteadyWhereItWasLiveAndNotWhileItRose() {
        for (double[] recorded : RECORDED) {
            assertThat(steadyAt(recorded)).as(Arrays.toString(recorded)).isEqualTo(recorded.length);
            SteadyState.Verdict v = RULE.judge(recorded);
            // by then it ran at 5 times its first second
            assertThat(v.median()).isGreaterThan(5 * recorded[0]);
            // while it climbed (its first 13 s) no window was steady
            for (int n = 10; n <= 13; n++) {
                assertThat(RULE.judge(Arrays.copyOf(recorded, n)).steady()).as("after %d s", n).isFalse();
            }
        }
    }

    @Test
    void badRulesAreRefused() {
        assertThatThrownBy(() -> new SteadyState(2, 0.2, 0.05)).hasMessageContaining("3 or more");
        assertThatThrownBy(() -> new SteadyState(5, 0, 0.05)).hasMessageContaining("above 0");
        assertThat(RULE.judge(new double[]{0, 0, 0, 0, 0}).steady()).as("no ops at all").isFalse();
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
