package io.cpbench.core.load;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The op each worker has in flight and since when, so that an op the run abandons at its end is counted at its
 * censored latency instead of dropped ({@link io.cpbench.core.stats.Censored}).
 *
 * <p>A worker marks its slot as an op starts ({@link #begin}) and frees it once the op is recorded ({@link #ended});
 * {@link Recording} settles, in the critical section it records in, whether the worker or the run counts an op that
 * ends as the run abandons it. The cost on the timed path is two stores, on a slot no other worker writes.
 */
final class InFlight {

    /** Longs between two workers' slots: 128 bytes, so no two workers write the same cache line (or prefetch pair). */
    private static final int STRIDE = 16;
    private static final long IDLE = Long.MIN_VALUE;

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

    /** Worker {@code worker}'s op is recorded: nothing in flight. */
    void ended(int worker) {
        slots.setRelease(worker * STRIDE, IDLE);
    }

    /** Receives each abandoned op: its index in the mix and since when it was in flight. */
    @FunctionalInterface
    interface Abandoned {
        void op(int op, long sinceNanos);
    }

    /**
     * Reports every op still in flight once, and frees its slot; returns how many. Only {@link Recording#abandon}
     * calls it, once no worker can record any more.
     */
    int abandon(Abandoned sink) {
        int n = 0;
        for (int slot = 0; slot < slots.length(); slot += STRIDE) {
            long since = slots.get(slot);
            if (since != IDLE) {
                sink.op((int) slots.getPlain(slot + 1), since);
                slots.set(slot, IDLE);
                n++;
            }
        }
        return n;
    }
}
