package io.cpbench.core.load;

import io.cpbench.core.stats.Censored;
import io.cpbench.core.stats.HistogramCodec;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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
    /** Per op, what of {@link #latency} was recorded censored (ops abandoned in flight); null when none. */
    final Censored[] censored;
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
        censored = new Censored[ops.length];
        for (int i = 0; i < ops.length; i++) {
            latency[i] = new Histogram(Recording.MAX_MICROS, 3);
            if (!closed) {
                service[i] = new Histogram(Recording.MAX_MICROS, 3);
            }
            errorTypes.add(new TreeMap<>());
        }
    }

    /** Each op's latency histogram, encoded as result files hold them ({@link HistogramCodec}). */
    Map<String, String> encodedLatencies() {
        Map<String, String> histograms = new LinkedHashMap<>();
        for (int i = 0; i < ops.length; i++) {
            histograms.put(ops[i].key(), HistogramCodec.encode(latency[i]));
        }
        return histograms;
    }

    void add(Tally other) {
        if (other.closed != closed) {
            throw new IllegalArgumentException("a closed loop's tally and an open loop's do not add up");
        }
        for (int i = 0; i < ops.length; i++) {
            addAny(latency[i], other.latency[i]);
            if (!closed) {
                addAny(service[i], other.service[i]);
            }
            errors[i] += other.errors[i];
            censored[i] = Censored.merge(censored[i], other.censored[i]);
            Map<String, Long> mine = errorTypes.get(i);
            other.errorTypes.get(i).forEach((type, n) -> mine.merge(type, n, Long::sum));
        }
        addAny(lag, other.lag);
        nanos += other.nanos;
    }

    /*
     * A histogram of this range is some 23,500 counts (188 KB): adding or clearing one walks all of them, so an empty
     * one (a closed loop's lag, an op no worker ran this interval) is skipped. Empty means every count is 0.
     */
    static void addAny(Histogram into, Histogram from) {
        if (from.getTotalCount() > 0) {
            into.add(from);
        }
    }

    static void resetAny(Histogram histogram) {
        if (histogram.getTotalCount() > 0) {
            histogram.reset();
        }
    }

    /** Empties it for the next span: the sampler reuses one interval tally rather than allocate one a second. */
    Tally reset() {
        for (int i = 0; i < ops.length; i++) {
            resetAny(latency[i]);
            if (!closed) {
                resetAny(service[i]);
            }
            errors[i] = 0;
            censored[i] = null;
            errorTypes.get(i).clear();
        }
        resetAny(lag);
        nanos = 0;
        return this;
    }

    /**
     * Records op {@code op}, abandoned in flight, at {@code micros}: a lower bound of its latency. It counts in the
     * percentiles, not as an op done.
     */
    void censor(int op, long micros) {
        latency[op].recordValue(micros);
        censored[op] = Censored.merge(censored[op], new Censored(1, micros));
    }

    /** Ops that ended without an error (censored ones did not end). */
    long okOps() {
        long n = 0;
        for (int i = 0; i < ops.length; i++) {
            n += ok(i);
        }
        return n;
    }

    long ok(int op) {
        return latency[op].getTotalCount() - (censored[op] == null ? 0 : censored[op].ops());
    }

    long censoredOps() {
        long n = 0;
        for (Censored c : censored) {
            n += c == null ? 0 : c.ops();
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
        long allOk = 0;
        Censored allCensored = null;
        for (int i = 0; i < ops.length; i++) {
            long ok = ok(i);
            per.add(opStats(ops[i].key(), ok, latency[i], service[i], censored[i], errors[i], errorTypes.get(i), seconds));
            if (!one) {
                allLatency.add(latency[i]);
                if (!closed) {
                    allService.add(service[i]);
                }
            }
            allOk += ok;
            allCensored = Censored.merge(allCensored, censored[i]);
            allErrors += errors[i];
            errorTypes.get(i).forEach((type, n) -> allTypes.merge(type, n, Long::sum));
        }
        LoadResult.OpStats all = one ? renamed(per.get(0), "all")
                : opStats("all", allOk, allLatency, allService, allCensored, allErrors, allTypes, seconds);
        return new LoadResult.StageStats(stage, seconds, from, to, per, all, open ? LoadResult.LoadLatency.of(lag) : null);
    }

    /** @param censored what of {@code latency} was recorded censored; the service histogram holds ended ops alone */
    private static LoadResult.OpStats opStats(String op, long ok, Histogram latency, Histogram service, Censored censored,
                                              long errors, Map<String, Long> types, double seconds) {
        LoadResult.LoadLatency l = LoadResult.LoadLatency.of(latency, censored);
        return new LoadResult.OpStats(op, ok, errors, seconds <= 0 ? 0 : ok / seconds,
                ok + errors == 0 ? 0 : (double) errors / (ok + errors), l,
                service == latency ? l : LoadResult.LoadLatency.of(service), types);
    }

    private static LoadResult.OpStats renamed(LoadResult.OpStats s, String op) {
        return new LoadResult.OpStats(op, s.ops(), s.errors(), s.opsPerSecond(), s.errorRate(), s.latency(), s.service(),
                s.errorTypes());
    }
}
