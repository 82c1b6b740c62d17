package io.cpbench.core.stats;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Percentile-bootstrap confidence intervals for the median of a small sample (a scenario's op/s over rounds, or
 * its paired ratios to a baseline). Resampling is seeded from the data, so the same results always give the same
 * interval: a report rendered twice says the same thing.
 *
 * <p>With few rounds the interval is wide by construction (with 3 values it cannot be narrower than the middle
 * value's neighbours), which is the honest answer: the rounds do not yet pin the number down.
 */
public final class Bootstrap {

    public static final int RESAMPLES = 10_000;

    private Bootstrap() {
    }

    /**
     * @param median    the sample's median
     * @param low       the interval's lower bound
     * @param high      the interval's upper bound
     * @param n         the sample size
     */
    public record Interval(double median, double low, double high, int n) {

        /** Half the interval's width, relative to the median (0.05 is ±5 %); infinite for a sample of one. */
        public double relativeHalfWidth() {
            if (n < 2) {
                return Double.POSITIVE_INFINITY;
            }
            return median == 0 ? Double.POSITIVE_INFINITY : (high - low) / 2 / Math.abs(median);
        }
    }

    /** Values from which an interval can hold their distribution's median with 95 % confidence ({@link #mostConfidence}). */
    public static final int VALUES_FOR_95 = 6;

    /**
     * The most confidence any interval from {@code n} values can have of holding their distribution's median: the
     * widest, [lowest, highest], misses it only when all {@code n} fall on one side of it, which happens with
     * probability 2 x 0.5^n whatever the distribution (continuous, independent values). 75 % for 3 values, 87.5 % for
     * 4, 93.75 % for 5, 96.9 % for 6: below 6 no interval of a median is a 95 % one, and a percentile-bootstrap
     * interval, which lies within [lowest, highest], is no exception. 0 for none.
     */
    public static double mostConfidence(int n) {
        return n < 1 ? 0 : 1 - 2 * Math.pow(0.5, n);
    }

    /**
     * The median of {@code values} with its 95 % percentile-bootstrap interval (fewer than {@link #VALUES_FOR_95}
     * values cannot give 95 %: {@link #mostConfidence}).
     */
    public static Interval median95(double[] values) {
        return median(values, 0.95);
    }

    public static Interval median(double[] values, double confidence) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be between 0 and 1, was " + confidence);
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double median = median(sorted);
        if (sorted.length == 1) {
            return new Interval(median, median, median, 1);
        }
        SplittableRandom random = new SplittableRandom(Arrays.hashCode(sorted));
        double[] medians = new double[RESAMPLES];
        double[] resample = new double[sorted.length];
        for (int i = 0; i < RESAMPLES; i++) {
            for (int k = 0; k < resample.length; k++) {
                resample[k] = sorted[random.nextInt(sorted.length)];
            }
            Arrays.sort(resample);
            medians[i] = median(resample);
        }
        Arrays.sort(medians);
        double tail = (1 - confidence) / 2;
        return new Interval(median, quantile(medians, tail), quantile(medians, 1 - tail), sorted.length);
    }

    /**
     * The median of all values of {@code groups} with a 95 % two-stage bootstrap interval: each resample draws as
     * many groups as there are, with replacement, then as many values from each drawn group as it has. Values of one
     * group share something the others do not (the pairs of one pair of client processes in {@code ab}), so the
     * interval must spread with the groups, not only with the values; with one group it is {@link #median95}'s.
     * Seeded from the data.
     */
    public static Interval clusteredMedian95(double[][] groups) {
        int total = 0;
        for (double[] g : groups) {
            if (g.length == 0) {
                throw new IllegalArgumentException("an empty group");
            }
            total += g.length;
        }
        if (groups.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        if (groups.length == 1) {
            return median95(groups[0]);
        }
        double[] all = new double[total];
        int at = 0;
        long seed = 17;
        for (double[] g : groups) {
            System.arraycopy(g, 0, all, at, g.length);
            at += g.length;
            seed = 31 * seed + Arrays.hashCode(g);
        }
        Arrays.sort(all);
        double median = median(all);
        SplittableRandom random = new SplittableRandom(seed);
        double[] medians = new double[RESAMPLES];
        double[] resample = new double[total * 2];
        for (int i = 0; i < RESAMPLES; i++) {
            int n = 0;
            for (int k = 0; k < groups.length; k++) {
                double[] g = groups[random.nextInt(groups.length)];
                if (n + g.length > resample.length) {
                    resample = Arrays.copyOf(resample, (n + g.length) * 2);
                }
                for (int j = 0; j < g.length; j++) {
                    resample[n++] = g[random.nextInt(g.length)];
                }
            }
            double[] drawn = Arrays.copyOf(resample, n);
            Arrays.sort(drawn);
            medians[i] = median(drawn);
        }
        Arrays.sort(medians);
        return new Interval(median, quantile(medians, 0.025), quantile(medians, 0.975), total);
    }

    /** The median of values in any order (the array is left as it is). */
    public static double medianOf(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return median(sorted);
    }

    /** The median of values sorted ascending. */
    public static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** Linear interpolation between order statistics (type 7, as R's and NumPy's default). */
    static double quantile(double[] sorted, double q) {
        double position = q * (sorted.length - 1);
        int below = (int) Math.floor(position);
        int above = Math.min(below + 1, sorted.length - 1);
        return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
    }

    /**
     * The ratio of two independent samples' medians, {@code median(after) / median(before)}, with its
     * percentile-bootstrap interval: each resample draws {@code before} and {@code after} apart (two runs, not
     * paired rounds). Seeded from the data, so the same two runs always give the same interval. {@code n} of the
     * interval is the smaller sample's size; with one value on either side the interval is the point.
     */
    public static Interval ratioOfMedians(double[] before, double[] after, double confidence) {
        if (before.length == 0 || after.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double[] b = before.clone();
        double[] a = after.clone();
        Arrays.sort(b);
        Arrays.sort(a);
        double ratio = median(a) / median(b);
        int n = Math.min(a.length, b.length);
        if (n == 1) {
            return new Interval(ratio, ratio, ratio, 1);
        }
        SplittableRandom random = new SplittableRandom(31L * Arrays.hashCode(b) + Arrays.hashCode(a));
        double[] ratios = new double[RESAMPLES];
        double[] rb = new double[b.length];
        double[] ra = new double[a.length];
        for (int i = 0; i < RESAMPLES; i++) {
            for (int k = 0; k < rb.length; k++) {
                rb[k] = b[random.nextInt(b.length)];
            }
            for (int k = 0; k < ra.length; k++) {
                ra[k] = a[random.nextInt(a.length)];
            }
            Arrays.sort(rb);
            Arrays.sort(ra);
            ratios[i] = median(ra) / median(rb);
        }
        Arrays.sort(ratios);
        double tail = (1 - confidence) / 2;
        return new Interval(ratio, quantile(ratios, tail), quantile(ratios, 1 - tail), n);
    }
}
