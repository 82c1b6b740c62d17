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

    /** The median of {@code values} with its 95 % percentile-bootstrap interval. */
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
}
