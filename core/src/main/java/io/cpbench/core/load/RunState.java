package io.cpbench.core.load;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * What one run of a {@link LoadEngine} shares between its workers ({@link Workers}), its sampling thread
 * ({@link Sampling}) and whoever stops it: the clock, the phases' instants, the stop and failure, and the counters and
 * latches the phases hand over with. Times are on {@link #clock}.
 */
final class RunState {

    /** Where every time the engine measures comes from: {@link System#nanoTime()}, but for measuring the engine itself. */
    final LongSupplier clock;
    /** Every worker counts down once warm (or ended); then measuring may begin. */
    final CountDownLatch warmedUp;
    /** Every worker counts down once it ends. */
    final CountDownLatch done;
    /** Opened when measuring begins (or the run is stopped): the workers wait on it after their warm-up. */
    final CountDownLatch measureGate = new CountDownLatch(1);
    /** Unbounded loops: ops started and finished, for the ops in flight. */
    final LongAdder started = new LongAdder();
    final LongAdder finished = new LongAdder();
    /** Bounded loops: warm-up ops that succeeded. */
    final LongAdder warmupDone = new LongAdder();
    /** The open loop's next slot, measuring and warming up. */
    final AtomicLong nextSlot = new AtomicLong();
    final AtomicLong warmupSlot = new AtomicLong();
    private final AtomicReference<String> failure = new AtomicReference<>();

    volatile boolean stopRequested;
    volatile String stopReason;
    /** A threshold ended the run early (abort on fail). */
    volatile boolean aborted;
    /** When the run was first stopped or failed: the drain after a stop counts from here. */
    volatile long stopRequestedAtNanos;
    volatile long warmupStart;
    /** The open loop's warm-up schedule, or null: none, or a closed loop. */
    volatile Profile warmupProfile;
    volatile long measureStart;
    /** No op starts at or after this: the schedule's end, or the time box. */
    volatile long measureEnd = Long.MAX_VALUE;
    /** Ops still in flight after this are abandoned. */
    volatile long drainDeadline = Long.MAX_VALUE;
    volatile long timeboxDeadline = Long.MAX_VALUE;
    /** A bounded run reached its time box. */
    volatile boolean timeboxHit;

    RunState(int workers, LongSupplier clock) {
        this.clock = clock;
        this.warmedUp = new CountDownLatch(workers);
        this.done = new CountDownLatch(workers);
    }

    /** Ends the run after the ops in flight, for {@code reason}; the first reason stands. Any thread. */
    void stop(String reason) {
        if (!stopRequested) {
            stopReason = reason;
            stopRequestedAtNanos = clock.getAsLong();
        }
        stopRequested = true;
        measureGate.countDown();
    }

    /** Ends the run as FAILED: ops keep failing, so there is nothing to measure. */
    void fail(String reason) {
        if (failure.compareAndSet(null, reason)) {
            stopRequestedAtNanos = clock.getAsLong();
        }
        stopRequested = true;
        measureGate.countDown();
    }

    /** Why the run failed, or null. */
    String failure() {
        return failure.get();
    }

    /**
     * Ops started and not finished (finished is read first, so never negative). A bounded run counts the workers
     * still running instead: each has at most one op in flight, and its timed path counts no ops one by one.
     */
    long inFlight(boolean bounded) {
        if (bounded) {
            return done.getCount();
        }
        long f = finished.sum();
        return started.sum() - f;
    }

    /** Waits at most {@code wait} ns (real time) for every worker to end; whether they all have. */
    boolean awaitDone(long wait) {
        try {
            return done.await(Math.max(wait, 0), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            stop("stopped before the end");
            Thread.currentThread().interrupt();
            return done.getCount() == 0;
        }
    }
}
