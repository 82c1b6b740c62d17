package io.cpbench.core.run;

import io.cpbench.core.workload.Workload;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Runs a {@link Workload} in a closed loop on {@link RunPlan#threads()} threads: warm-up, then measurement,
 * never past the time box. Each successful op's service time goes to an HdrHistogram {@link Recorder} in µs; the
 * calling thread samples it once an interval, writes each measured interval to an {@code .hlog} and reports
 * progress. The timed path is: two {@code nanoTime} calls, the op, a range check and one {@code recordValue} into a
 * fixed-range recorder (no resizing); no allocation and no logging. {@code recordValue} enters and leaves a
 * writer-reader phaser (an atomic increment each), never a lock: writers never wait, the sampling thread's interval
 * swap waits for writers in flight instead.
 *
 * <p>A driver runs once. {@link #stop()} may be called from any thread (for example a Ctrl-C hook): the run
 * ends after the ops in flight, and the measurement so far is returned as {@link Outcome#INTERRUPTED}.
 */
public final class Driver {

    /** Ops failing back to back on one thread before the run is abandoned as FAILED. */
    static final int MAX_CONSECUTIVE_ERRORS = 100;
    /** Warm-up may use at most this share of the time box, so a slow scenario still gets measured. */
    static final double WARMUP_SHARE_OF_TIMEBOX = 0.2;
    /** How long past the time box, or past a stop, to wait for ops still in flight before abandoning them. */
    static final Duration IN_FLIGHT_GRACE = Duration.ofSeconds(30);
    static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final RunPlan plan;
    /** The largest op time recorded, in µs (one hour); longer ops are recorded as this and counted. */
    static final long MAX_RECORDED_MICROS = 3_600_000_000L;
    /**
     * Fixed range, so recording never resizes (an auto-resizing recorder's first op after each interval swap paid
     * for growing the new histogram, under its lock); interval histograms are recycled, so swapping does not
     * allocate either.
     */
    private final Recorder recorder = new Recorder(1, MAX_RECORDED_MICROS, 3);
    private Histogram recycled;
    private final LongAdder clamped = new LongAdder();
    private final Object sampleLock = new Object();
    private final LongAdder warmupDone = new LongAdder();
    private final LongAdder measureErrors = new LongAdder();
    /** The first measured error, described: why ops failed, even when the run did not. */
    private final java.util.concurrent.atomic.AtomicReference<String> firstError = new java.util.concurrent.atomic.AtomicReference<>();
    private final AtomicReference<String> failure = new AtomicReference<>();
    private final CountDownLatch warmedUp;
    private final CountDownLatch finished;
    private final CountDownLatch measureGate = new CountDownLatch(1);

    private final Duration inFlightGrace;
    private final Duration stopGrace;
    /** Where every time the driver reads comes from: {@link System#nanoTime()}, but for measuring the driver itself. */
    private final LongSupplier clock;
    private volatile boolean stopRequested;
    private volatile long stopRequestedNanos;
    private volatile boolean timeboxHit;
    private volatile boolean measuring;
    private volatile long measureStartNanos;
    private final java.util.concurrent.atomic.AtomicLong lastFinishNanos = new java.util.concurrent.atomic.AtomicLong();

    public Driver(RunPlan plan) {
        this(plan, IN_FLIGHT_GRACE, STOP_GRACE, System::nanoTime);
    }

    /**
     * A driver that reads time from {@code nanoClock} instead of {@link System#nanoTime()}: for measuring the
     * driver's own cost with op times that look like real ones (see HarnessCost in the benchmarks module). Time
     * boxes, intervals' progress and recorded latencies all follow that clock; interval swaps still happen every
     * {@link RunPlan#interval()} of real time.
     */
    public static Driver withClock(RunPlan plan, LongSupplier nanoClock) {
        return new Driver(plan, IN_FLIGHT_GRACE, STOP_GRACE, nanoClock);
    }

    Driver(RunPlan plan, Duration inFlightGrace, Duration stopGrace) {
        this(plan, inFlightGrace, stopGrace, System::nanoTime);
    }

    /**
     * @param inFlightGrace how long past the time box to wait for ops in flight before abandoning them
     * @param stopGrace     how long after {@link #stop()} to wait for ops in flight
     */
    Driver(RunPlan plan, Duration inFlightGrace, Duration stopGrace, LongSupplier clock) {
        this.clock = clock;
        this.plan = plan;
        this.inFlightGrace = inFlightGrace;
        this.stopGrace = stopGrace;
        this.warmedUp = new CountDownLatch(plan.threads());
        this.finished = new CountDownLatch(plan.threads());
    }

    /** Asks the run to end after the ops in flight. Safe from any thread, any number of times. */
    public void stop() {
        if (!stopRequested) {
            stopRequestedNanos = clock.getAsLong();
        }
        stopRequested = true;
        measureGate.countDown();
    }

    /**
     * Runs the plan. Blocks until the run ends.
     *
     * @param workload the op, shared by all threads
     * @param hlog     where to write the interval log, or null for none
     * @param progress called once an interval from this thread
     */
    public Measurement run(Workload workload, Path hlog, Consumer<Progress> progress) {
        long start = clock.getAsLong();
        long timeboxDeadline = start + plan.timebox().toNanos();
        long warmupDeadline = start + (long) (plan.timebox().toNanos() * WARMUP_SHARE_OF_TIMEBOX);
        Histogram total = new Histogram(3);
        try (IntervalLog log = IntervalLog.open(hlog)) {
            for (int i = 0; i < plan.threads(); i++) {
                Thread worker = new Thread(workerLoop(workload, i, warmupDeadline, timeboxDeadline),
                        "cpbench-driver-" + i);
                worker.setDaemon(true);
                worker.start();
            }
            awaitPhase(warmedUp, start, Long.MAX_VALUE, false, total, log, progress);
            synchronized (sampleLock) {
                recycled = recorder.getIntervalHistogram(recycled); // warm-up latencies end here
                countersAtStart = workload.counters();
                measureStartNanos = clock.getAsLong();
                measuring = true;
            }
            Instant startedAt = Instant.now();
            measureGate.countDown();
            boolean allFinished = awaitPhase(finished, measureStartNanos,
                    timeboxDeadline + inFlightGrace.toNanos(), true, total, log, progress);
            if (!allFinished && !stopRequested) {
                timeboxHit = true;
            }
            stopRequested = stopRequested || !allFinished;
            sample(total, log, null, 0);
            long end = allFinished ? Math.max(lastFinishNanos.get(), measureStartNanos) : clock.getAsLong();
            return new Measurement(outcome(allFinished), reason(allFinished), startedAt, warmupDone.sum(),
                    total.getTotalCount(), measureErrors.sum(), end - measureStartNanos, total, firstError.get(),
                    difference(workload.counters(), countersAtStart));
        }
    }

    private java.util.Map<String, Long> countersAtStart = java.util.Map.of();

    /** The workload's counts during the measured phase alone. */
    static java.util.Map<String, Long> difference(java.util.Map<String, Long> end, java.util.Map<String, Long> start) {
        java.util.Map<String, Long> measured = new java.util.TreeMap<>();
        end.forEach((name, value) -> measured.put(name, value - start.getOrDefault(name, 0L)));
        return measured;
    }

    private Outcome outcome(boolean allFinished) {
        if (failure.get() != null) {
            return Outcome.FAILED;
        }
        if (timeboxHit) {
            return Outcome.TIMEBOXED;
        }
        return stopRequested ? Outcome.INTERRUPTED : Outcome.COMPLETED;
    }

    private String clampedNote() {
        long n = clamped.sum();
        return n == 0 ? "" : "; " + n + " ops took over an hour and were recorded as one hour";
    }

    private String reason(boolean allFinished) {
        if (failure.get() != null) {
            return failure.get();
        }
        if (!allFinished) {
            return timeboxHit ? "ops still in flight " + inFlightGrace.toMillis() / 1000.0 + " s after the time box of "
                    + plan.timebox().toSeconds() + " s were abandoned"
                    : "stopped before the end; ops in flight were abandoned";
        }
        if (timeboxHit) {
            return "time box of " + plan.timebox().toSeconds() + " s reached" + clampedNote();
        }
        return stopRequested ? "stopped before the end" + clampedNote() : clamped.sum() > 0 ? clampedNote().substring(2) : null;
    }

    /** Samples once an interval until the latch opens; false if {@code deadline} came first. */
    private boolean awaitPhase(CountDownLatch latch, long phaseStart, long deadline, boolean measure, Histogram total,
                               IntervalLog log, Consumer<Progress> progress) {
        long intervalNanos = plan.interval().toNanos();
        while (true) {
            try {
                if (latch.await(intervalNanos, TimeUnit.NANOSECONDS)) {
                    return true;
                }
            } catch (InterruptedException e) {
                stop();
                Thread.currentThread().interrupt();
            }
            long now = clock.getAsLong();
            if (now > deadline || (stopRequested && now - stopRequestedNanos > stopGrace.toNanos())) {
                return false;
            }
            Progress report = sample(total, log, phaseStart, measure ? targetOps() : plan.warmupOps());
            if (progress != null && report != null) {
                progress.accept(report);
            }
        }
    }

    private Progress sample(Histogram total, IntervalLog log, Long phaseStart, long target) {
        Histogram interval;
        boolean measured;
        synchronized (sampleLock) {
            interval = recorder.getIntervalHistogram(recycled);
            recycled = interval; // used below, then handed back at the next swap
            measured = measuring;
        }
        if (measured) {
            total.add(interval);
            log.write(interval);
        }
        if (phaseStart == null) {
            return null;
        }
        double seconds = Math.max(1e-9, (interval.getEndTimeStamp() - interval.getStartTimeStamp()) / 1000.0);
        long done = measured ? total.getTotalCount() + measureErrors.sum() : warmupDone.sum();
        return new Progress(measured, done, target, Duration.ofNanos(clock.getAsLong() - phaseStart),
                interval.getTotalCount() / seconds, interval.getValueAtPercentile(50), measured ? measureErrors.sum() : 0);
    }

    private long targetOps() {
        return plan.duration() == null ? plan.ops() : 0;
    }

    private Runnable workerLoop(Workload workload, int index, long warmupDeadline, long timeboxDeadline) {
        long warmupQuota = share(plan.warmupOps(), index);
        long measureQuota = plan.duration() == null ? share(plan.ops(), index) : Long.MAX_VALUE;
        return () -> {
            boolean warm = false;
            try {
                loop(workload, warmupQuota, warmupDeadline, Long.MAX_VALUE, false);
                warm = true;
                warmedUp.countDown();
                measureGate.await();
                long durationDeadline = plan.duration() == null ? Long.MAX_VALUE
                        : measureStartNanos + plan.duration().toNanos();
                loop(workload, measureQuota, timeboxDeadline, durationDeadline, true);
            } catch (InterruptedException e) {
                stop();
            } finally {
                if (!warm) {
                    warmedUp.countDown();
                }
                lastFinishNanos.accumulateAndGet(clock.getAsLong(), Math::max);
                finished.countDown();
            }
        };
    }

    private void loop(Workload workload, long quota, long timeboxDeadline, long durationDeadline, boolean measure) {
        int consecutiveErrors = 0;
        for (long n = 0; n < quota && !stopRequested && failure.get() == null; n++) {
            long begin = clock.getAsLong();
            if (begin - timeboxDeadline >= 0) {
                if (measure) {
                    timeboxHit = true;
                }
                return;
            }
            if (begin - durationDeadline >= 0) {
                return;
            }
            try {
                workload.execute();
                long micros = (clock.getAsLong() - begin) / 1000;
                if (micros > MAX_RECORDED_MICROS) {
                    micros = MAX_RECORDED_MICROS;
                    clamped.increment();
                }
                recorder.recordValue(micros);
                consecutiveErrors = 0;
            } catch (Exception e) {
                if (stopRequested) {
                    return;
                }
                if (measure) {
                    measureErrors.increment();
                    if (firstError.get() == null) {
                        firstError.compareAndSet(null, describe(e));
                    }
                }
                if (++consecutiveErrors >= MAX_CONSECUTIVE_ERRORS) {
                    failure.compareAndSet(null, consecutiveErrors + " ops in a row failed; last: " + describe(e));
                    return;
                }
                continue;
            }
            if (!measure) {
                warmupDone.increment();
            }
        }
    }

    private long share(long total, int index) {
        long base = total / plan.threads();
        return base + (index < total % plan.threads() ? 1 : 0);
    }

    public static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message.lines().findFirst().orElse(""));
    }

    /** The {@code .hlog} interval log, in HdrHistogram's own format; values are µs, max column in ms. */
    private static final class IntervalLog implements AutoCloseable {
        private final HistogramLogWriter writer;
        private final PrintStream stream;
        private final long baseMillis;

        private IntervalLog(HistogramLogWriter writer, PrintStream stream, long baseMillis) {
            this.writer = writer;
            this.stream = stream;
            this.baseMillis = baseMillis;
        }

        static IntervalLog open(Path file) {
            long now = System.currentTimeMillis();
            if (file == null) {
                return new IntervalLog(null, null, now);
            }
            try {
                PrintStream stream = new PrintStream(file.toFile(), java.nio.charset.StandardCharsets.UTF_8);
                HistogramLogWriter writer = new HistogramLogWriter(stream);
                writer.outputComment("cp-bench measured intervals; latency values in microseconds");
                writer.outputLogFormatVersion();
                writer.outputStartTime(now);
                writer.setBaseTime(now);
                writer.outputBaseTime(now);
                writer.outputLegend();
                return new IntervalLog(writer, stream, now);
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("cannot write interval log " + file + ": " + e.getMessage(), e);
            }
        }

        void write(Histogram interval) {
            if (writer != null && interval.getTotalCount() > 0) {
                writer.outputIntervalHistogram((interval.getStartTimeStamp() - baseMillis) / 1000.0,
                        (interval.getEndTimeStamp() - baseMillis) / 1000.0, interval, 1000.0);
            }
        }

        @Override
        public void close() {
            if (stream != null) {
                stream.close();
            }
        }
    }
}
