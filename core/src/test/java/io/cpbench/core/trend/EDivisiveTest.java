package io.cpbench.core.trend;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class EDivisiveTest {

    /** Apache Otava's (formerly Hunter's) published single series: one change, at index 10. */
    private static final double[] HUNTER = {1.02, 0.95, 0.99, 1.00, 1.12, 1.00, 1.01, 0.98, 1.01, 0.96,
            0.50, 0.51, 0.48, 0.48, 0.55, 0.50, 0.49, 0.51, 0.50, 0.49};

    @Test
    void findsHuntersOneChangeAtIndexTenWithWindowTenAndPAtMostOneInTenThousand() {
        // Welch's t-test, as Hunter judges it
        List<EDivisive.ChangePoint> points = EDivisive.detect(HUNTER, EDivisive.Options.welch(10, 0.0001, 3));

        assertThat(points).extracting(EDivisive.ChangePoint::index).containsExactly(10);
        EDivisive.ChangePoint cp = points.get(0);
        assertThat(cp.pValue()).isLessThanOrEqualTo(0.0001);
        assertThat(cp.meanBefore()).isCloseTo(1.004, within(1e-9));
        assertThat(cp.meanAfter()).isCloseTo(0.501, within(1e-9));
        assertThat(cp.changePercent()).isCloseTo(-50.1, within(0.1));
        // adding a value in line with the last ones changes nothing
        double[] longer = java.util.Arrays.copyOf(HUNTER, 21);
        longer[20] = 0.47;
        assertThat(EDivisive.detect(longer, EDivisive.Options.welch(10, 0.0001, 3)))
                .extracting(EDivisive.ChangePoint::index).containsExactly(10);

        // the paper's permutation test: no shuffle of the 20 values splits them as well, so p is 1/(9,999 + 1)
        List<EDivisive.ChangePoint> permuted = EDivisive.detect(HUNTER, EDivisive.Options.permutation(10, 0.0001, 3, 9_999));
        assertThat(permuted).extracting(EDivisive.ChangePoint::index).containsExactly(10);
        assertThat(permuted.get(0).pValue()).isEqualTo(0.0001);
        assertThat(permuted.get(0).meanAfter()).isCloseTo(0.501, within(1e-9));
    }

    @Test
    void thePermutationTestIsTheSameEveryTimeAndStopsEarlyWhenNothingChanged() {
        SplittableRandom random = new SplittableRandom(11);
        double[] flat = series(random, 40, 0.03, 40, 0);
        EDivisive.Options options = EDivisive.Options.DEFAULT;
        double p = EDivisive.permutationP(flat, 0, 40, options);
        assertThat(EDivisive.permutationP(flat, 0, 40, options)).isEqualTo(p);
        // stopped early: its p-value is b/l with b = 10 (the first count that rules out p ≤ 0.01 with 999 shuffles)
        assertThat(p).isGreaterThan(0.01);
        assertThat(10 / p).as("shuffles done").isLessThan(999).isEqualTo(Math.rint(10 / p), within(1e-6));
        assertThatThrownBy(() -> EDivisive.Options.permutation(30, 0.001, 3, 99))
                .hasMessageContaining("99 permutations cannot give a p-value of 0.001 or less").hasMessageContaining("999");
    }

    @Test
    void findsTwoChangesAndNoneInAFlatOrConstantSeries() {
        double[] two = new double[45];
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < two.length; i++) {
            two[i] = (i < 15 ? 100 : i < 30 ? 80 : 120) * (1 + 0.02 * gaussian(random));
        }
        assertThat(EDivisive.detect(two, EDivisive.Options.DEFAULT)).extracting(EDivisive.ChangePoint::index)
                .containsExactly(15, 30);
        assertThat(EDivisive.detect(new double[20], EDivisive.Options.DEFAULT)).isEmpty();
        assertThat(EDivisive.detect(new double[]{1, 2}, EDivisive.Options.DEFAULT)).isEmpty();
        assertThat(EDivisive.detect(new double[0], EDivisive.Options.DEFAULT)).isEmpty();
        // a step between two constant stretches: no variance on either side, still a change
        assertThat(EDivisive.detect(new double[]{5, 5, 5, 5, 7, 7, 7, 7}, EDivisive.Options.welch(30, 0.001, 3)))
                .extracting(EDivisive.ChangePoint::index).containsExactly(4);
        // a permutation test cannot call 4 against 4 at p ≤ 0.01: 2 of the 70 ways to split 8 values split them as
        // well (p ≈ 0.03); 6 against 6 it can (2 of 924)
        assertThat(EDivisive.detect(new double[]{5, 5, 5, 5, 7, 7, 7, 7}, EDivisive.Options.DEFAULT)).isEmpty();
        assertThat(EDivisive.detect(new double[]{5, 5, 5, 5, 5, 5, 7, 7, 7, 7, 7, 7}, EDivisive.Options.DEFAULT))
                .extracting(EDivisive.ChangePoint::index).containsExactly(6);
    }

    @Test
    void theRunningSumsGiveTheSameDivergenceAsTheDefinition() {
        SplittableRandom random = new SplittableRandom(3);
        double[] z = new double[37];
        for (int i = 0; i < z.length; i++) {
            z[i] = random.nextDouble() * 10 + (i > 20 ? 4 : 0);
        }
        var c = EDivisive.candidate(z, 2, 35, 3);
        double best = Double.NEGATIVE_INFINITY;
        int at = -1;
        for (int tau = 5; tau <= 32; tau++) {
            double q = EDivisive.qHat(z, 2, tau, 35);
            if (q > best) {
                best = q;
                at = tau;
            }
        }
        assertThat(c.tau()).isEqualTo(at);
        assertThat(c.qHat()).isCloseTo(best, within(1e-9 * Math.abs(best)));
    }

    @Test
    void badInputGetsAMessage() {
        assertThatThrownBy(() -> EDivisive.detect(new double[]{1, Double.NaN}, EDivisive.Options.DEFAULT))
                .hasMessageContaining("finite");
        assertThatThrownBy(() -> EDivisive.Options.welch(1, 0.01, 3)).hasMessageContaining("window");
        assertThatThrownBy(() -> EDivisive.Options.welch(10, 0, 3)).hasMessageContaining("p-value");
        assertThatThrownBy(() -> EDivisive.Options.welch(10, 0.01, 1)).hasMessageContaining("minimum segment");
        assertThatThrownBy(() -> EDivisive.Options.permutation(10, 0.01, 3, -1)).hasMessageContaining("permutations");
    }

    /**
     * Planted shifts of known size and place in series like a metric's run-to-run values (Gaussian noise of 3 % of the
     * level), and series with none: how often the shift is found within 2 runs of its place, and how often a series
     * without one gets any change point, for the default (the permutation test) and for Welch's t-test at the same
     * window. The tables are printed; docs/history.md quotes them.
     */
    @Test
    void detectsPlantedShiftsAndRarelyFindsOneWhereThereIsNone() {
        Rates permutation = rates(EDivisive.Options.DEFAULT, 400, 2_000);
        Rates welch = rates(EDivisive.Options.welch(30, 0.001, 3), 400, 2_000);
        System.out.print(permutation.table + welch.table);

        // what the algorithm must do; a broken search or test falls far below these
        for (Rates r : List.of(permutation, welch)) {
            assertThat(r.detection[3]).as(r.table).isGreaterThanOrEqualTo(0.99);
            assertThat(r.detection[2]).as(r.table).isGreaterThanOrEqualTo(0.95);
            assertThat(r.detection[1]).as(r.table).isGreaterThan(r.detection[0]);
        }
        // calibrated: at p ≤ 0.01 about 1 % of flat series get a change point (1.8 % is 3.5 standard errors above 1 %
        // in 1,000 series); the t-test, judging the split it chose as if chosen in advance, is not
        assertThat(permutation.falseRate).as(permutation.table).isLessThanOrEqualTo(0.018);
        assertThat(welch.falseRate).as(welch.table).isGreaterThan(permutation.falseRate);
    }

    private record Rates(double[] detection, double falseRate, String table) {
    }

    private static Rates rates(EDivisive.Options options, int trials, int nullTrials) {
        int length = 40;
        double noise = 0.03;
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%s, %d-run series, %d per shift:%n"
                + "| shift | shift / noise | found within 2 runs | other change points per series |%n|---|---|---|---|%n",
                options.text(), length, trials));
        SplittableRandom random = new SplittableRandom(2014);
        double[] detection = new double[4];
        double[] shifts = {0.03, 0.05, 0.10, 0.20};
        for (int s = 0; s < shifts.length; s++) {
            int found = 0;
            int extra = 0;
            for (int t = 0; t < trials; t++) {
                int at = 10 + random.nextInt(21);
                double[] z = series(random, length, noise, at, shifts[s]);
                List<Integer> points = new ArrayList<>();
                EDivisive.detect(z, options).forEach(cp -> points.add(cp.index()));
                boolean hit = points.stream().anyMatch(i -> Math.abs(i - at) <= 2);
                found += hit ? 1 : 0;
                extra += points.size() - (hit ? 1 : 0);
            }
            detection[s] = (double) found / trials;
            table.append(String.format(Locale.ROOT, "| −%.0f %% | %.1f | %.1f %% | %.3f |%n", shifts[s] * 100,
                    shifts[s] / noise, 100 * detection[s], (double) extra / trials));
        }
        int falsePositives = 0;
        for (int t = 0; t < nullTrials; t++) {
            falsePositives += EDivisive.detect(series(random, length, noise, length, 0), options).isEmpty() ? 0 : 1;
        }
        double falseRate = (double) falsePositives / nullTrials;
        table.append(String.format(Locale.ROOT, "| none | 0 | series with any change point: %.1f %% (%d of %d) | |%n",
                100 * falseRate, falsePositives, nullTrials));
        return new Rates(detection, falseRate, table.toString());
    }

    /** {@code length} values about 1,000 with Gaussian noise, falling by {@code shift} from index {@code at} on. */
    private static double[] series(SplittableRandom random, int length, double noise, int at, double shift) {
        double[] z = new double[length];
        for (int i = 0; i < length; i++) {
            z[i] = 1_000 * (i < at ? 1 : 1 - shift) * (1 + noise * gaussian(random));
        }
        return z;
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    /** q̂ as the paper writes it, over the two samples themselves: the oracle for the code's index arithmetic. */
    private static double definition(double[] x, double[] y) {
        double m = x.length;
        double n = y.length;
        double between = 0;
        for (double a : x) {
            for (double b : y) {
                between += Math.abs(a - b);
            }
        }
        double withinX = 0;
        for (int i = 0; i < x.length; i++) {
            for (int k = i + 1; k < x.length; k++) {
                withinX += Math.abs(x[i] - x[k]);
            }
        }
        double withinY = 0;
        for (int i = 0; i < y.length; i++) {
            for (int k = i + 1; k < y.length; k++) {
                withinY += Math.abs(y[i] - y[k]);
            }
        }
        double e = 2 * between / (m * n) - (m > 1 ? withinX / (m * (m - 1) / 2) : 0) - (n > 1 ? withinY / (n * (n - 1) / 2) : 0);
        return m * n / (m + n) * e;
    }

    @Test
    void theDivergenceAndTheBestSplitMatchTheDefinitionOnEverySegment() {
        SplittableRandom random = new SplittableRandom(11);
        double[] z = new double[24];
        for (int i = 0; i < z.length; i++) {
            z[i] = random.nextDouble() * 10 + (i >= 13 ? 6 : 0);
        }
        int checked = 0;
        for (int minSize = 2; minSize <= 4; minSize++) {
            for (int start = 0; start < z.length; start += 3) {
                for (int end = start + 1; end <= z.length; end++) {
                    var c = EDivisive.candidate(z, start, end, minSize);
                    if (end - start < 2 * minSize) {
                        assertThat(c).as("[%d, %d) with minimum %d", start, end, minSize).isNull();
                        continue;
                    }
                    double best = Double.NEGATIVE_INFINITY;
                    int at = -1;
                    for (int tau = start + minSize; tau <= end - minSize; tau++) {
                        double q = definition(java.util.Arrays.copyOfRange(z, start, tau), java.util.Arrays.copyOfRange(z, tau, end));
                        assertThat(EDivisive.qHat(z, start, tau, end)).isCloseTo(q, within(1e-9 * Math.max(1, Math.abs(q))));
                        if (q > best) {
                            best = q;
                            at = tau;
                        }
                    }
                    // the best split, or one that ties with it up to rounding (two taus can: [6, 11) here)
                    double atChosen = definition(java.util.Arrays.copyOfRange(z, start, c.tau()), java.util.Arrays.copyOfRange(z, c.tau(), end));
                    assertThat(c.tau()).as("[%d, %d) with minimum %d", start, end, minSize).isBetween(start + minSize, end - minSize);
                    assertThat(atChosen).as("[%d, %d): q at %d against the best, at %d", start, end, c.tau(), at)
                            .isCloseTo(best, within(1e-9 * Math.max(1, Math.abs(best))));
                    assertThat(c.qHat()).isCloseTo(best, within(1e-9 * Math.max(1, Math.abs(best))));
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(100);
    }

    /** Welch's test against Apache Commons Math's own (unequal variances, two-sided), and its degenerate cases. */
    @Test
    void welchsTestIsCommonsMathsWelchsTest() {
        SplittableRandom random = new SplittableRandom(5);
        org.apache.commons.math3.stat.inference.TTest oracle = new org.apache.commons.math3.stat.inference.TTest();
        for (int trial = 0; trial < 20; trial++) {
            int m = 3 + random.nextInt(10);
            int n = 3 + random.nextInt(10);
            double[] z = new double[m + n + 4];
            for (int i = 0; i < z.length; i++) {
                z[i] = random.nextDouble() * (1 + trial % 3) + (i >= 2 + m ? trial % 4 : 0);
            }
            double[] x = java.util.Arrays.copyOfRange(z, 2, 2 + m);
            double[] y = java.util.Arrays.copyOfRange(z, 2 + m, 2 + m + n);
            var t = EDivisive.welch(z, 2, 2 + m, 2 + m + n);
            assertThat(t.pValue()).isCloseTo(oracle.tTest(x, y), within(1e-9));
            assertThat(t.meanBefore()).isCloseTo(java.util.Arrays.stream(x).average().orElseThrow(), within(1e-12));
            assertThat(t.meanAfter()).isCloseTo(java.util.Arrays.stream(y).average().orElseThrow(), within(1e-12));
        }
        assertThat(EDivisive.welch(new double[]{1, 5, 9}, 0, 1, 3).pValue()).as("one value before: no test").isEqualTo(1);
        assertThat(EDivisive.welch(new double[]{1, 5, 9}, 0, 2, 3).pValue()).as("one value after").isEqualTo(1);
        assertThat(EDivisive.welch(new double[]{4, 4, 4, 4}, 0, 2, 4).pValue()).as("no variance, same means").isEqualTo(1);
        assertThat(EDivisive.welch(new double[]{4, 4, 7, 7}, 0, 2, 4).pValue()).as("no variance, other means").isEqualTo(0);
    }

    /** The permutation test's p-value, (b + 1) / (r + 1), where no shuffle reaches a clear step and every one a flat series. */
    @Test
    void permutationPValuesAreCountsOfShuffles() {
        double[] step = {1, 1.1, 0.9, 1, 1.05, 0.95, 9, 9.1, 8.9, 9, 9.05, 8.95};
        EDivisive.Options options = EDivisive.Options.permutation(30, 0.01, 3, 99);
        assertThat(EDivisive.permutationP(step, 0, step.length, options)).isEqualTo(1.0 / 100);
        double[] flat = new double[12];
        java.util.Arrays.fill(flat, 5);
        assertThat(EDivisive.permutationP(flat, 0, flat.length, options)).as("stopped early: every shuffle reaches it").isEqualTo(1.0);
        assertThat(EDivisive.permutationP(step, 0, 5, options)).as("too short to split").isEqualTo(1.0);
        // a p-value exactly at the bound is a change point: 1/100 with 99 shuffles and p <= 0.01
        List<EDivisive.ChangePoint> found = EDivisive.detect(step, options);
        assertThat(found).singleElement().satisfies(c -> {
            assertThat(c.index()).isEqualTo(6);
            assertThat(c.pValue()).isEqualTo(0.01);
            assertThat(c.meanBefore()).isCloseTo(1, within(1e-12));
            assertThat(c.meanAfter()).isCloseTo(9, within(1e-12));
            assertThat(c.changePercent()).isCloseTo(800, within(1e-9));
        });
        assertThat(new EDivisive.ChangePoint(1, 0, 5, 0.01, 1).changePercent()).isNaN();
    }
}
