package io.cpbench.core.load;

import io.cpbench.core.stats.Bootstrap;

import java.util.Arrays;

/**
 * When a warm-up has done its work: throughput, interval by interval, has stopped rising. Members JIT-compile their CP
 * paths under load, so a fresh cluster's op/s climbs for seconds to tens of seconds (on a 2-core machine, from under
 * 200 op/s in the first second to about 900 some 10-15 s later; on a slow hour, from 53 to over 1,000 in a minute, with
 * plateaus); how long depends on the machine, so no fixed length fits.
 *
 * <p>Steady at the latest interval when the last {@link #window} intervals
 * <ul>
 * <li>lie within {@link #spread} of their median: (max − min) / median ≤ spread (nothing disturbed them: a pause, an
 * election),</li>
 * <li>show no upward trend: their Theil–Sen slope (the median of the slopes between every two of them, which one
 * odd interval does not move), times the window's span, is at most {@link #rise} of their median, and</li>
 * <li>are no faster than the {@link #window} intervals before them: their median is at most {@link #step} above that
 * window's. A plateau on a slow climb is flat within itself; what gives it away is the step up from the stretch before.
 * So a steady state needs two windows of history, and a plateau shorter than a window cannot pass.</li>
 * </ul>
 * A falling trend passes: a warm-up waits for the cluster to stop getting faster, not for it to stop getting slower.
 *
 * <p>Checked on recorded and simulated series (SteadyStateTest prints the table): the slow hour's warm-up of
 * 2026-11-28 (53 op/s climbing to 335 in 32 s, then to over 1,000) was called steady at 32 s, at 335 op/s, by the
 * rule without the step, and is not by this one; a climb that ends at 20 s is never called steady before it; a flat
 * series with 10 % noise settles after 20 s (the median), one with 20 % noise after 25 s, and 2.6 % of those run past
 * 60 s.
 *
 * @param window intervals judged, at least 3
 * @param spread the most (max − min) / median among them
 * @param rise   the most they may climb across the window, as a share of their median
 * @param step   the most their median may exceed the median of the window before them, as a share of it; 0 for no
 *               such check (one window of history is then enough)
 */
public record SteadyState(int window, double spread, double rise, double step) {

    /**
     * 10 intervals within 60 % of their median, climbing less than 5 % across them, and their median at most 10 % above
     * the 10 before them. The spread is wide because this machine's warm-up seconds are: a recorded fresh cluster's
     * flat stretch ran from 610 to 1,236 op/s while its members compiled.
     */
    public static final SteadyState DEFAULT = new SteadyState(10, 0.6, 0.05, 0.10);

    /** The rule before the step check (one window of history): for comparisons. */
    public SteadyState(int window, double spread, double rise) {
        this(window, spread, rise, 0);
    }

    public SteadyState {
        if (window < 3) {
            throw new IllegalArgumentException("a steady state is judged over 3 or more intervals, was " + window);
        }
        if (!(spread > 0) || !(rise > 0)) {
            throw new IllegalArgumentException("spread and rise must be above 0, were " + spread + " and " + rise);
        }
        if (!(step >= 0)) {
            throw new IllegalArgumentException("step must be 0 (none) or above, was " + step);
        }
    }

    /**
     * What the last {@link #window} intervals say.
     *
     * @param steady     whether they are steady
     * @param median     their median op/s (0 before there are enough)
     * @param spreadSeen (max − min) / median
     * @param riseSeen   the Theil–Sen slope times the window's span, over the median: how much they climb across it
     * @param stepSeen   their median over the median of the window before them, less 1 (NaN when the rule has no step)
     */
    public record Verdict(boolean steady, double median, double spreadSeen, double riseSeen, double stepSeen) {

        /** Nothing judged yet. */
        public static final Verdict NONE = new Verdict(false, 0, Double.NaN, Double.NaN, Double.NaN);
    }

    /** How many intervals a verdict needs: one window, or two with a step check. */
    public int needs() {
        return step > 0 ? 2 * window : window;
    }

    /** Judges the last {@link #window} of {@code rates} (op/s per interval, oldest first). */
    public Verdict judge(double[] rates) {
        if (rates.length < needs()) {
            return Verdict.NONE;
        }
        double[] last = Arrays.copyOfRange(rates, rates.length - window, rates.length);
        double median = Bootstrap.medianOf(last);
        if (!(median > 0)) {
            return new Verdict(false, median, Double.NaN, Double.NaN, Double.NaN);
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
        double stepSeen = Double.NaN;
        boolean noStep = true;
        if (step > 0) {
            double before = Bootstrap.medianOf(Arrays.copyOfRange(rates, rates.length - 2 * window, rates.length - window));
            stepSeen = before > 0 ? median / before - 1 : Double.POSITIVE_INFINITY;
            noStep = stepSeen <= step;
        }
        return new Verdict(spreadSeen <= spread && riseSeen <= rise && noStep, median, spreadSeen, riseSeen, stepSeen);
    }
}
