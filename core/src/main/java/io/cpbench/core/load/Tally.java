package io.cpbench.core.load;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Numbers accumulated over a span (an interval, a stage, the run): per op, histograms and error counts. In a closed
 * loop an op's service time is its latency, and {@link #service} holds the very same histograms as {@link #latency}.
 */
final class Tally {

    final OpType[] ops;
    final Histogram[] latency;
    final Histogram[] service;
    final long[] errors;
    final List<Map<String, Long>> errorTypes = new ArrayList<>();
    final Histogram lag = new Histogram(Recording.MAX_MICROS, 3);
    long nanos;
    private final boolean closed;

    Tally(OpType[] ops, boolean closed) {
        this.ops = ops;
        this.closed = closed;
        latency = new Histogram[ops.length];
        service = closed ? latency : new Histogram[ops.length];
        errors = new long[ops.length];
        for (int i = 0; i < ops.length; i++) {
            latency[i] = new Histogram(Recording.MAX_MICROS, 3);
            if (!closed) {
                service[i] = new Histogram(Recording.MAX_MICROS, 3);
            }
            errorTypes.add(new TreeMap<>());
        }
    }

    void add(Tally other) {
        if (other.closed != closed) {
            throw new IllegalArgumentException("a closed loop's tally and an open loop's do not add up");
        }
        for (int i = 0; i < ops.length; i++) {
            latency[i].add(other.latency[i]);
            if (!closed) {
                service[i].add(other.service[i]);
            }
            errors[i] += other.errors[i];
            Map<String, Long> mine = errorTypes.get(i);
            other.errorTypes.get(i).forEach((type, n) -> mine.merge(type, n, Long::sum));
        }
        lag.add(other.lag);
        nanos += other.nanos;
    }

    /** Empties it for the next span: the sampler reuses one interval tally rather than allocate one a second. */
    Tally reset() {
        for (int i = 0; i < ops.length; i++) {
            latency[i].reset();
            if (!closed) {
                service[i].reset();
            }
            errors[i] = 0;
            errorTypes.get(i).clear();
        }
        lag.reset();
        nanos = 0;
        return this;
    }

    long okOps() {
        long n = 0;
        for (Histogram h : latency) {
            n += h.getTotalCount();
        }
        return n;
    }

    long allErrors() {
        long n = 0;
        for (long e : errors) {
            n += e;
        }
        return n;
    }

    Histogram allLatency() {
        Histogram h = new Histogram(Recording.MAX_MICROS, 3);
        for (Histogram l : latency) {
            h.add(l);
        }
        return h;
    }

    LoadResult.StageStats stats(int stage, double from, double to, boolean open) {
        double seconds = nanos / 1e9;
        List<LoadResult.OpStats> per = new ArrayList<>();
        boolean one = ops.length == 1; // then "all" is that op: no copies
        Histogram allLatency = one ? latency[0] : new Histogram(Recording.MAX_MICROS, 3);
        Histogram allService = one ? service[0] : closed ? allLatency : new Histogram(Recording.MAX_MICROS, 3);
        Map<String, Long> allTypes = new TreeMap<>();
        long allErrors = 0;
        for (int i = 0; i < ops.length; i++) {
            per.add(opStats(ops[i].key(), latency[i], service[i], errors[i], errorTypes.get(i), seconds));
            if (!one) {
                allLatency.add(latency[i]);
                if (!closed) {
                    allService.add(service[i]);
                }
            }
            allErrors += errors[i];
            errorTypes.get(i).forEach((type, n) -> allTypes.merge(type, n, Long::sum));
        }
        LoadResult.OpStats all = one ? renamed(per.get(0), "all") : opStats("all", allLatency, allService, allErrors, allTypes, seconds);
        return new LoadResult.StageStats(stage, seconds, from, to, per, all, open ? LoadResult.LoadLatency.of(lag) : null);
    }

    private static LoadResult.OpStats opStats(String op, Histogram latency, Histogram service, long errors,
                                              Map<String, Long> types, double seconds) {
        long ok = latency.getTotalCount();
        LoadResult.LoadLatency l = LoadResult.LoadLatency.of(latency);
        return new LoadResult.OpStats(op, ok, errors, seconds <= 0 ? 0 : ok / seconds,
                ok + errors == 0 ? 0 : (double) errors / (ok + errors), l,
                service == latency ? l : LoadResult.LoadLatency.of(service), types);
    }

    private static LoadResult.OpStats renamed(LoadResult.OpStats s, String op) {
        return new LoadResult.OpStats(op, s.ops(), s.errors(), s.opsPerSecond(), s.errorRate(), s.latency(), s.service(),
                s.errorTypes());
    }
}
