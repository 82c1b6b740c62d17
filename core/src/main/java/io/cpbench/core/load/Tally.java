package io.cpbench.core.load;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Numbers accumulated over a span (an interval, a stage, the run): per op, histograms and error counts. */
final class Tally {

    final OpType[] ops;
    final Histogram[] latency;
    final Histogram[] service;
    final long[] errors;
    final List<Map<String, Long>> errorTypes = new ArrayList<>();
    final Histogram lag = new Histogram(Recording.MAX_MICROS, 3);
    long nanos;

    Tally(OpType[] ops) {
        this.ops = ops;
        latency = new Histogram[ops.length];
        service = new Histogram[ops.length];
        errors = new long[ops.length];
        for (int i = 0; i < ops.length; i++) {
            latency[i] = new Histogram(Recording.MAX_MICROS, 3);
            service[i] = new Histogram(Recording.MAX_MICROS, 3);
            errorTypes.add(new TreeMap<>());
        }
    }

    void add(Tally other) {
        for (int i = 0; i < ops.length; i++) {
            latency[i].add(other.latency[i]);
            service[i].add(other.service[i]);
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
            service[i].reset();
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
        Histogram allLatency = new Histogram(Recording.MAX_MICROS, 3);
        Histogram allService = new Histogram(Recording.MAX_MICROS, 3);
        Map<String, Long> allTypes = new TreeMap<>();
        long allErrors = 0;
        for (int i = 0; i < ops.length; i++) {
            per.add(opStats(ops[i].key(), latency[i], service[i], errors[i], errorTypes.get(i), seconds));
            allLatency.add(latency[i]);
            allService.add(service[i]);
            allErrors += errors[i];
            errorTypes.get(i).forEach((type, n) -> allTypes.merge(type, n, Long::sum));
        }
        return new LoadResult.StageStats(stage, seconds, from, to, per,
                opStats("all", allLatency, allService, allErrors, allTypes, seconds), open ? LoadResult.LoadLatency.of(lag) : null);
    }

    private static LoadResult.OpStats opStats(String op, Histogram latency, Histogram service, long errors,
                                              Map<String, Long> types, double seconds) {
        long ok = latency.getTotalCount();
        return new LoadResult.OpStats(op, ok, errors, seconds <= 0 ? 0 : ok / seconds,
                ok + errors == 0 ? 0 : (double) errors / (ok + errors), LoadResult.LoadLatency.of(latency),
                LoadResult.LoadLatency.of(service), types);
    }
}
