package io.cpbench.bench.run;

import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.core.load.Durations;
import io.cpbench.core.result.Comparison;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * @param turns          what each side runs per turn
 * @param stopping       when the pairs end
 * @param tolerance      the smallest change the verdict calls a change
 * @param gated          the metrics the verdict and {@link Stopping#untilCi()} look at
 * @param baseCommand    the command that starts BASE's client process
 * @param newCommand     the command that starts NEW's client process
 * @param startupTimeout how long both client processes get to become ready
 * @param where          the cluster both sides share, or each side's release
 */
public record AbConfig(Turns turns, Stopping stopping, double tolerance, Set<Comparison.Metric> gated,
                     List<String> baseCommand, List<String> newCommand, Duration startupTimeout, Where where) {
    public AbConfig {
        gated = Set.copyOf(gated);
        baseCommand = List.copyOf(baseCommand);
        newCommand = List.copyOf(newCommand);
    }

    /**
     * What each side runs per turn.
     *
     * @param scenario the scenario both sides run (its routing and op)
     * @param threads  threads calling the op back to back in each client, 1-256
     * @param slice    how long each side runs per turn, 100ms-60s
     * @param warmup   untimed turns per side before the first pair, in time (zero for none)
     */
    public record Turns(String scenario, int threads, Duration slice, Duration warmup) {
        public Turns {
            if (threads < 1 || threads > 256) {
                throw new IllegalArgumentException("--threads must be 1-256, was " + threads);
            }
            if (slice.toMillis() < 100 || slice.toMillis() > 60_000) {
                throw new IllegalArgumentException("--slice must be 100ms-60s, was " + Durations.human(slice));
            }
            if (warmup.isNegative()) {
                throw new IllegalArgumentException("--warmup must be 0 or more, was " + Durations.human(warmup));
            }
        }
    }

    /**
     * When the pairs end.
     *
     * @param untilCi      stop once the 95 % interval of every gated ratio is within this fraction of its median (0: off)
     * @param minPairs     pairs before {@code untilCi} may stop, 5 or more
     * @param maxPairs     pairs at most
     * @param maxTime      time for the pairs at most, warm-up excluded
     * @param restartEvery start both client processes anew after every this many pairs (0: never)
     */
    public record Stopping(double untilCi, int minPairs, int maxPairs, Duration maxTime, int restartEvery) {
        public Stopping {
            if (!(untilCi >= 0 && untilCi < 1)) {
                throw new IllegalArgumentException("--until-ci must be from 0% to below 100%, was "
                        + java.math.BigDecimal.valueOf(untilCi * 100).stripTrailingZeros().toPlainString() + "%");
            }
            if (minPairs < 5 || maxPairs < minPairs || maxPairs > 100_000) {
                throw new IllegalArgumentException("--min-pairs must be 5 or more and --max-pairs from --min-pairs to"
                        + " 100,000; were " + minPairs + " and " + maxPairs);
            }
            if (maxTime.toMillis() < 1000) {
                throw new IllegalArgumentException("--max-time must be at least 1s, was " + Durations.human(maxTime));
            }
            if (restartEvery < 0) {
                throw new IllegalArgumentException("--restart-every must be 0 (never) or more, was " + restartEvery);
            }
        }

        /**
         * Whether the interval may end the run after {@code n} pairs: at least {@code minPairs}, every 5th pair; with
         * restarts, at the end of a process pair and after 2 or more of them, so the interval has seen the processes vary.
         */
        public boolean mayStop(int n) {
            if (untilCi == 0 || n < minPairs) {
                return false;
            }
            if (restartEvery > 0) {
                return n % restartEvery == 0 && n >= 2 * restartEvery;
            }
            return n % 5 == 0 || n == minPairs;
        }
    }


    /**
     * Where the sides run: both on one cluster ({@code releases} null: {@code cluster}, started or attached to; a
     * cluster attached to is reached with {@code attachArgs}), or each on fresh clusters of its own release.
     *
     * @param sides a line per side saying what runs it (its jar, its JVM options, its release)
     */
    public record Where(ClusterChoice cluster, List<String> attachArgs, Releases releases, List<String> sides) {
        public Where {
            attachArgs = List.copyOf(attachArgs);
            sides = List.copyOf(sides);
        }
    }

    /**
     * BASE's and NEW's members when ab compares Hazelcast releases (stock members of each, their jars resolved before
     * anything starts).
     */
    public record Releases(ClusterChoice base, ClusterChoice next) {
        public String describe(ClusterChoice members) {
            return members.describe() + ", a fresh cluster per pair of client processes";
        }
    }
}
