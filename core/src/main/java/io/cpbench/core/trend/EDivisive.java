package io.cpbench.core.trend;

import org.apache.commons.math3.distribution.TDistribution;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Change points in a series of measurements, in time order: E-Divisive means, written from the paper (D. S. Matteson
 * and N. A. James, "A Nonparametric Approach for Multiple Change Point Analysis of Multivariate Data", JASA 109(505),
 * 2014), for one variable with α = 1.
 *
 * <p>Hierarchical bisection: in every segment between the change points found so far, the split τ that maximises the
 * paper's divergence q̂(X, Y) between the values before it (X) and from it on (Y) is the segment's candidate,
 * <pre>
 *   q̂ = mn/(m+n) · ( 2/(mn) Σ|xᵢ−yⱼ| − 2/(m(m−1)) Σᵢ&lt;ₖ|xᵢ−xₖ| − 2/(n(n−1)) Σⱼ&lt;ₖ|yⱼ−yₖ| ).
 * </pre>
 * One departure from the paper, as Apache Otava (formerly DataStax's Hunter) makes it: the right segment always runs
 * to the end of its segment (the paper also searches its end, κ). A candidate's significance is judged between at most
 * {@link Options#window()} values on either side of it, bounded by its neighbouring change points, by one of two tests:
 * <ul>
 * <li><b>the paper's permutation test</b> (the default): the values of that window are shuffled
 * {@link Options#permutations()} times and the largest q̂ over the window's splits is found each time; the p-value is
 * the share of shuffles whose largest q̂ reaches the observed one, (b + 1)/(R + 1). Because the shuffles pick their best
 * split exactly as the search picked the candidate, the test knows the candidate was the best of many splits, and
 * its false-positive rate is the p-value it is given. Shuffling stops as soon as the p-value can no longer reach the
 * bound (Besag and Clifford's sequential test; the p-value given is then b/l after l shuffles), so a series without a
 * change costs a few dozen shuffles. The shuffles are seeded from the window's place: the answer is the same every
 * time.</li>
 * <li><b>Welch's two-sided t-test</b> between the values before and from the candidate, as Otava does. Cheaper, but
 * it judges the one split that q̂ chose as if it had been chosen in advance, so it finds changes in series without any
 * far more often than its p-value says (about 5 % of 40-run flat series at p ≤ 0.001).</li>
 * </ul>
 * The significant candidate with the largest q̂ is taken and the search repeats until no candidate is significant. A
 * last pass recomputes every change point's means and p-value between its neighbours and drops any that is no longer
 * significant, weakest first.
 *
 * <p>Cost: O(n²) per segment searched (q̂ for all splits by running sums), so a series of a few thousand values is
 * milliseconds; a permutation test costs O(w²) per shuffle for a window of w values on either side (999 shuffles of
 * a 60-value window: about 4 million distances).
 */
public final class EDivisive {

    /**
     * @param window       the most values on either side of a candidate that its test compares (change points beyond
     *                     it do not blur a local one); at least 2
     * @param maxPValue    a candidate is a change point when its p-value is at most this
     * @param minSize      the fewest values a segment may have on either side of a split; at least 2, as a t-test needs
     * @param permutations the permutation test's shuffles (at least 1/maxPValue − 1, or no p-value could reach the
     *                     bound), or 0 for Welch's t-test
     */
    public record Options(int window, double maxPValue, int minSize, int permutations) {

        /** A window of 30 runs, at least 3 runs on either side, the permutation test with 999 shuffles at p ≤ 0.01. */
        public static final Options DEFAULT = new Options(30, 0.01, 3, 999);

        public Options {
            if (window < 2) {
                throw new IllegalArgumentException("window must be 2 or more, was " + window);
            }
            if (!(maxPValue > 0 && maxPValue < 1)) {
                throw new IllegalArgumentException("p-value must be between 0 and 1, was " + maxPValue);
            }
            if (minSize < 2) {
                throw new IllegalArgumentException("minimum segment must be 2 or more, was " + minSize);
            }
            if (permutations < 0 || permutations > 1_000_000) {
                throw new IllegalArgumentException("permutations must be 0 (Welch's t-test) to 1,000,000, was " + permutations);
            }
            if (permutations > 0 && 1.0 / (permutations + 1) > maxPValue) {
                throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "%d permutations cannot give a"
                        + " p-value of %s or less: the least is 1/%d; use at least %d", permutations, maxPValue,
                        permutations + 1, (int) Math.ceil(1 / maxPValue) - 1));
            }
        }

        /** Welch's t-test, as Apache Otava (formerly Hunter) judges a candidate. */
        public static Options welch(int window, double maxPValue, int minSize) {
            return new Options(window, maxPValue, minSize, 0);
        }

        /** The paper's permutation test with {@code permutations} shuffles. */
        public static Options permutation(int window, double maxPValue, int minSize, int permutations) {
            return new Options(window, maxPValue, minSize, permutations);
        }

        /** {@code permutation test, 999 shuffles, window 30, p ≤ 0.01}: how reports name it. */
        public String text() {
            return (permutations == 0 ? "Welch's t-test" : String.format(java.util.Locale.ROOT,
                    "permutation test, %,d shuffles", permutations)) + ", window " + window + ", p ≤ " + maxPValue;
        }
    }

    /**
     * A change point: the values from {@code index} on differ from those before it.
     *
     * @param index      the first value after the change
     * @param meanBefore the mean of the values compared before it
     * @param meanAfter  the mean of those compared from it on
     * @param pValue     the candidate's test, between them
     * @param qHat       the divergence that chose it (larger is a clearer split)
     */
    public record ChangePoint(int index, double meanBefore, double meanAfter, double pValue, double qHat) {

        /** The change in %, after relative to before; NaN when the mean before is 0. */
        public double changePercent() {
            return meanBefore == 0 ? Double.NaN : (meanAfter / meanBefore - 1) * 100;
        }
    }

    private EDivisive() {
    }

    /** The change points of {@code series}, in index order. */
    public static List<ChangePoint> detect(double[] series, Options options) {
        for (double v : series) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("a series holds finite numbers only, was " + v);
            }
        }
        TreeSet<Integer> found = new TreeSet<>();
        // a segment no change point has split since the last round has the same candidate and asks the same question
        java.util.Map<List<Integer>, Optional<Candidate>> searched = new java.util.HashMap<>();
        java.util.Map<List<Integer>, Test> asked = new java.util.HashMap<>();
        // each round adds one change point, and a segment needs 2 x minSize values to be split: bounded
        for (int round = 0; round < series.length / options.minSize() + 1; round++) {
            Candidate best = null;
            int start = 0;
            for (int end : bounds(found, series.length)) {
                int from = start;
                Candidate c = searched.computeIfAbsent(List.of(start, end), k -> Optional.ofNullable(
                        candidate(series, from, end, options.minSize()))).orElse(null);
                if (c != null) {
                    double p = test(series, Math.max(start, c.tau - options.window()), c.tau,
                            Math.min(end, c.tau + options.window()), options, asked).pValue;
                    if (p <= options.maxPValue() && (best == null || c.qHat > best.qHat)) {
                        best = c;
                    }
                }
                start = end;
            }
            if (best == null) {
                break;
            }
            found.add(best.tau);
        }
        return settle(series, found, options, asked);
    }

    /** The segments' ends: each change point, then the series' end. */
    private static List<Integer> bounds(TreeSet<Integer> found, int n) {
        List<Integer> ends = new ArrayList<>(found);
        ends.add(n);
        return ends;
    }

    /** Recomputes each change point between its neighbours, dropping the weakest that is no longer significant. */
    private static List<ChangePoint> settle(double[] series, TreeSet<Integer> found, Options options,
                                            java.util.Map<List<Integer>, Test> asked) {
        while (true) {
            List<ChangePoint> points = new ArrayList<>();
            ChangePoint weakest = null;
            List<Integer> list = new ArrayList<>(found);
            for (int i = 0; i < list.size(); i++) {
                int tau = list.get(i);
                int from = Math.max(i == 0 ? 0 : list.get(i - 1), tau - options.window());
                int to = Math.min(i == list.size() - 1 ? series.length : list.get(i + 1), tau + options.window());
                Test t = test(series, from, tau, to, options, asked);
                ChangePoint point = new ChangePoint(tau, t.meanBefore, t.meanAfter, t.pValue, qHat(series, from, tau, to));
                points.add(point);
                if (point.pValue() > options.maxPValue() && (weakest == null || point.pValue() > weakest.pValue())) {
                    weakest = point;
                }
            }
            if (weakest == null) {
                return points;
            }
            found.remove(weakest.index());
        }
    }

    record Candidate(int tau, double qHat) {
    }

    /**
     * The split of {@code [start, end)} with the largest q̂, at least {@code minSize} values from either end; null when
     * the segment is too short. Moving τ by one moves one value from Y to X, so the three sums of distances are kept
     * up to date in O(n) per step.
     */
    static Candidate candidate(double[] z, int start, int end, int minSize) {
        if (end - start < 2 * minSize) {
            return null;
        }
        double xx = 0;
        double yy = 0;
        double xy = 0;
        for (int i = start; i < end; i++) {
            for (int k = i + 1; k < end; k++) {
                yy += Math.abs(z[i] - z[k]);
            }
        }
        Candidate best = null;
        for (int tau = start + 1; tau <= end - minSize; tau++) {
            int moved = tau - 1; // z[moved] goes from Y to X
            double toX = 0;
            for (int i = start; i < moved; i++) {
                toX += Math.abs(z[moved] - z[i]);
            }
            double toY = 0;
            for (int j = moved + 1; j < end; j++) {
                toY += Math.abs(z[moved] - z[j]);
            }
            xx += toX;
            yy -= toY;
            xy += toY - toX;
            if (tau - start >= minSize) {
                double q = qHat(tau - start, end - tau, xx, yy, xy);
                if (best == null || q > best.qHat) {
                    best = new Candidate(tau, q);
                }
            }
        }
        return best;
    }

    /** q̂ of X = {@code [from, tau)} and Y = {@code [tau, to)}, directly. */
    static double qHat(double[] z, int from, int tau, int to) {
        double xx = 0;
        double yy = 0;
        double xy = 0;
        for (int i = from; i < to; i++) {
            for (int k = i + 1; k < to; k++) {
                double d = Math.abs(z[i] - z[k]);
                if (k < tau) {
                    xx += d;
                } else if (i >= tau) {
                    yy += d;
                } else {
                    xy += d;
                }
            }
        }
        return qHat(tau - from, to - tau, xx, yy, xy);
    }

    /** @param xx the sum of |xᵢ−xₖ| over pairs i &lt; k; yy the same of Y; xy of |xᵢ−yⱼ| over all pairs */
    private static double qHat(int m, int n, double xx, double yy, double xy) {
        double within = (m > 1 ? 2 * xx / ((double) m * (m - 1)) : 0) + (n > 1 ? 2 * yy / ((double) n * (n - 1)) : 0);
        double e = 2 * xy / ((double) m * n) - within;
        return (double) m * n / (m + n) * e;
    }

    record Test(double meanBefore, double meanAfter, double pValue) {
    }

    private static Test test(double[] z, int from, int tau, int to, Options options, java.util.Map<List<Integer>, Test> asked) {
        return asked.computeIfAbsent(List.of(from, tau, to), k -> test(z, from, tau, to, options));
    }

    /** The means of {@code [from, tau)} and {@code [tau, to)}, and the p-value of the options' test between them. */
    static Test test(double[] z, int from, int tau, int to, Options options) {
        Test welch = welch(z, from, tau, to);
        return options.permutations() == 0 ? welch : new Test(welch.meanBefore, welch.meanAfter,
                permutationP(z, from, to, options));
    }

    /** Welch's two-sided t-test between {@code [from, tau)} and {@code [tau, to)}. */
    static Test welch(double[] z, int from, int tau, int to) {
        int m = tau - from;
        int n = to - tau;
        double mx = mean(z, from, tau);
        double my = mean(z, tau, to);
        if (m < 2 || n < 2) {
            return new Test(mx, my, 1);
        }
        double vx = variance(z, from, tau, mx) / m;
        double vy = variance(z, tau, to, my) / n;
        double se = Math.sqrt(vx + vy);
        if (se == 0) {
            return new Test(mx, my, mx == my ? 1 : 0);
        }
        double t = Math.abs(mx - my) / se;
        double df = (vx + vy) * (vx + vy) / (vx * vx / (m - 1) + vy * vy / (n - 1));
        double p = 2 * new TDistribution(null, df).cumulativeProbability(-t);
        return new Test(mx, my, Math.min(1, p));
    }

    /**
     * The permutation test's p-value for the best split of {@code [from, to)}: the share of shuffles of those values
     * whose best split's q̂ is at least the observed best's. Stops once the p-value cannot reach the bound.
     */
    static double permutationP(double[] z, int from, int to, Options options) {
        Candidate observed = candidate(z, from, to, options.minSize());
        if (observed == null) {
            return 1;
        }
        double[] shuffled = java.util.Arrays.copyOfRange(z, from, to);
        java.util.SplittableRandom random = new java.util.SplittableRandom(0x5EED_2014L * 31 + from * 1_000_003L + to);
        int r = options.permutations();
        // p = (b + 1)/(r + 1) stays at or under the bound while b <= bound·(r + 1) − 1
        long mostAtLeast = (long) Math.floor(options.maxPValue() * (r + 1) - 1 + 1e-9);
        int atLeast = 0;
        for (int l = 1; l <= r; l++) {
            for (int i = shuffled.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                double v = shuffled[i];
                shuffled[i] = shuffled[j];
                shuffled[j] = v;
            }
            // a shuffle's q̂ that equals the observed one up to rounding counts as reaching it
            if (candidate(shuffled, 0, shuffled.length, options.minSize()).qHat >= observed.qHat - 1e-12 * Math.abs(observed.qHat)) {
                atLeast++;
                if (atLeast > mostAtLeast) {
                    return (double) atLeast / l;
                }
            }
        }
        return (atLeast + 1.0) / (r + 1);
    }

    private static double mean(double[] z, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += z[i];
        }
        return to > from ? sum / (to - from) : Double.NaN;
    }

    /** The sample variance (n − 1). */
    private static double variance(double[] z, int from, int to, double mean) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += (z[i] - mean) * (z[i] - mean);
        }
        return sum / (to - from - 1);
    }
}
