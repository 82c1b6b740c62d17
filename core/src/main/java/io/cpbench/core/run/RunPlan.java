package io.cpbench.core.run;

import java.time.Duration;
import java.util.Objects;

/**
 * What one measured run does: a warm-up, then either a number of ops or a duration, never longer than the time box.
 * Immutable; build it with {@link #builder()}.
 *
 * @param warmup    how long ops run, discarded, before measuring; zero when {@code warmupOps} is given instead
 * @param warmupOps ops run and discarded before measuring, instead of a warm-up time (what {@code --warmup N} meant
 *                  before it was a duration); 0 otherwise
 * @param ops       ops to measure; 0 when {@code duration} is set
 * @param duration  how long to measure instead of an op count, or null
 * @param timebox   the most the run may take, warm-up included; a run that reaches it ends TIMEBOXED
 * @param threads   driver threads, each running ops back to back (closed loop)
 * @param interval  length of one interval in the {@code .hlog} and between progress reports
 */
public record RunPlan(Duration warmup, long warmupOps, long ops, Duration duration, Duration timebox, int threads, Duration interval) {

    /**
     * The default warm-up. The seed warmed up with 10,000 ops, about 8 s at its 1,299 op/s on the leader (docs/matrix.md)
     * but minutes through a slow member; a time is the same for every scenario.
     */
    public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(10);
    public static final long SEED_OPS = 500_000;
    public static final Duration DEFAULT_TIMEBOX = Duration.ofMinutes(10);

    public RunPlan {
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(timebox, "timebox");
        Objects.requireNonNull(interval, "interval");
        if (warmupOps < 0) {
            throw new IllegalArgumentException("warm-up ops must be 0 or more, was " + warmupOps);
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("warm-up must be 0 or more, was " + warmup);
        }
        if (warmupOps > 0 && !warmup.isZero()) {
            throw new IllegalArgumentException("give a warm-up time or warm-up ops, not both");
        }
        if (duration == null && ops <= 0) {
            throw new IllegalArgumentException("ops must be a positive number, was " + ops);
        }
        if (duration != null && (ops != 0 || duration.isNegative() || duration.isZero())) {
            throw new IllegalArgumentException("give either ops or a positive duration, not both");
        }
        if (timebox.isNegative() || timebox.isZero()) {
            throw new IllegalArgumentException("time box must be positive, was " + timebox);
        }
        if (threads < 1 || threads > 1024) {
            throw new IllegalArgumentException("threads must be 1-1024, was " + threads);
        }
        if (interval.toMillis() < 10) {
            throw new IllegalArgumentException("interval must be at least 10 ms, was " + interval);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The seed's run, with its warm-up as a time: 10 s of warm-up, 500,000 ops measured, one thread. */
    public static RunPlan seed() {
        return builder().build();
    }

    /** A builder that starts from this plan. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.warmup = warmup;
        b.warmupOps = warmupOps;
        b.ops = ops;
        b.duration = duration;
        b.timebox = timebox;
        b.threads = threads;
        b.interval = interval;
        return b;
    }

    /** "10 s" or "10,000 ops", for progress lines. */
    public String warmupText() {
        return warmupOps > 0 ? String.format(java.util.Locale.ROOT, "%,d ops", warmupOps)
                : io.cpbench.core.load.Durations.format(warmup);
    }

    public static final class Builder {
        private Duration warmup = DEFAULT_WARMUP;
        private long warmupOps;
        private long ops = SEED_OPS;
        private Duration duration;
        private Duration timebox = DEFAULT_TIMEBOX;
        private int threads = 1;
        private Duration interval = Duration.ofSeconds(1);

        /** Warm up for this long (zero for none). */
        public Builder warmup(Duration value) {
            warmup = value;
            warmupOps = 0;
            return this;
        }

        /** Warm up with this many ops instead of for a time. */
        public Builder warmupOps(long value) {
            warmupOps = value;
            warmup = Duration.ZERO;
            return this;
        }

        public Builder ops(long value) {
            ops = value;
            duration = null;
            return this;
        }

        public Builder duration(Duration value) {
            duration = value;
            ops = 0;
            return this;
        }

        public Builder timebox(Duration value) {
            timebox = value;
            return this;
        }

        public Builder threads(int value) {
            threads = value;
            return this;
        }

        public Builder interval(Duration value) {
            interval = value;
            return this;
        }

        public RunPlan build() {
            return new RunPlan(warmup, warmupOps, ops, duration, timebox, threads, interval);
        }
    }
}
