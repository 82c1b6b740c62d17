package io.cpbench.lb;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Recent probe latencies per member, and which members are too slow compared with the best. A member is excluded
 * when its median over the window exceeds {@code excludeRatio} × the best member's median, and readmitted only once
 * it is back under {@code readmitRatio} × the best (a lower bar, so a member near the line does not flap in and
 * out). Members with fewer than {@code minSamples} recent samples are neither excluded nor readmitted: there is not
 * enough evidence yet. The clock is injected, so tests need no sleeps.
 *
 * <p>Thread-safe. Meant for probes, a few per member per second, not for every call.
 *
 * @param <K> how members are named (an address, a UUID)
 */
public final class LatencyStats<K> {

    private record Sample(long atNanos, long latencyNanos) {
    }

    private final long windowNanos;
    private final double excludeRatio;
    private final double readmitRatio;
    private final int minSamples;
    private final LongSupplier clock;
    private final Map<K, ArrayDeque<Sample>> samples = new HashMap<>();
    private final Set<K> excluded = new HashSet<>();

    public LatencyStats(Duration window, double excludeRatio, double readmitRatio, int minSamples, LongSupplier nanoClock) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("window must be positive");
        }
        if (!(excludeRatio > 1.0) || !(readmitRatio >= 1.0) || readmitRatio > excludeRatio) {
            throw new IllegalArgumentException("need excludeRatio > 1 and 1 <= readmitRatio <= excludeRatio, got "
                    + excludeRatio + " and " + readmitRatio);
        }
        if (minSamples < 1) {
            throw new IllegalArgumentException("minSamples must be at least 1");
        }
        this.windowNanos = window.toNanos();
        this.excludeRatio = excludeRatio;
        this.readmitRatio = readmitRatio;
        this.minSamples = minSamples;
        this.clock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    public synchronized void record(K member, long latencyNanos) {
        samples.computeIfAbsent(member, k -> new ArrayDeque<>()).addLast(new Sample(clock.getAsLong(), latencyNanos));
    }

    /** Drops a member that left the cluster. */
    public synchronized void forget(K member) {
        samples.remove(member);
        excluded.remove(member);
    }

    /** The member's median latency over the window, if it has enough recent samples. */
    public synchronized OptionalLong median(K member) {
        long[] recent = recent(member);
        if (recent.length < minSamples) {
            return OptionalLong.empty();
        }
        Arrays.sort(recent);
        int n = recent.length;
        return OptionalLong.of(n % 2 == 1 ? recent[n / 2] : (recent[n / 2 - 1] + recent[n / 2]) / 2);
    }

    /**
     * Every member's {@code q}-quantile (0 = fastest sample, 0.5 = median) over the window, for members with enough
     * recent samples. Delays from a busy machine only ever add, so a low quantile shows the fixed cost of a member's
     * path (such as a forwarding hop) better than the median does.
     */
    public synchronized Map<K, Long> quantiles(double q) {
        if (!(q >= 0.0 && q <= 1.0)) {
            throw new IllegalArgumentException("quantile must be in [0, 1], got " + q);
        }
        Map<K, Long> result = new HashMap<>();
        for (K member : samples.keySet()) {
            long[] recent = recent(member);
            if (recent.length >= minSamples) {
                Arrays.sort(recent);
                result.put(member, recent[(int) Math.floor(q * (recent.length - 1))]);
            }
        }
        return result;
    }

    /** The member's newest {@code n} samples within the window, oldest first (fewer if it has fewer). */
    public synchronized long[] latest(K member, int n) {
        long[] recent = recent(member);
        return Arrays.copyOfRange(recent, Math.max(0, recent.length - n), recent.length);
    }

    /** Every member's median over the window, for members with enough recent samples. */
    public synchronized Map<K, Long> medians() {
        Map<K, Long> medians = new HashMap<>();
        for (K member : samples.keySet()) {
            median(member).ifPresent(m -> medians.put(member, m));
        }
        return medians;
    }

    /** Forgets every sample and exclusion: what was measured before a change of membership no longer holds. */
    public synchronized void clear() {
        samples.clear();
        excluded.clear();
    }

    /** Re-evaluates every member against the best median now and returns the excluded ones. */
    public synchronized Set<K> excluded() {
        return excluded(0.5);
    }

    /** As {@link #excluded()}, judging each member by its {@code q}-quantile instead of its median. */
    public synchronized Set<K> excluded(double q) {
        Map<K, Long> medians = quantiles(q);
        long best = medians.values().stream().mapToLong(Long::longValue).min().orElse(0);
        if (best > 0) {
            medians.forEach((member, median) -> {
                if (median > excludeRatio * best) {
                    excluded.add(member);
                } else if (median <= readmitRatio * best) {
                    excluded.remove(member);
                }
            });
        }
        return Set.copyOf(excluded);
    }

    private long[] recent(K member) {
        ArrayDeque<Sample> queue = samples.get(member);
        if (queue == null) {
            return new long[0];
        }
        long oldest = clock.getAsLong() - windowNanos;
        while (!queue.isEmpty() && queue.peekFirst().atNanos() < oldest) {
            queue.removeFirst();
        }
        return queue.stream().mapToLong(Sample::latencyNanos).toArray();
    }
}
