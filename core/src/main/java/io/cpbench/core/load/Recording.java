package io.cpbench.core.load;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntervalHistogramProvider;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.SingleWriterRecorder;
import org.HdrHistogram.ValueRecorder;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where workers record, and where the sampling thread takes an interval's numbers from. Recorders have a fixed
 * range (no resizing on the timed path) and recycle their interval histograms; values past one hour are clamped
 * and counted. In a closed loop an op's latency is its service time, so one recorder holds both.
 *
 * <p>With one worker (a matrix scenario, run, ab, the harness cost) every value has one writer thread, so the
 * recorders are HdrHistogram's {@link SingleWriterRecorder}: a plain count into a {@link Histogram} between the
 * phaser's two atomic increments. A fixed-range {@link Recorder} for many writers adds two more atomic increments per
 * value (its {@code AtomicHistogram}'s count and total). Which kind a run has is fixed when it starts, so each
 * recording call site sees one class.
 */
final class Recording {

    static final long MAX_MICROS = 3_600_000_000L;

    private final OpType[] ops;
    private final boolean closed;
    private final boolean singleWriter;
    /** The first error, described: why ops failed, even when the run did not. */
    private final java.util.concurrent.atomic.AtomicReference<String> firstError = new java.util.concurrent.atomic.AtomicReference<>();
    private final ValueRecorder[] latency;
    private final ValueRecorder[] service;
    /** Open loops only: a closed loop has no schedule to lag behind. */
    private final ValueRecorder lag;
    private final LongAdder[] errors;
    private final Map<String, LongAdder>[] errorTypes;
    final LongAdder clamped = new LongAdder();
    final LongAdder late = new LongAdder();
    private final Histogram[] recycledLatency;
    private final Histogram[] recycledService;
    private Histogram recycledLag;
    private final long[] errorsTaken;
    private final java.util.List<Map<String, Long>> typesTaken = new java.util.ArrayList<>();

    /**
     * @param closed       a closed loop: latency is service time, one recorder per op
     * @param singleWriter one worker thread records every value (no other thread calls {@link #ok}, {@link #lag})
     */
    @SuppressWarnings("unchecked")
    Recording(OpType[] ops, boolean closed, boolean singleWriter) {
        this.ops = ops;
        this.closed = closed;
        this.singleWriter = singleWriter;
        latency = new ValueRecorder[ops.length];
        service = new ValueRecorder[ops.length];
        lag = closed ? null : recorder();
        errors = new LongAdder[ops.length];
        errorTypes = new Map[ops.length];
        recycledLatency = new Histogram[ops.length];
        recycledService = new Histogram[ops.length];
        errorsTaken = new long[ops.length];
        for (int i = 0; i < ops.length; i++) {
            latency[i] = recorder();
            service[i] = closed ? null : recorder();
            errors[i] = new LongAdder();
            errorTypes[i] = new ConcurrentHashMap<>();
            typesTaken.add(new HashMap<>());
        }
    }

    private ValueRecorder recorder() {
        return singleWriter ? new SingleWriterRecorder(1, MAX_MICROS, 3) : new Recorder(1, MAX_MICROS, 3);
    }

    @SuppressWarnings("unchecked")
    private static Histogram interval(ValueRecorder recorder, Histogram recycle) {
        return ((IntervalHistogramProvider<Histogram>) recorder).getIntervalHistogram(recycle);
    }

    /** {@code nanos} in µs, within what the histograms hold (0 to an hour); not counted as clamped. */
    static long clampMicros(long nanos) {
        return Math.min(Math.max(nanos / 1000, 0), MAX_MICROS);
    }

    private long clamp(long nanos) {
        long micros = nanos / 1000;
        if (micros > MAX_MICROS) {
            clamped.increment();
            return MAX_MICROS;
        }
        return Math.max(micros, 0);
    }

    /** In a closed loop {@code dueNanos} is {@code startNanos}: one value, recorded once. */
    void ok(int op, long dueNanos, long startNanos, long endNanos) {
        latency[op].recordValue(clamp(endNanos - dueNanos));
        if (!closed) {
            service[op].recordValue(clamp(endNanos - startNanos));
        }
    }

    /** An open loop's op started {@code nanos} after it was due. */
    void lag(long nanos) {
        lag.recordValue(clamp(nanos));
        if (nanos > 1_000_000) {
            late.increment();
        }
    }

    void error(int op, Throwable e) {
        errors[op].increment();
        errorTypes[op].computeIfAbsent(Errors.type(e), k -> new LongAdder()).increment();
        if (firstError.get() == null) {
            firstError.compareAndSet(null, Errors.describe(e));
        }
    }

    /** The first error recorded since the last {@link #reset()}, described; null if none. */
    String firstError() {
        return firstError.get();
    }

    /** Takes what was recorded since the last call into {@code into} (which it adds to). */
    synchronized void take(Tally into) {
        for (int i = 0; i < ops.length; i++) {
            recycledLatency[i] = interval(latency[i], recycledLatency[i]);
            into.latency[i].add(recycledLatency[i]);
            if (!closed) { // a closed tally's service histograms are its latency histograms
                recycledService[i] = interval(service[i], recycledService[i]);
                into.service[i].add(recycledService[i]);
            }
            long e = errors[i].sum();
            into.errors[i] += e - errorsTaken[i];
            errorsTaken[i] = e;
            Map<String, Long> taken = typesTaken.get(i);
            Map<String, Long> target = into.errorTypes.get(i);
            errorTypes[i].forEach((type, adder) -> {
                long now = adder.sum();
                long before = taken.getOrDefault(type, 0L);
                if (now > before) {
                    target.merge(type, now - before, Long::sum);
                    taken.put(type, now);
                }
            });
        }
        if (!closed) {
            recycledLag = interval(lag, recycledLag);
            into.lag.add(recycledLag);
        }
    }

    /** Discards what was recorded so far (the warm-up's numbers). */
    void reset() {
        take(new Tally(ops, closed));
        clamped.reset();
        late.reset();
        firstError.set(null);
    }
}
