package io.cpbench.core.load;

import io.cpbench.core.stats.Bootstrap;

import java.util.Arrays;

/**
 * When a warm-up has done its work: throughput, interval by interval, has stopped rising. Members JIT-compile their CP
 * paths under load, so a fresh cluster's op/s climbs for seconds to tens of seconds (on a 2-core machine, from under
 * 200 op/s in the first second to about 900 some 10-15 s later); how long depends on the machine, so no fixed length fits.
 *
 * <p>Steady at the latest interval when the last {@link #window} intervals
 * <ul>
 * <li>lie within {@link #spread} of their median: (max − min) / median ≤ spread (nothing disturbed them: a pause, an
 * election), and</li>
 * <li>show no upward trend: their Theil–Sen slope (the median of the slopes between every two of them, which one
 * odd interval does not move), times the window's span, is at most {@link #rise} of their median.</li>
 * </ul>
 * A falling trend passes: a warm-up waits for the cluster to stop getting faster, not for it to stop getting slower.
 *
 * @param window intervals judged, at least 3
 * @param spread the most (max − min) / median among them
 * @param rise   the most they may climb across the window, as a share of their median
 */
public record SteadyState(int window, double spread, double rise) {

    /**
     * 10 intervals within 60 % of their median, climbing less than 5 % across them. Chosen on simulated and recorded
     * series: a cluster whose op/s climbs for 20 s (ops 4 ms slower at first, less and less) is never called steady
     * before 20 s in 500 tries; a flat series with 10 % noise is steady after 10 s (the median of 500), with 20 %
     * noise after 12 s, and 2 in 500 not within 60 s. The spread is wide because this machine's warm-up seconds are:
     * a recorded fresh cluster's flat stretch ran from 610 to 1,236 op/s while its members compiled.
     */
    public static final SteadyState DEFAULT = new SteadyState(10, 0.6, 0.05);

    public SteadyState {
        if (window < 3) {
            throw new IllegalArgumentException("a steady state is judged over 3 or more intervals, was " + window);
        }
        if (!(spread > 0) || !(rise > 0)) {
            throw new IllegalArgumentException("spread and rise must be above 0, were " + spread + " and " + rise);
        }
    }

    /**
     * What the last {@link #window} intervals say.
     *
     * @param steady     whether they are steady
     * @param median     their median op/s (0 before there are enough)
     * @param spreadSeen (max − min) / median
     * @param riseSeen   the Theil–Sen slope times the window's span, over the median: how much they climb across it
     */
    public record Verdict(boolean steady, double median, double spreadSeen, double riseSeen) {
    }

    /** Judges the last {@link #window} of {@code rates} (op/s per interval, oldest first). */
    public Verdict judge(double[] rates) {
        if (rates.length < window) {
            return new Verdict(false, 0, Double.NaN, Double.NaN);
        }
        double[] last = Arrays.copyOfRange(rates, rates.length - window, rates.length);
        double median = Bootstrap.medianOf(last);
        if (!(median > 0)) {
            return new Verdict(false, median, Double.NaN, Double.NaN);
        }
        double min = Arrays.stream(last).min().orElseThrow();
        double max = Arrays.stream(last).max().orElseThrow();
        double[] slopes = new double[window * (window - 1) / 2];
        int k = 0;
        for (int i = 0; i < window; i++) {
            for (int j = i + 1; j < window; j++) {
                slopes[k++] = (last[j] - last[i]) / (j - i);
            }
        }
        double spreadSeen = (max - min) / median;
        double riseSeen = Bootstrap.medianOf(slopes) * (window - 1) / median;
        return new Verdict(spreadSeen <= spread && riseSeen <= rise, median, spreadSeen, riseSeen);
    }
}
