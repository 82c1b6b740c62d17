package io.cpbench.core.load;

import org.HdrHistogram.AtomicHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where workers record, and where the sampling thread takes an interval's numbers from. Histograms have a fixed
 * range (no resizing on the timed path) and are recycled interval after interval; values past one hour are clamped
 * and counted. In a closed loop an op's latency is its service time, so one histogram holds both.
 *
 * <p>Workers write into the active set of histograms inside one {@link WriterReaderPhaser} critical section per call
 * (two atomic increments, whatever the call records: latency and service time together in an open loop). Taking an
 * interval swaps in the spare set and flips the phase, which waits for writers still in the old set; this is what
 * HdrHistogram's own {@code Recorder} does, with one phaser for all of a run's histograms instead of one each. With
 * one worker (a matrix scenario, run, ab, the harness cost) the histograms are plain {@link Histogram}s; with several,
 * {@link AtomicHistogram}s.
 *
 * <p>The same critical section settles who counts an op that is in flight as the run abandons it ({@link InFlight}):
 * a worker records its op only if the run has not abandoned yet, and frees its slot as it does; {@link #abandon} marks
 * the run abandoned and flips the phase, so that every worker either finished recording before (its slot is free) or
 * will see the mark and leave its op to the run (its slot still holds it). Each op is counted once, as done or as
 * censored, and nothing is recorded after the run's last take.
 */
final class Recording {

    static final long MAX_MICROS = 3_600_000_000L;

    /** One interval's histograms: per op, latency and (open loops) service time, and the open loop's lag. */
    private static final class Histograms {
        final Histogram[] latency;
        final Histogram[] service;
        final Histogram lag;

        Histograms(int ops, boolean closed, boolean atomic) {
            latency = new Histogram[ops];
            service = new Histogram[ops];
            for (int i = 0; i < ops; i++) {
                latency[i] = histogram(atomic);
                service[i] = closed ? null : histogram(atomic);
            }
            lag = closed ? null : histogram(atomic);
        }

        private static Histogram histogram(boolean atomic) {
            return atomic ? new AtomicHistogram(1, MAX_MICROS, 3) : new Histogram(1, MAX_MICROS, 3);
        }

        void reset() {
            for (int i = 0; i < latency.length; i++) {
                Tally.resetAny(latency[i]);
                if (service[i] != null) {
                    Tally.resetAny(service[i]);
                }
            }
            if (lag != null) {
                Tally.resetAny(lag);
            }
        }
    }

    private final OpType[] ops;
    private final boolean closed;
    private final InFlight inFlight;
    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    /** Where workers write; swapped with {@link #spare} under the phaser's reader lock. */
    private volatile Histograms active;
    private Histograms spare;
    /** Set once by {@link #abandon}: from then on, workers record nothing. */
    private volatile boolean abandoned;
    /** The first error, described: why ops failed, even when the run did not. */
    private final java.util.concurrent.atomic.AtomicReference<String> firstError = new java.util.concurrent.atomic.AtomicReference<>();
    private final LongAdder[] errors;
    private final Map<String, LongAdder>[] errorTypes;
    final LongAdder clamped = new LongAdder();
    final LongAdder late = new LongAdder();
    private final long[] errorsTaken;
    private final java.util.List<Map<String, Long>> typesTaken = new java.util.ArrayList<>();

    /**
     * @param closed       a closed loop: latency is service time, one histogram per op
     * @param singleWriter one worker thread records every value (no other thread calls {@link #ok}, {@link #lag})
     * @param inFlight     the workers' ops in flight, freed here as their ops are recorded
     */
    @SuppressWarnings("unchecked")
    Recording(OpType[] ops, boolean closed, boolean singleWriter, InFlight inFlight) {
        this.ops = ops;
        this.closed = closed;
        this.inFlight = inFlight;
        active = new Histograms(ops.length, closed, !singleWriter);
        spare = new Histograms(ops.length, closed, !singleWriter);
        errors = new LongAdder[ops.length];
        errorTypes = new Map[ops.length];
        errorsTaken = new long[ops.length];
        for (int i = 0; i < ops.length; i++) {
            errors[i] = new LongAdder();
            errorTypes[i] = new ConcurrentHashMap<>();
            typesTaken.add(new HashMap<>());
        }
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

    /**
     * Worker {@code worker}'s op ended: records it and frees the worker's in-flight slot, unless the run abandoned it
     * already (it counted the op censored). In a closed loop {@code dueNanos} is {@code startNanos}: one value.
     */
    void ok(int worker, int op, long dueNanos, long startNanos, long endNanos) {
        long epoch = phaser.writerCriticalSectionEnter();
        try {
            if (abandoned) {
                return;
            }
            Histograms h = active;
            h.latency[op].recordValue(clamp(endNanos - dueNanos));
            if (!closed) {
                h.service[op].recordValue(clamp(endNanos - startNanos));
            }
            inFlight.ended(worker);
        } finally {
            phaser.writerCriticalSectionExit(epoch);
        }
    }

    /** An open loop's op started {@code nanos} after it was due. */
    void lag(long nanos) {
        long epoch = phaser.writerCriticalSectionEnter();
        try {
            active.lag.recordValue(clamp(nanos));
        } finally {
            phaser.writerCriticalSectionExit(epoch);
        }
        if (nanos > 1_000_000) {
            late.increment();
        }
    }

    /** Worker {@code worker}'s op failed: counted as {@link #ok} records, unless the run abandoned it already. */
    void error(int worker, int op, Throwable e) {
        long epoch = phaser.writerCriticalSectionEnter();
        try {
            if (abandoned) {
                return;
            }
            errors[op].increment();
            errorTypes[op].computeIfAbsent(Errors.type(e), k -> new LongAdder()).increment();
            inFlight.ended(worker);
        } finally {
            phaser.writerCriticalSectionExit(epoch);
        }
        if (firstError.get() == null) {
            firstError.compareAndSet(null, Errors.describe(e));
        }
    }

    /**
     * Abandons the ops still in flight: from now on workers record nothing, and each op no worker recorded is reported
     * once to {@code sink}; returns how many. Call once, after the workers were told to stop and before the last
     * {@link #take}.
     */
    int abandon(InFlight.Abandoned sink) {
        abandoned = true;
        phaser.readerLock();
        try {
            phaser.flipPhase(); // every worker that did not see the mark has left its critical section
        } finally {
            phaser.readerUnlock();
        }
        return inFlight.abandon(sink);
    }

    /** The first error recorded since the last {@link #reset()}, described; null if none. */
    String firstError() {
        return firstError.get();
    }

    /** Takes what was recorded since the last call into {@code into} (which it adds to). */
    synchronized void take(Tally into) {
        Histograms taken;
        phaser.readerLock();
        try {
            taken = active;
            spare.reset();
            active = spare;
            phaser.flipPhase(); // writers still in the taken set have left it
            spare = taken;
        } finally {
            phaser.readerUnlock();
        }
        for (int i = 0; i < ops.length; i++) {
            Tally.addAny(into.latency[i], taken.latency[i]);
            if (!closed) { // a closed tally's service histograms are its latency histograms
                Tally.addAny(into.service[i], taken.service[i]);
            }
            long e = errors[i].sum();
            into.errors[i] += e - errorsTaken[i];
            errorsTaken[i] = e;
            Map<String, Long> typesBefore = typesTaken.get(i);
            Map<String, Long> target = into.errorTypes.get(i);
            errorTypes[i].forEach((type, adder) -> {
                long now = adder.sum();
                long before = typesBefore.getOrDefault(type, 0L);
                if (now > before) {
                    target.merge(type, now - before, Long::sum);
                    typesBefore.put(type, now);
                }
            });
        }
        if (!closed) {
            Tally.addAny(into.lag, taken.lag);
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
