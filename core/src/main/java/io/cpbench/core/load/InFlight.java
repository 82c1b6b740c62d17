package io.cpbench.core.load;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The op each worker has in flight and since when, so that an op the run abandons at its end is counted at its
 * censored latency instead of dropped ({@link io.cpbench.core.stats.Censored}).
 *
 * <p>One owner per op: a worker that ends its op claims its slot back ({@link #ending}), records the op, then frees
 * the slot ({@link #ended}); the run, abandoning, claims every slot still held ({@link #abandon}) and waits for
 * those being recorded. Whoever claims first counts the op, so an op that ends just as the run abandons it is counted
 * once, as done or as censored: never both, and never recorded after the run took its last numbers. The cost on the
 * timed path is a release store as an op starts, and a compare-and-set and a release store as it ends, on a slot no
 * other worker writes.
 */
final class InFlight {

    /** Longs between two workers' slots: 128 bytes, so no two workers write the same cache line (or prefetch pair). */
    private static final int STRIDE = 16;
    private static final long IDLE = Long.MIN_VALUE;
    /** The worker is recording the op it ended. */
    private static final long ENDING = Long.MIN_VALUE + 1;
    /** How long {@link #abandon} waits for a worker to finish recording its op: far longer than a record takes. */
    private static final long RECORDING_WAIT_NANOS = 1_000_000_000L;

    /** Per worker at {@code w * STRIDE}: since when its op is in flight (ns), or IDLE; the next long: which op. */
    private final AtomicLongArray slots;

    InFlight(int workers) {
        slots = new AtomicLongArray(workers * STRIDE);
        for (int w = 0; w < workers; w++) {
            slots.set(w * STRIDE, IDLE);
        }
    }

    /** Worker {@code worker} starts op {@code op} (its index in the mix), counted from {@code sinceNanos}. */
    void begin(int worker, int op, long sinceNanos) {
        int slot = worker * STRIDE;
        slots.setPlain(slot + 1, op);
        slots.setRelease(slot, sinceNanos); // publishes the op index with it
    }

    /**
     * Worker {@code worker}'s op ended: whether it is still the worker's to record (false: the run abandoned it and
     * counted it censored). When true, call {@link #ended} once it is recorded.
     */
    boolean ending(int worker, long sinceNanos) {
        return slots.compareAndSet(worker * STRIDE, sinceNanos, ENDING);
    }

    /** Worker {@code worker} has recorded the op it ended. */
    void ended(int worker) {
        slots.setRelease(worker * STRIDE, IDLE);
    }

    /** Receives each abandoned op: its index in the mix and since when it was in flight. */
    @FunctionalInterface
    interface Abandoned {
        void op(int op, long sinceNanos);
    }

    /**
     * Claims every op still in flight, reporting each once, and waits (at most a second a worker) for ops being
     * recorded, so that a take after this sees them; returns how many were abandoned. Call once, after the workers
     * were told to stop: a worker that starts an op after this is not counted.
     */
    int abandon(Abandoned sink) {
        int n = 0;
        for (int slot = 0; slot < slots.length(); slot += STRIDE) {
            long deadline = System.nanoTime() + RECORDING_WAIT_NANOS;
            while (true) {
                long since = slots.get(slot);
                if (since == IDLE) {
                    break;
                }
                if (since == ENDING) {
                    if (System.nanoTime() - deadline > 0) {
                        break; // a worker stalled mid-record for a second: its op may miss the last take
                    }
                    Thread.onSpinWait();
                } else if (slots.compareAndSet(slot, since, IDLE)) {
                    sink.op((int) slots.getPlain(slot + 1), since);
                    n++;
                    break;
                }
            }
        }
        return n;
    }
}
