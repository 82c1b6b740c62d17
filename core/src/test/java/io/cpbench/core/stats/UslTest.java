package io.cpbench.core.stats;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class UslTest {

    static final double[] LEVELS = {1, 2, 4, 8, 16, 32, 64};

    @Test
    void recoversTheParametersOfExactData() {
        Usl truth = new Usl(1000, 0.05, 0.002, 1, 0);
        double[] x = new double[LEVELS.length];
        for (int i = 0; i < LEVELS.length; i++) {
            x[i] = truth.throughput(LEVELS[i]);
        }
        Usl fit = Usl.fit(LEVELS, x);
        assertThat(fit.lambda()).isCloseTo(1000, within(1.0));
        assertThat(fit.sigma()).isCloseTo(0.05, within(0.001));
        assertThat(fit.kappa()).isCloseTo(0.002, within(0.0001));
        assertThat(fit.rSquared()).isGreaterThan(0.9999);
        assertThat(fit.peakConcurrency()).isCloseTo(Math.sqrt(0.95 / 0.002), within(0.5)); // 21.8
    }

    @Test
    void findsThePeakThroughNoiseFromRepeats() {
        Usl truth = new Usl(2500, 0.1, 0.004, 1, 0); // N* = 15
        SplittableRandom random = new SplittableRandom(7);
        double[] n = new double[LEVELS.length * 3];
        double[] x = new double[n.length];
        for (int r = 0; r < 3; r++) {
            for (int i = 0; i < LEVELS.length; i++) {
                n[r * LEVELS.length + i] = LEVELS[i];
                x[r * LEVELS.length + i] = truth.throughput(LEVELS[i]) * (1 + (random.nextDouble() - 0.5) * 0.06); // ±3 %
            }
        }
        Usl fit = Usl.fit(n, x);
        assertThat(fit.points()).isEqualTo(21);
        assertThat(fit.peakConcurrency()).isBetween(12.0, 18.0);
        assertThat(fit.peakThroughput()).isCloseTo(truth.peakThroughput(), within(truth.peakThroughput() * 0.05));
        assertThat(fit.rSquared()).isBetween(0.95, 1.0);
    }

    @Test
    void linearScalingHasNoPeakAndContentionIsAnAsymptote() {
        double[] x = new double[LEVELS.length];
        for (int i = 0; i < LEVELS.length; i++) {
            x[i] = 300 * LEVELS[i];
        }
        Usl linear = Usl.fit(LEVELS, x);
        assertThat(linear.sigma()).isLessThan(1e-4);
        assertThat(linear.kappa()).isLessThan(1e-6);
        Usl amdahl = new Usl(100, 0.25, 0, 1, 0);
        assertThat(amdahl.peakConcurrency()).isInfinite();
        assertThat(amdahl.peakThroughput()).isCloseTo(400, within(1e-9));
    }

    @Test
    void refusesTooFewLevelsAndImpossiblePoints() {
        assertThatThrownBy(() -> Usl.fit(new double[]{1, 2, 2}, new double[]{10, 20, 21}))
                .hasMessageContaining("at least 3 different concurrencies, had 2");
        assertThatThrownBy(() -> Usl.fit(new double[]{1, 2, 4}, new double[]{10, 0, 21}))
                .hasMessageContaining("throughput > 0");
    }
}
