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

    @Test
    void thePeakAtItsEdges() {
        Usl peaked = new Usl(1000, 0.1, 0.01, 1, 5);
        double n = Math.sqrt(0.9 / 0.01);
        assertThat(peaked.peakConcurrency()).isCloseTo(n, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(peaked.peakThroughput()).isCloseTo(1000 * n / (1 + 0.1 * (n - 1) + 0.01 * n * (n - 1)),
                org.assertj.core.api.Assertions.within(1e-9));
        assertThat(new Usl(1000, 0.1, 0, 1, 5).peakConcurrency()).as("no coherency cost: no peak").isInfinite();
        assertThat(new Usl(1000, 0.1, 0, 1, 5).peakThroughput()).as("the asymptote λ/σ").isCloseTo(10_000, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(new Usl(1000, 1.0, 0.01, 1, 5).peakConcurrency()).as("σ at 1: flat from the start").isInfinite();
        assertThat(new Usl(1000, 0, 0, 1, 5).peakThroughput()).as("linear: no bound").isInfinite();
    }

    /** Throughput that grows faster than linearly would want a negative σ: the fit keeps every parameter in range. */
    @Test
    void superlinearPointsStillGiveParametersInRange() {
        double[] n = {1, 2, 4, 8};
        double[] x = {100, 230, 520, 1150};
        Usl usl = Usl.fit(n, x);
        assertThat(usl.lambda()).isPositive();
        assertThat(usl.sigma()).isBetween(0.0, 1.0);
        assertThat(usl.kappa()).isGreaterThanOrEqualTo(0);
        assertThat(usl.points()).isEqualTo(4);
        assertThat(usl.rSquared()).isLessThanOrEqualTo(1);
    }
}
