package io.cpbench.core.stats;

/**
 * Ops a histogram holds at a lower bound of their latency: ops still in flight when a run abandoned them, recorded
 * at the time from when each was due (or started, in a closed loop) to when it was abandoned. Their true latency is
 * that or more, so they are never left out of the percentiles; but a percentile that such a value may have moved is
 * itself only a lower bound, and tables print it as "≥".
 *
 * <p>Which percentiles: a censored value above a percentile's value keeps its rank above it whatever its true
 * latency, so that percentile is exact. One at or below it might, in truth, lie above it, so that percentile (and
 * every higher one, the mean and the max) is a lower bound. With HdrHistogram's buckets, "at or below" is judged on
 * the recorded (bucketed) values, which errs towards marking.
 *
 * @param ops        how many ops were recorded censored (at least 1)
 * @param fromMicros the smallest censored latency recorded, µs
 */
public record Censored(long ops, long fromMicros) {

    public Censored {
        if (ops < 1 || fromMicros < 0) {
            throw new IllegalArgumentException("censored ops need a count of 1 or more and a latency of 0 or more: "
                    + ops + ", " + fromMicros);
        }
    }

    /** Both together; null when both are null (nothing censored). */
    public static Censored merge(Censored a, Censored b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return new Censored(a.ops + b.ops, Math.min(a.fromMicros, b.fromMicros));
    }

    /** Whether a percentile (or mean, or max) of {@code value} µs is only a lower bound, given these censored ops. */
    public static boolean lowerBound(Censored censored, long value) {
        return censored != null && value >= censored.fromMicros;
    }

    /** "≥" when {@code value} is only a lower bound, else "": what tables print before it. */
    public static String mark(Censored censored, long value) {
        return lowerBound(censored, value) ? "≥" : "";
    }
}
