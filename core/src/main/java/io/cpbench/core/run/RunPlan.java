package io.cpbench.core.run;

import java.time.Duration;
import java.util.Objects;

/**
 * What one measured run does: warm-up ops, then either a number of ops or a duration, never longer than the
 * time box. Immutable; build it with {@link #builder()}.
 *
 * @param warmupOps ops run and discarded before measuring
 * @param ops       ops to measure; 0 when {@code duration} is set
 * @param duration  how long to measure instead of an op count, or null
 * @param timebox   the most the run may take, warm-up included; a run that reaches it ends TIMEBOXED
 * @param threads   driver threads, each running ops back to back (closed loop)
 * @param interval  length of one interval in the {@code .hlog} and between progress reports
 */
public record RunPlan(long warmupOps, long ops, Duration duration, Duration timebox, int threads, Duration interval) {

    public static final long SEED_WARMUP_OPS = 10_000;
    public static final long SEED_OPS = 500_000;
    public static final Duration DEFAULT_TIMEBOX = Duration.ofMinutes(10);

    public RunPlan {
        Objects.requireNonNull(timebox, "timebox");
        Objects.requireNonNull(interval, "interval");
        if (warmupOps < 0) {
            throw new IllegalArgumentException("warm-up ops must be 0 or more, was " + warmupOps);
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

    /** The seed's run: 10,000 warm-up ops, 500,000 measured, one thread. */
    public static RunPlan seed() {
        return builder().build();
    }

    public static final class Builder {
        private long warmupOps = SEED_WARMUP_OPS;
        private long ops = SEED_OPS;
        private Duration duration;
        private Duration timebox = DEFAULT_TIMEBOX;
        private int threads = 1;
        private Duration interval = Duration.ofSeconds(1);

        public Builder warmupOps(long value) {
            warmupOps = value;
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
            return new RunPlan(warmupOps, ops, duration, timebox, threads, interval);
        }
    }
}
