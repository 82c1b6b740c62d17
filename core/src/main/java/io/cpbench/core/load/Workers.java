package io.cpbench.core.load;

import io.cpbench.core.history.Event;
import io.cpbench.core.history.HistoryRecorder;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The workers of one run of a {@link LoadEngine}: each warms up, waits for measuring to begin, then runs its loop
 * until the run ends. The loops: closed (each worker runs the next op when its last ended, as many workers active as
 * the profile's level), open (a free worker takes the next op of the schedule when it falls due) and bounded (a
 * scenario run's op counts inside a time box, {@link LoadSpec.Bounds}). Each op goes through {@link #runOp}, the
 * timed path: clock reads, a pick of op and object, the op, the recorder's writes.
 */
final class Workers {

    /** What the engine runs each op with: {@link LoadOps#execute}, or a test's stand-in; what the op returned. */
    @FunctionalInterface
    interface Exec {
        long execute(OpType op, int client, int object, LockLog lockLog, long a, long b) throws Exception;
    }

    private final LoadSpec spec;
    private final LoadSpec.Bounds bounds;
    private final OpType[] used;
    private final int[] cumulativeWeights;
    private final Exec executor;
    private final Recording recording;
    private final InFlight inFlight;
    private final HistoryRecorder history;
    private final LoadOps ops;
    private final RunState state;
    private final LongSupplier clock;

    /**
     * @param spec    what to run: its bounds (op counts and a time box: a bounded closed loop), or without them its
     *                warm-up and profile
     * @param used    the mix's ops, in the order the recording counts them
     * @param history records every op, or null
     */
    Workers(LoadSpec spec, OpType[] used, Exec executor, Recording recording, InFlight inFlight,
            HistoryRecorder history, LoadOps ops, RunState state) {
        this.spec = spec;
        this.bounds = spec.bounds();
        this.used = used;
        this.cumulativeWeights = new int[used.length];
        int sum = 0;
        for (int i = 0; i < used.length; i++) {
            sum += spec.mix().get(used[i]);
            cumulativeWeights[i] = sum;
        }
        this.executor = executor;
        this.recording = recording;
        this.inFlight = inFlight;
        this.history = history;
        this.ops = ops;
        this.state = state;
        this.clock = state.clock;
    }

    /** Worker {@code index}'s whole run: warm-up until {@code warmupEnd} (or its share of the warm-up ops), then its loop. */
    Runnable worker(int index, LockLog lockLog, long warmupEnd) {
        int client = ops.clientCount() == 0 ? 0 : index % ops.clientCount();
        HistoryRecorder.Lane lane = history == null ? null : history.lane(index);
        SplittableRandom random = new SplittableRandom(spec.seed() * 1_000_003L + index);
        return () -> {
            boolean warm = false;
            try {
                if (spec.open() && state.warmupProfile != null) {
                    openLoop(index, random, client, lane, lockLog,
                            new Slots(state.warmupProfile, state.warmupStart, state.warmupSlot, warmupEnd));
                } else if (bounds != null) {
                    boundedLoop(index, random, client, lane, lockLog,
                            bounds.warmupOps() > 0 ? share(bounds.warmupOps(), index) : Long.MAX_VALUE, warmupEnd, false);
                } else {
                    long now;
                    while (!state.stopRequested && (now = clock.getAsLong()) < warmupEnd) {
                        countedOp(index, random, client, lane, lockLog, now, now);
                    }
                }
                warm = true;
                state.warmedUp.countDown();
                state.measureGate.await();
                if (spec.open()) {
                    openLoop(index, random, client, lane, lockLog,
                            new Slots(spec.profile(), state.measureStart, state.nextSlot, state.drainDeadline));
                } else if (bounds != null) {
                    boundedLoop(index, random, client, lane, lockLog, bounds.ops() == 0 ? Long.MAX_VALUE : share(bounds.ops(), index),
                            state.measureEnd, true);
                } else {
                    closedLoop(index, random, client, lane, lockLog);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (!warm) {
                    state.warmedUp.countDown();
                }
                state.done.countDown();
            }
        };
    }

    /** This worker's share of {@code total} ops: an even split, the first workers taking one more. */
    private long share(long total, int index) {
        long base = total / spec.workers();
        return base + (index < total % spec.workers() ? 1 : 0);
    }

    /**
     * Bounded closed loop: at most {@code quota} ops, none started at or after {@code end}. Measuring, reaching the
     * time box marks the run TIMEBOXED. Too many failures in a row fail the run.
     */
    private void boundedLoop(int index, SplittableRandom random, int client, HistoryRecorder.Lane lane, LockLog lockLog, long quota,
                             long end, boolean measure) {
        int maxErrors = bounds.maxConsecutiveErrors();
        int consecutiveErrors = 0;
        for (long n = 0; n < quota && !state.stopRequested; n++) {
            long now = clock.getAsLong();
            if (now >= end) {
                if (measure && now >= state.timeboxDeadline) {
                    state.timeboxHit = true;
                }
                return;
            }
            Exception error = runOp(index, random, client, lane, lockLog, now, now);
            if (error == null) {
                consecutiveErrors = 0;
                if (!measure) {
                    state.warmupDone.increment();
                }
            } else if (maxErrors > 0 && ++consecutiveErrors >= maxErrors) {
                state.fail(consecutiveErrors + " ops in a row failed; last: " + Errors.describe(error));
                return;
            }
        }
    }

    private void closedLoop(int index, SplittableRandom random, int client, HistoryRecorder.Lane lane, LockLog lockLog) {
        Profile profile = spec.profile();
        long start = state.measureStart;
        long end = state.measureEnd;
        while (!state.stopRequested) {
            long now = clock.getAsLong();
            if (now >= end) {
                return;
            }
            if (index >= Math.round(profile.levelAt(now - start))) {
                LockSupport.parkNanos(Math.min(5_000_000L, end - now));
                continue;
            }
            countedOp(index, random, client, lane, lockLog, now, now);
        }
    }

    /**
     * One phase of an open loop's schedule: the profile that places slots, the phase's start, the counter that hands
     * out slot numbers (shared by the workers), and the time after which no op starts.
     */
    private record Slots(Profile profile, long start, AtomicLong next, long deadline) {
    }

    /**
     * Takes ops as they fall due: measuring, or warming up. Warm-up takes the same path and records the same way
     * (numbers discarded at the start of measuring), so the JIT has compiled what is measured, with no branch
     * left cold to deoptimise on in the first measured second.
     */
    private void openLoop(int index, SplittableRandom random, int client, HistoryRecorder.Lane lane, LockLog lockLog,
                          Slots phase) {
        Profile profile = phase.profile();
        long start = phase.start();
        AtomicLong slots = phase.next();
        long deadline = phase.deadline();
        while (!state.stopRequested) {
            long offset = profile.slotOffsetNanos(slots.getAndIncrement());
            if (offset == Long.MAX_VALUE) {
                return;
            }
            long due = start + offset;
            long now;
            while ((now = clock.getAsLong()) < due) {
                if (state.stopRequested) {
                    return;
                }
                long wait = due - now;
                if (wait > 20_000) {
                    LockSupport.parkNanos(Math.min(wait - 10_000, 100_000_000L));
                } else {
                    Thread.onSpinWait();
                }
            }
            if (now >= deadline || state.stopRequested) {
                return;
            }
            recording.lag(now - due);
            countedOp(index, random, client, lane, lockLog, due, now);
        }
    }

    /** Runs one op and records it; the exception it threw, or null. */
    private Exception runOp(int worker, SplittableRandom random, int client, HistoryRecorder.Lane lane, LockLog lockLog, long due, long begin) {
        int op = pick(random);
        int object = spec.objects() == 1 ? 0 : random.nextInt(spec.objects());
        OpType type = used[op];
        long a = 0;
        long b = 0;
        if (type == OpType.WRITE || type == OpType.CMPSET) {
            a = random.nextInt(LoadOps.REGISTER_VALUES);
            b = random.nextInt(LoadOps.REGISTER_VALUES);
        }
        long start = begin;
        long intended = due;
        if (lane != null) {
            // The history's invoke carries the op's start time (earlier than the call, which is safe for the checker),
            // but its bookkeeping (an event, a lock) is not the op's: the measured span starts after it. In a closed
            // loop the intended start is the start.
            invoke(lane, type, object, a, b, begin);
            start = clock.getAsLong();
            intended = due == begin ? start : due;
        }
        inFlight.begin(worker, op, intended);
        try {
            long result = executor.execute(type, client, object, lockLog, a, b);
            long end = clock.getAsLong();
            recording.ok(worker, op, intended, start, end); // unless the run abandoned it and counted it censored
            if (lane != null) {
                complete(lane, type, result, end);
            }
            return null;
        } catch (Exception e) {
            failed(worker, op, lane, e);
            return e;
        }
    }

    /**
     * {@link #runOp} in an unbounded loop, which counts ops in flight as started minus finished (a bounded run counts
     * the workers still running instead, so its timed path has no counters).
     */
    private void countedOp(int worker, SplittableRandom random, int client, HistoryRecorder.Lane lane, LockLog lockLog, long due,
                           long begin) {
        state.started.increment();
        try {
            runOp(worker, random, client, lane, lockLog, due, begin);
        } finally {
            state.finished.increment();
        }
    }

    /*
     * The history's and the error's parts of runOp live apart from it, which keeps runOp's own code to the op's
     * timed path. (runOp is still not inlined into the worker's loops: -XX:+PrintInlining in HarnessCost says its
     * compiled code is too big. A loop that ran a one-op scenario without calling it measured no faster.)
     */
    private void invoke(HistoryRecorder.Lane lane, OpType type, int object, long a, long b, long begin) {
        lane.invoke(type.historyName(), type.register() ? ops.registerName(object) : ops.objectName(object),
                type == OpType.WRITE ? Long.valueOf(a) : type == OpType.CMPSET ? List.of(a, b) : null, begin);
    }

    private void failed(int worker, int op, HistoryRecorder.Lane lane, Exception e) {
        recording.error(worker, op, e);
        if (lane != null) {
            OpType type = used[op];
            // A read that failed changed nothing. Any other op may have taken effect: its outcome is unknown.
            lane.completeWithOwnValue(type == OpType.READ || type == OpType.GET ? Event.Type.FAIL : Event.Type.INFO,
                    Errors.type(e), clock.getAsLong());
        }
    }

    private static void complete(HistoryRecorder.Lane lane, OpType type, long result, long end) {
        switch (type) {
            case READ, INCREMENT -> lane.complete(Event.Type.OK, result, null, end);
            case CMPSET -> lane.completeWithOwnValue(result == 1 ? Event.Type.OK : Event.Type.FAIL, null, end);
            default -> lane.completeWithOwnValue(Event.Type.OK, null, end);
        }
    }

    private int pick(SplittableRandom random) {
        if (used.length == 1) {
            return 0;
        }
        int r = random.nextInt(cumulativeWeights[used.length - 1]);
        for (int i = 0; i < used.length; i++) {
            if (r < cumulativeWeights[i]) {
                return i;
            }
        }
        return used.length - 1;
    }
}
