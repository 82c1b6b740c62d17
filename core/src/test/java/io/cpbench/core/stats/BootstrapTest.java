package io.cpbench.core.stats;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class BootstrapTest {

    @Test
    void oneValueHasNoInterval() {
        Bootstrap.Interval ci = Bootstrap.median95(new double[]{0.93});
        assertThat(ci.median()).isEqualTo(0.93);
        assertThat(ci.relativeHalfWidth()).isInfinite();
    }

    @Test
    void theIntervalHoldsTheMedianAndStaysWithinTheData() {
        double[] values = {0.81, 0.95, 0.77, 1.02, 0.88, 0.91, 0.79};
        Bootstrap.Interval ci = Bootstrap.median95(values);
        assertThat(ci.median()).isEqualTo(0.88);
        assertThat(ci.low()).isGreaterThanOrEqualTo(0.77).isLessThan(0.88);
        assertThat(ci.high()).isGreaterThan(0.88).isLessThanOrEqualTo(1.02);
        assertThat(Bootstrap.median95(values)).as("seeded from the data: the same report twice").isEqualTo(ci);
    }

    /**
     * How often a median's interval from n values holds the true median, counted by simulation (a skewed
     * distribution, exponential, whose median is ln 2), not taken from the formula: [lowest, highest] as
     * {@link Bootstrap#mostConfidence} says, and the percentile bootstrap's interval, which lies within it, no more
     * often. With 3 values the "95 %" interval holds the median about 3 times in 4.
     */
    @Test
    void fewValuesCannotGiveANinetyFivePercentIntervalOfTheirMedian() {
        SplittableRandom random = new SplittableRandom(7);
        double trueMedian = Math.log(2);
        int samples = 4_000;
        for (int n = 2; n <= 7; n++) {
            int heldByRange = 0;
            int heldByBootstrap = 0;
            for (int s = 0; s < samples; s++) {
                double[] values = new double[n];
                for (int i = 0; i < n; i++) {
                    values[i] = -Math.log(1 - random.nextDouble());
                }
                double lo = java.util.Arrays.stream(values).min().orElseThrow();
                double hi = java.util.Arrays.stream(values).max().orElseThrow();
                heldByRange += lo <= trueMedian && trueMedian <= hi ? 1 : 0;
                if (n <= 4 && s < 1_000) { // the bootstrap is costly; its bound is the same at every n
                    Bootstrap.Interval ci = Bootstrap.median95(values);
                    assertThat(ci.low()).isGreaterThanOrEqualTo(lo);
                    assertThat(ci.high()).isLessThanOrEqualTo(hi);
                    heldByBootstrap += ci.low() <= trueMedian && trueMedian <= ci.high() ? 1 : 0;
                }
            }
            double counted = heldByRange / (double) samples;
            // binomial standard error at most 0.008 for 4,000 samples: 4 of them
            assertThat(Bootstrap.mostConfidence(n)).as("n = %d", n).isCloseTo(counted, within(0.032));
            if (n <= 4) { // within [lowest, highest] every time, so it holds the median no more often
                assertThat(heldByBootstrap / 1_000.0).as("bootstrap, n = %d", n).isLessThan(0.95);
                assertThat(heldByBootstrap).isLessThanOrEqualTo(heldByRange);
            }
        }
        assertThat(Bootstrap.mostConfidence(Bootstrap.VALUES_FOR_95 - 1)).isLessThan(0.95);
        assertThat(Bootstrap.mostConfidence(Bootstrap.VALUES_FOR_95)).isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void itsWidthMatchesTheoryForALargeSample() {
        // The median of n normal values has standard error sqrt(pi/2) * sigma / sqrt(n): 0.0886 for n = 200.
        SplittableRandom random = new SplittableRandom(7);
        double[] values = new double[200];
        for (int i = 0; i < values.length; i++) {
            values[i] = 10 + gaussian(random);
        }
        Bootstrap.Interval ci = Bootstrap.median95(values);
        assertThat((ci.high() - ci.low()) / 2).isCloseTo(1.96 * 0.0886, within(0.05));
    }

    @Test
    void itCoversTheTrueMedianAboutNinetyFivePercentOfTheTime() {
        // 400 samples of 25 from a skewed distribution (exponential, median ln 2): the 95 % interval should hold
        // the true median in about 95 % of them; the bootstrap of a median runs slightly wide or narrow at n = 25.
        SplittableRandom random = new SplittableRandom(11);
        double truth = Math.log(2);
        int covered = 0;
        int samples = 400;
        for (int s = 0; s < samples; s++) {
            double[] values = new double[25];
            for (int i = 0; i < values.length; i++) {
                values[i] = -Math.log(1 - random.nextDouble());
            }
            Bootstrap.Interval ci = Bootstrap.median95(values);
            if (ci.low() <= truth && truth <= ci.high()) {
                covered++;
            }
        }
        assertThat(covered / (double) samples).isBetween(0.90, 0.99);
    }

    @Test
    void groupsThatDifferAsWholesWidenTheInterval() {
        // 4 groups of 40 values, each group shifted as a whole by -3 %, -1 %, +1 %, +3 %, the values within ±1 %
        SplittableRandom random = new SplittableRandom(7);
        double[][] groups = new double[4][40];
        double[] pooled = new double[160];
        for (int g = 0; g < 4; g++) {
            for (int i = 0; i < 40; i++) {
                groups[g][i] = 1 + (g * 2 - 3) * 0.01 + gaussian(random) * 0.005;
                pooled[g * 40 + i] = groups[g][i];
            }
        }
        Bootstrap.Interval flat = Bootstrap.median95(pooled);
        Bootstrap.Interval clustered = Bootstrap.clusteredMedian95(groups);
        assertThat(clustered.median()).isEqualTo(flat.median());
        assertThat(clustered.n()).isEqualTo(160);
        // the pooled interval sees 160 independent values; the groups say there are, in effect, about 4
        assertThat(clustered.high() - clustered.low()).isGreaterThan(2 * (flat.high() - flat.low()));
        assertThat(clustered.low()).isLessThanOrEqualTo(clustered.median());
        assertThat(clustered.high()).isGreaterThanOrEqualTo(clustered.median());
        // one group is the plain bootstrap
        assertThat(Bootstrap.clusteredMedian95(new double[][]{pooled})).isEqualTo(flat);
        assertThat(Bootstrap.clusteredMedian95(groups)).isEqualTo(clustered);
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    /** Nine values of 1,000 between two far outliers, scrambled: every resample's median is 1,000 unless it is read unsorted. */
    private static final double[] ROBUST = {100_000, 1000, 1000, 1, 1000, 1000, 1000, 1000, 1000, 1000, 1000};

    @Test
    void mediansAreOfTheValuesSortedWhateverTheirOrder() {
        assertThat(Bootstrap.medianOf(new double[]{5, 1, 3})).isEqualTo(3);
        assertThat(Bootstrap.medianOf(new double[]{8, 2, 6, 4})).isEqualTo(5);
        assertThat(Bootstrap.median95(ROBUST)).isEqualTo(new Bootstrap.Interval(1000, 1000, 1000, 11));
        // a resample's median more than 5 of 11 draws from one outlier away happens about 3 times in 10,000
        assertThat(Bootstrap.ratioOfMedians(ROBUST, ROBUST.clone(), 0.95)).isEqualTo(new Bootstrap.Interval(1, 1, 1, 11));
        double[][] groups = {{1000, 1, 1000, 1000, 1000}, {1000, 100_000, 1000, 1000, 1000}, {1000, 1000, 1, 1000, 1000}};
        assertThat(Bootstrap.clusteredMedian95(groups)).isEqualTo(new Bootstrap.Interval(1000, 1000, 1000, 15));
    }

    @Test
    void quantilesInterpolateBetweenNeighbours() {
        double[] sorted = {10, 20, 30, 40};
        assertThat(Bootstrap.quantile(sorted, 0)).isEqualTo(10);
        assertThat(Bootstrap.quantile(sorted, 1)).isEqualTo(40);
        assertThat(Bootstrap.quantile(sorted, 0.5)).isEqualTo(25);
        assertThat(Bootstrap.quantile(sorted, 0.25)).isEqualTo(17.5);
        assertThat(Bootstrap.quantile(new double[]{7}, 0.9)).isEqualTo(7);
    }

    @Test
    void theConfidenceIsStrictlyBetweenZeroAndOne() {
        double[] v = {1, 2, 3};
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Bootstrap.median(v, 0)).isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Bootstrap.median(v, 1)).isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Bootstrap.median(new double[0], 0.5)).hasMessage("no values");
        assertThat(Bootstrap.median(v, 0.5).n()).isEqualTo(3);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Bootstrap.clusteredMedian95(new double[][]{{1}, {}}))
                .hasMessage("an empty group");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Bootstrap.clusteredMedian95(new double[0][]))
                .hasMessage("no values");
    }

    /** Groups of very different sizes: a resample that draws the big one often must still fit (and hold the median). */
    @Test
    void groupsOfVeryDifferentSizesResample() {
        double[] big = new double[200];
        for (int i = 0; i < big.length; i++) {
            big[i] = 500 + i % 7;
        }
        double[][] groups = {{400}, {600}, {450}, big};
        Bootstrap.Interval i = Bootstrap.clusteredMedian95(groups);
        assertThat(i.n()).isEqualTo(203);
        assertThat(i.low()).isLessThanOrEqualTo(i.median()).isGreaterThanOrEqualTo(400);
        assertThat(i.high()).isGreaterThanOrEqualTo(i.median()).isLessThanOrEqualTo(600);
        assertThat(Bootstrap.clusteredMedian95(new double[][]{{3, 1, 2}})).as("one group: the plain bootstrap")
                .isEqualTo(Bootstrap.median95(new double[]{1, 2, 3}));
    }

    @Test
    void aRelativeHalfWidthNeedsTwoValuesAndANonZeroMedian() {
        assertThat(new Bootstrap.Interval(100, 90, 110, 5).relativeHalfWidth()).isCloseTo(0.1, within(1e-12));
        assertThat(new Bootstrap.Interval(-100, -110, -90, 5).relativeHalfWidth()).isCloseTo(0.1, within(1e-12));
        assertThat(new Bootstrap.Interval(100, 100, 100, 1).relativeHalfWidth()).isInfinite();
        assertThat(new Bootstrap.Interval(0, -1, 1, 5).relativeHalfWidth()).isInfinite();
    }
}
