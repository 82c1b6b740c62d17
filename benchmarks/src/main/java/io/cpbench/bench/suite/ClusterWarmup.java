package io.cpbench.bench.suite;

import io.cpbench.core.load.Durations;

import java.time.Duration;
import java.util.Locale;

/**
 * How long the untimed warm-up of a fresh cluster runs before the first measured run: a duration, or (the
 * deprecated spelling of run, matrix, jmh and emulator-cost, which used to count ops) a number of ops. Exactly one
 * of the two is set; {@link #NONE} is no warm-up.
 *
 * @param length how long it runs, or null when {@code ops} bounds it
 * @param ops    how many ops it runs when {@code length} is null
 */
public record ClusterWarmup(Duration length, long ops) {

    public static final ClusterWarmup NONE = new ClusterWarmup(Duration.ZERO, 0);

    public ClusterWarmup {
        if (length == null ? ops < 0 : length.isNegative() || ops != 0) {
            throw new IllegalArgumentException("--cluster-warmup must be 0 (none) or more, was "
                    + (length == null ? ops + " ops" : Durations.format(length)));
        }
    }

    public static ClusterWarmup of(Duration length) {
        return new ClusterWarmup(length, 0);
    }

    public static ClusterWarmup ofOps(long ops) {
        return ops == 0 ? NONE : new ClusterWarmup(null, ops);
    }

    public boolean none() {
        return length != null ? length.isZero() : ops == 0;
    }

    /** As a user wrote it and as {@link #parse} reads it back: {@code 10s}, or {@code 5000ops}. */
    @Override
    public String toString() {
        return length != null ? Durations.format(length) : ops + "ops";
    }

    /** {@code 10s}-style durations, and {@code 5000ops} for an op count. */
    public static ClusterWarmup parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.endsWith("ops")) {
            try {
                return ofOps(Long.parseLong(t.substring(0, t.length() - 3).strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--cluster-warmup: not a duration or op count: " + text);
            }
        }
        return of(Durations.parse(t));
    }

    /** For progress lines: "10 s" or "5,000 ops". */
    public String human() {
        return length != null ? Durations.format(length) : String.format(Locale.ROOT, "%,d ops", ops);
    }
}
