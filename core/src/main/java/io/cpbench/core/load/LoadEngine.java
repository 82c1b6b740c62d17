package io.cpbench.core.load;

import com.hazelcast.core.HazelcastInstance;
import io.cpbench.core.history.Event;
import io.cpbench.core.history.HistoryRecorder;
import io.cpbench.core.stats.Censored;
import io.cpbench.core.workload.Workload;
import io.soabase.recordbuilder.core.RecordBuilder;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Runs a {@link LoadSpec} on clients that are already connected: workers (clients x threads, worker i on client
 * i mod clients) run the op mix in a closed loop, or take the open loop's ops as they fall due. This thread takes
 * the numbers once an interval (and at each stage boundary, so no interval spans two stages), writes the CSV and
 * the {@code .hlog}s, reports a live line, and at the end checks invariants and thresholds.
 *
 * <p>Open loop: op {@code k} is due at {@link Profile#slotOffsetNanos(long)}; a free worker takes the next op,
 * waits until it is due, and runs it. Its latency counts from when it was due (coordinated-omission safe); its
 * service time from when it started; how late it started is the schedule lag. When every worker is busy, ops
 * start late and the lag and latency show it; no op is skipped. After the schedule ends, ops already due still
 * run, for at most {@link LoadSpec#drain()}; any left then are counted as never started.
 *
 * <p>Bounded closed loop ({@link #bounded}): the shape of a scenario run. Warm-up is a number of ops (at most a
 * share of the time box), measuring is a number of ops or the spec's duration, and the whole run never passes the
 * time box: a run that reaches it ends {@code TIMEBOXED}, with what it measured kept. Ops that keep failing end
 * the run {@code FAILED}.
 *
 * <p>The timed path: clock reads, a random pick of op and object (skipped when there is one of each), the op, and
 * recorder writes into fixed-range HdrHistogram recorders (no lock, no allocation; one recorder in a closed loop,
 * where an op's latency is its service time), plus a primitive-array append for lock ops.
 */
public final class LoadEngine {

    /** What the engine reports once an interval. */
    public interface Listener {
        void interval(IntervalReport report);

        /** A line worth showing (warm-up started, measuring started, the drain). */
        default void message(String line) {
        }

        /**
         * Once an interval during warm-up, whose numbers are then discarded.
         *
         * @param done   warm-up ops that succeeded so far
         * @param target warm-up ops asked for ({@link Bounds#warmupOps()}), or 0 when warm-up is a duration
         */
        default void warmingUp(long done, long target, double elapsedSeconds, double opsPerSecond, long p50Micros) {
        }

        /** Just before the first measured op may start, on the sampling thread (to read counters at the start). */
        default void measuringStarts() {
        }
    }

    /**
     * A closed loop bounded by op counts and a time box: a scenario run's shape.
     *
     * @param warmupOps            ops run and discarded first, shared over the workers; warm-up ends early at
     *                             {@link #WARMUP_SHARE_OF_TIMEBOX} of the time box, so a slow run still gets measured
     * @param ops                  ops to measure, shared over the workers; 0 to measure for the spec's duration
     * @param timebox              the most the run may take, warm-up included
     * @param maxConsecutiveErrors ops failing back to back on one worker before the run ends FAILED; 0 for never
     * @param grace                how long past the time box, or past a stop, ops in flight get before they are
     *                             abandoned
     */
    public record Bounds(long warmupOps, long ops, Duration timebox, int maxConsecutiveErrors, Duration grace) {

        /** Warm-up may use at most this share of the time box. */
        public static final double WARMUP_SHARE_OF_TIMEBOX = 0.2;

        public Bounds {
            if (warmupOps < 0 || ops < 0) {
                throw new IllegalArgumentException("op counts must be 0 or more, were " + warmupOps + " and " + ops);
            }
            if (timebox == null || timebox.isNegative() || timebox.isZero()) {
                throw new IllegalArgumentException("time box must be positive, was " + timebox);
            }
            if (maxConsecutiveErrors < 0) {
                throw new IllegalArgumentException("max consecutive errors must be 0 or more, was " + maxConsecutiveErrors);
            }
            if (grace == null || grace.isNegative()) {
                throw new IllegalArgumentException("grace must be 0 or more, was " + grace);
            }
        }
    }

    /**
     * One interval, all ops together.
     *
     * @param elapsed seconds since measuring began
     * @param stage   1-based
     * @param level   the profile's level at the interval's end: workers, or target op/s
     * @param lag     schedule lag in the interval (open loop), or null
     * @param done    measured ops finished so far, errors included
     */
    @RecordBuilder
    public record IntervalReport(double elapsed, int stage, int stages, boolean open, double level, double opsPerSecond,
                                 long errors, LoadResult.LoadLatency latency, LoadResult.LoadLatency lag, long inFlight,
                                 long done) {

        /** {@code  12s  stage 2/3  target 1,500 op/s | 1,497 op/s  p50 0.91ms  p99 3.10ms  max 12.0ms  errors 0  lag p99 0.21ms}. */
        public String line() {
            String target = open ? String.format(Locale.ROOT, "target %,.0f op/s", level)
                    : String.format(Locale.ROOT, "%,d workers", Math.round(level));
            String lagText = lag == null ? "" : "  lag p99 " + ms(lag.p99());
            return String.format(Locale.ROOT, "%6.0fs  stage %d/%d  %s | %,9.0f op/s  p50 %s  p99 %s  max %s  errors %,d%s  in flight %d",
                    elapsed, stage, stages, target, opsPerSecond, ms(latency.p50()), ms(latency.p99()), ms(latency.max()),
                    errors, lagText, inFlight);
        }

        static String ms(long micros) {
            return LoadSummary.ms(micros);
        }
    }

    /** Runs one op: {@link LoadOps#execute} but in tests of the engine itself. */
    @FunctionalInterface
    interface OpExecutor {
        void execute(OpType op, int client, int object, LockLog lockLog) throws Exception;
    }

    /** What the engine runs each op with: {@link LoadOps#execute}, or a test's stand-in. */
    @FunctionalInterface
    private interface Exec {
        long execute(OpType op, int client, int object, LockLog lockLog, long a, long b) throws Exception;
    }

    /** After the drain (or a stop), how long ops in flight get to end before they are abandoned. */
    static final Duration IN_FLIGHT_GRACE = Duration.ofSeconds(5);

    /** {@link #IN_FLIGHT_GRACE}, or a shorter one a test of abandoned ops sets. */
    private Duration inFlightGrace = IN_FLIGHT_GRACE;

    private final LoadSpec spec;
    private final LoadOps ops;
    private final Exec executor;
    private HistoryRecorder history;
    private final Path outDir;
    private final Listener listener;
    private final OpType[] used;
    private final int[] cumulativeWeights;
    private final Recording recording;
    private final List<LockLog> lockLogs = new ArrayList<>();
    private final AtomicLong nextSlot = new AtomicLong();
    private final AtomicLong warmupSlot = new AtomicLong();
    private volatile Profile warmupProfile;
    private volatile long warmupStart;
    private final LongAdder started = new LongAdder();
    private final LongAdder finished = new LongAdder();
    private final InFlight inFlight;
    private final CountDownLatch warmedUp;
    private final CountDownLatch done;
    private final CountDownLatch measureGate = new CountDownLatch(1);
    private volatile boolean stopRequested;
    private volatile String stopReason;
    private volatile boolean aborted;
    private volatile long measureStart;
    private volatile long measureEnd = Long.MAX_VALUE;
    private volatile long drainDeadline = Long.MAX_VALUE;
    /** Lock logs' time base: real time, as {@link LoadOps} stamps lock holds with {@link System#nanoTime()}. */
    private final long origin = System.nanoTime();
    /** Where every time the engine measures comes from: {@link System#nanoTime()}, but for measuring the engine itself. */
    private final LongSupplier clock;
    private Bounds bounds;
    private volatile long timeboxDeadline = Long.MAX_VALUE;
    private volatile boolean timeboxHit;
    private final AtomicReference<String> failure = new AtomicReference<>();
    private final LongAdder warmupDone = new LongAdder();
    private Path hlog;
    private Tally measured;
    private volatile LoadParts parts;

    /**
     * @param clients connected clients, one per {@link LoadSpec#clients()}; empty for a {@code noop} mix
     * @param outDir  where to write {@code load.csv} and the {@code .hlog}s, or null for none
     */
    public LoadEngine(LoadSpec spec, List<HazelcastInstance> clients, Path outDir, Listener listener) {
        this(spec, clients, outDir, listener, null);
    }

    /** @param executor runs each op instead of the CP ops (tests of the engine); null for the real ops */
    LoadEngine(LoadSpec spec, List<HazelcastInstance> clients, Path outDir, Listener listener, OpExecutor executor) {
        this(spec, clients, outDir, listener, executor == null ? null : (op, client, object, log, a, b) -> {
            executor.execute(op, client, object, log);
            return 0;
        }, System::nanoTime);
    }

    /**
     * An engine that runs the caller's op, {@code op}, on every worker: the spec's mix must be {@link OpType#CALL}
     * alone. No clients: the op brings its own.
     *
     * @param clock where the engine reads time: {@code System::nanoTime}, or a clock for measuring the engine itself
     *              (recorded latencies, the time box and elapsed times follow it; the interval between samples is
     *              real time)
     */
    public static LoadEngine call(LoadSpec spec, Workload op, Path outDir, Listener listener, LongSupplier clock) {
        if (!spec.mix().keySet().equals(java.util.Set.of(OpType.CALL))) {
            throw new IllegalArgumentException("a caller's op runs alone: the mix must be call only, was " + spec.mix().keySet());
        }
        return new LoadEngine(spec, List.of(), outDir, listener, (type, client, object, log, a, b) -> {
            op.execute();
            return 0;
        }, clock);
    }

    private LoadEngine(LoadSpec spec, List<HazelcastInstance> clients, Path outDir, Listener listener, Exec executor,
                       LongSupplier clock) {
        boolean clientless = spec.mix().keySet().stream().allMatch(OpType::clientless);
        if (!clientless && executor == null && clients.size() != spec.clients()) {
            throw new IllegalArgumentException("the spec asks for " + spec.clients() + " clients, " + clients.size() + " given");
        }
        this.spec = spec;
        this.clock = clock;
        this.ops = new LoadOps(spec, clientless ? List.of() : clients, Long.toString(System.currentTimeMillis() % 100_000_000L, 36)
                + Integer.toString((int) (Math.random() * 1296), 36));
        this.executor = executor != null ? executor : ops::execute;
        this.outDir = outDir;
        this.listener = listener;
        this.used = spec.mix().keySet().toArray(new OpType[0]);
        this.cumulativeWeights = new int[used.length];
        int sum = 0;
        for (int i = 0; i < used.length; i++) {
            sum += spec.mix().get(used[i]);
            cumulativeWeights[i] = sum;
        }
        this.inFlight = new InFlight(spec.workers());
        this.recording = new Recording(used, !spec.open(), spec.workers() == 1, inFlight);
        this.warmedUp = new CountDownLatch(spec.workers());
        this.done = new CountDownLatch(spec.workers());
    }

    /**
     * Records every op of the run (warm-up and setup too: they act on the same objects) as a history, for
     * {@link #history()}. Call before {@link #run()}.
     */
    public LoadEngine recordHistory() {
        history = new HistoryRecorder(spec.workers());
        return this;
    }

    /**
     * Sends the ops on each CP group's objects through that group's clients instead: for every group named here,
     * one client per {@link LoadSpec#clients()} (worker i uses the i mod clients'th); objects in other groups keep
     * the clients the engine was built with. A per-group route: each group's client can follow its own group's
     * leader, which one client's load balancer, given no call context, cannot. Call before {@link #run()}.
     */
    public LoadEngine routeByGroup(java.util.Map<String, List<HazelcastInstance>> clientsByGroup) {
        clientsByGroup.forEach((group, list) -> {
            if (list.size() != spec.clients()) {
                throw new IllegalArgumentException("CP group " + group + " has " + list.size() + " clients; the spec asks for "
                        + spec.clients());
            }
        });
        ops.routeByGroup(clientsByGroup);
        return this;
    }

    /**
     * Bounds the run by op counts and a time box instead of the spec's warm-up duration ({@link Bounds}); the spec
     * must be a closed loop. Call before {@link #run()}.
     */
    public LoadEngine bounded(Bounds value) {
        if (spec.open()) {
            throw new IllegalArgumentException("op-count bounds need a closed loop");
        }
        bounds = value;
        return this;
    }

    /** For tests of abandoned ops: how long ops in flight get after the drain, instead of {@link #IN_FLIGHT_GRACE}. */
    LoadEngine inFlightGrace(Duration grace) {
        this.inFlightGrace = grace;
        return this;
    }

    /**
     * Writes every measured interval, all ops together, to this HdrHistogram interval log (values µs, max column
     * ms). Call before {@link #run()}.
     */
    public LoadEngine intervalLog(Path file) {
        hlog = file;
        return this;
    }

    /**
     * What the measured phase recorded, all ops together. Read after {@link #run()}.
     *
     * @param latency    latency of every successful measured op, and of every op abandoned in flight at its latency so
     *                   far, µs (the sum of the interval log's intervals)
     * @param ok         measured ops that succeeded
     * @param errors     measured ops that threw
     * @param warmupOps  warm-up ops that succeeded (bounded runs; 0 otherwise)
     * @param firstError the first measured error, described; null if none
     * @param censored   the ops abandoned in flight, in {@code latency} at a lower bound; null when none
     */
    public record Totals(Histogram latency, long ok, long errors, long warmupOps, String firstError, Censored censored) {
    }

    /** Adds what {@code interval} ended without error to {@code soFar}, and the sums, at {@code at}, to the timeline. */
    private static void sample(List<LoadParts.Sample> timeline, long[] soFar, Tally interval, double at) {
        List<Long> ok = new ArrayList<>(soFar.length);
        for (int i = 0; i < soFar.length; i++) {
            soFar[i] += interval.ok(i);
            ok.add(soFar[i]);
        }
        timeline.add(new LoadParts.Sample(at, ok));
    }

    /**
     * What the run measured per stage, in a form that adds up with other generators' ({@link LoadMerge}).
     *
     * @throws IllegalStateException before {@link #run()} has returned
     */
    public LoadParts parts() {
        if (parts == null) {
            throw new IllegalStateException("the engine has not run");
        }
        return parts;
    }

    /** @throws IllegalStateException before {@link #run()} has returned */
    public Totals totals() {
        if (measured == null) {
            throw new IllegalStateException("the run has not ended");
        }
        Histogram all = new Histogram(Recording.MAX_MICROS, 3);
        Censored censored = null;
        for (int i = 0; i < measured.latency.length; i++) {
            all.add(measured.latency[i]);
            censored = Censored.merge(censored, measured.censored[i]);
        }
        return new Totals(all, measured.okOps(), measured.allErrors(), warmupDone.sum(), recording.firstError(), censored);
    }

    /** The run's history so far (null unless {@link #recordHistory()}); taking it closes it to later ops. */
    public HistoryRecorder historyRecorder() {
        return history;
    }

    /** Asks the run to end after the ops in flight; what was measured is kept (INTERRUPTED). Any thread, any time. */
    public void stop() {
        stop("stopped before the end");
    }

    private void stop(String reason) {
        if (!stopRequested) {
            stopReason = reason;
            stopRequestedAtNanos = clock.getAsLong();
        }
        stopRequested = true;
        measureGate.countDown();
    }

    /** Ends the run as FAILED: ops keep failing, so there is nothing to measure. */
    private void fail(String reason) {
        if (failure.compareAndSet(null, reason)) {
            stopRequestedAtNanos = clock.getAsLong();
        }
        stopRequested = true;
        measureGate.countDown();
    }

    public boolean stopped() {
        return stopRequested;
    }

    /** Sets up the objects, runs warm-up and the schedule, checks. Blocks until the run ends. */
    public LoadResult run() {
        if (outDir != null) {
            try {
                Files.createDirectories(outDir);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create " + outDir + ": " + e.getMessage(), e);
            }
        }
        ops.setUp(history == null ? null : history.setup());
        warmupStart = clock.getAsLong();
        long warmupEnd = warmupStart + spec.warmup().toNanos();
        if (bounds != null) {
            timeboxDeadline = warmupStart + bounds.timebox().toNanos();
            warmupEnd = bounds.warmupOps() == 0 ? warmupStart
                    : warmupStart + (long) (bounds.timebox().toNanos() * Bounds.WARMUP_SHARE_OF_TIMEBOX);
        }
        if (spec.open() && !spec.warmup().isZero()) {
            // open loop at the schedule's first rate (or its peak, if it starts from 0)
            double rate = spec.profile().startLevel() > 0 ? spec.profile().startLevel() : spec.profile().peak();
            warmupProfile = Profile.flat(rate, spec.warmup());
        }
        for (int i = 0; i < spec.workers(); i++) {
            LockLog log = new LockLog();
            lockLogs.add(log);
            Thread t = new Thread(worker(i, log, warmupEnd), "cpbench-load-" + i);
            t.setDaemon(true);
            t.start();
        }
        if (bounds != null && bounds.warmupOps() > 0) {
            message(String.format(Locale.ROOT, "warming up: %,d ops, closed loop, %d worker%s", bounds.warmupOps(),
                    spec.workers(), spec.workers() == 1 ? "" : "s"));
        } else if (bounds == null && !spec.warmup().isZero()) {
            message(warmupProfile != null
                    ? String.format(Locale.ROOT, "warming up for %s: open loop at %,.0f op/s", Durations.format(spec.warmup()),
                    warmupProfile.startLevel())
                    : String.format(Locale.ROOT, "warming up for %s: closed loop, %d worker%s", Durations.format(spec.warmup()),
                    spec.workers(), spec.workers() == 1 ? "" : "s"));
        }
        try {
            // Takes the numbers once an interval during warm-up too, and throws them away: the sampling code is then
            // compiled before the first measured interval instead of competing with the workers in it.
            long warmupDeadline = warmupEnd + spec.drain().toNanos() + Duration.ofSeconds(1).toNanos();
            boolean warm = false;
            Tally discarded = new Tally(used, !spec.open());
            long lastSample = clock.getAsLong();
            long warmOk = 0;
            long target = bounds == null ? 0 : bounds.warmupOps();
            while (!warm && clock.getAsLong() < warmupDeadline) {
                // real time between samples; the deadline follows the engine's clock
                warm = warmedUp.await(Math.min(spec.interval().toNanos(), Math.max(1, warmupDeadline - clock.getAsLong())),
                        TimeUnit.NANOSECONDS);
                recording.take(discarded.reset());
                long now = clock.getAsLong();
                discarded.nanos = now - lastSample;
                lastSample = now;
                warmOk += discarded.okOps();
                LoadResult.OpStats all = discarded.stats(1, 0, 0, spec.open()).all();
                if (listener != null && !warm) {
                    listener.warmingUp(warmOk, target,
                            (now - warmupStart) / 1e9, all.opsPerSecond(), all.latency().p50());
                }
            }
            if (!warm) {
                message("warm-up: some ops were still in flight " + Durations.format(spec.drain())
                        + " after it ended; measuring anyway");
            }
        } catch (InterruptedException e) {
            stop();
            Thread.currentThread().interrupt();
        }
        Profile profile = spec.profile();
        Tally[] stages = new Tally[profile.stages().size()];
        for (int s = 0; s < stages.length; s++) {
            stages[s] = new Tally(used, !spec.open());
        }
        Instant startedAt = Instant.now();
        try (LoadOutput output = new LoadOutput(outDir, used, spec.open(), hlog)) {
            recording.reset();
            List<LoadParts.Sample> timeline = new ArrayList<>();
            long[] okSoFar = new long[used.length];
            long startedBefore = started.sum();
            long measuredDone = 0;
            if (listener != null) {
                listener.measuringStarts();
            }
            measureStart = clock.getAsLong();
            // An op count runs until its ops are done or the time box ends it, however long the spec's schedule.
            measureEnd = bounds != null && bounds.ops() > 0 ? timeboxDeadline
                    : Math.min(measureStart + profile.totalNanos(), timeboxDeadline);
            drainDeadline = measureEnd + (bounds != null ? bounds.grace() : spec.drain()).toNanos();
            measureGate.countDown();
            if (!stopRequested) {
                message("measuring: " + spec.summary());
            }
            long last = measureStart;
            boolean draining = false;
            Tally interval = new Tally(used, !spec.open());
            long lastReal = System.nanoTime();
            while (true) {
                long next = nextSample(last, profile);
                // An interval of real time, or less up to the next stage boundary on the engine's clock.
                long wait = Math.min(spec.interval().toNanos() - (System.nanoTime() - lastReal), next - clock.getAsLong());
                boolean allDone = awaitDone(wait);
                lastReal = System.nanoTime();
                long now = clock.getAsLong();
                recording.take(interval.reset());
                interval.nanos = now - last;
                measuredDone += interval.okOps() + interval.allErrors();
                sample(timeline, okSoFar, interval, (now - measureStart) / 1e9);
                int stage = Math.min(profile.stageAt(last - measureStart), stages.length - 1);
                stages[stage].add(interval);
                output.write(interval, (now - measureStart) / 1e9, stage + 1, profile.levelAt(now - measureStart));
                boolean worthALine = now - last >= spec.interval().toNanos() / 2 || interval.okOps() + interval.allErrors() > 0;
                if (listener != null && worthALine) {
                    LoadResult.StageStats st = interval.stats(stage + 1, 0, 0, spec.open());
                    listener.interval(LoadEngineIntervalReportBuilder.builder().elapsed((now - measureStart) / 1e9)
                            .stage(stage + 1).stages(stages.length).open(spec.open())
                            .level(profile.levelAt(Math.min(now, measureEnd) - measureStart))
                            .opsPerSecond(st.all().opsPerSecond()).errors(st.all().errors())
                            .latency(st.all().latency()).lag(st.lag()).inFlight(inFlight()).done(measuredDone).build());
                }
                last = now;
                if (spec.abortOnFail() && !stopRequested) {
                    checkEarly(stages, profile, now);
                }
                Duration stopDrain = bounds != null ? bounds.grace() : spec.drain();
                if (allDone || now >= drainDeadline || (stopRequested && now - stopRequestedAtNanos > stopDrain.toNanos())) {
                    break;
                }
                if (!draining && now >= measureEnd && !stopRequested && inFlight() > 0) {
                    draining = true;
                    message(String.format(Locale.ROOT, "schedule done; finishing the %,d op%s in flight%s (at most %s)",
                            inFlight(), inFlight() == 1 ? "" : "s",
                            spec.open() ? " or already due" : "", Durations.format(spec.drain())));
                }
            }
            if (bounds != null && inFlight() > 0 && !stopRequested && clock.getAsLong() >= timeboxDeadline) {
                timeboxHit = true; // ops stuck past the time box and its grace, on every worker
            }
            stopRequested = true; // no new ops; those in flight get a moment to end, then are abandoned
            // (bounded: the grace was given above)
            awaitDone(bounds != null ? 0 : inFlightGrace.toNanos());
            long tailEnd = clock.getAsLong();
            Tally tail = interval.reset();
            // Ops still in flight are abandoned: each counts at its latency so far, a lower bound, never dropped.
            // Claimed before the last take, so one that ends meanwhile is counted once (Recording).
            recording.abandon((op, since) -> tail.censor(op, Recording.clampMicros(tailEnd - since)));
            recording.take(tail); // ops that ended since the last interval
            if (tail.okOps() + tail.allErrors() + tail.censoredOps() > 0) {
                tail.nanos = tailEnd - last;
                stages[stages.length - 1].add(tail);
                sample(timeline, okSoFar, tail, (tailEnd - measureStart) / 1e9);
                output.write(tail, (tailEnd - measureStart) / 1e9, stages.length, profile.levelAt(tailEnd - measureStart));
                last = tailEnd;
            }
            long endNanos = last;
            long measuredStarted = started.sum() - startedBefore;
            long abandoned = inFlight();
            List<LoadResult.StageStats> stageStats = new ArrayList<>();
            Tally whole = new Tally(used, !spec.open());
            for (int s = 0; s < stages.length; s++) {
                stageStats.add(stages[s].stats(s + 1, s == 0 ? profile.startLevel() : profile.stages().get(s - 1).target(),
                        profile.stages().get(s).target(), spec.open()));
                whole.add(stages[s]);
            }
            whole.nanos = endNanos - measureStart;
            LoadResult.StageStats total = whole.stats(0, profile.startLevel(), profile.stages().get(stages.length - 1).target(),
                    spec.open());
            LoadResult.ScheduleStats schedule = null;
            if (spec.open()) {
                long due = stopReason != null ? dueBy(profile, Math.min(endNanos, measureEnd) - measureStart)
                        : (long) Math.ceil(profile.totalOps());
                schedule = new LoadResult.ScheduleStats(due, measuredStarted, Math.max(0, due - measuredStarted),
                        recording.late.sum(), abandoned, LoadResult.LoadLatency.of(whole.lag));
            }
            List<LoadResult.InvariantResult> invariants = new ArrayList<>(ops.checkCounters(Duration.ofSeconds(10)));
            if (spec.mix().containsKey(OpType.LOCK)) {
                invariants.add(Invariants.locks(lockLogs, ops::objectName, spec.objects(), origin));
            }
            List<LoadResult.ThresholdResult> thresholds = new ArrayList<>();
            for (Threshold t : spec.thresholds()) {
                thresholds.add(t.judge(t.stage() == 0 ? total : stageStats.get(t.stage() - 1)));
            }
            Map<String, String> histograms = new LinkedHashMap<>();
            for (int i = 0; i < used.length; i++) {
                histograms.put(used[i].key(), io.cpbench.core.stats.HistogramCodec.encode(whole.latency[i]));
            }
            measured = whole;
            List<LoadParts.Stage> stageParts = new ArrayList<>();
            for (Tally stage : stages) {
                stageParts.add(LoadParts.of(stage, !spec.open()));
            }
            parts = new LoadParts(stageParts, schedule, ChronoUnit.MICROS.between(Instant.EPOCH, startedAt),
                    (Math.min(endNanos, measureEnd) - measureStart) / 1e9, timeline);
            Outcome outcome;
            String reason;
            if (failure.get() != null) {
                outcome = Outcome.FAILED;
                reason = failure.get();
            } else if (timeboxHit) {
                outcome = Outcome.TIMEBOXED;
                reason = abandoned > 0 ? "ops still in flight " + bounds.grace().toMillis() / 1000.0
                        + " s after the time box of " + bounds.timebox().toSeconds() + " s were abandoned"
                        : "time box of " + bounds.timebox().toSeconds() + " s reached";
            } else if (aborted) {
                outcome = Outcome.ABORTED;
                reason = stopReason;
            } else if (stopReason != null) {
                outcome = Outcome.INTERRUPTED;
                reason = abandoned > 0 ? stopReason + "; ops in flight were abandoned" : stopReason;
            } else {
                outcome = Outcome.COMPLETED;
                reason = abandoned > 0 ? String.format(Locale.ROOT, "%,d op%s still in flight %s after the end were"
                        + " abandoned (outcome unknown)", abandoned, abandoned == 1 ? "" : "s", Durations.format(spec.drain())) : null;
            }
            if (recording.clamped.sum() > 0) {
                reason = (reason == null ? "" : reason + "; ") + recording.clamped.sum() + " latencies over an hour recorded as one hour";
            }
            return LoadResultBuilder.builder().outcome(outcome).reason(reason).spec(spec.describe())
                    .startedAt(startedAt.toString()).seconds((endNanos - measureStart) / 1e9).stages(stageStats)
                    .total(total).schedule(schedule).thresholds(thresholds).invariants(invariants)
                    .histograms(histograms).build();
        }
    }

    /** When {@link #stop} was first called: the drain after a stop counts from here. */
    private volatile long stopRequestedAtNanos;

    /** Ops started and not finished (finished is read first, so never negative); bounded: the workers still running. */
    private long inFlight() {
        if (bounds != null) {
            // each worker of a bounded closed loop has at most one op in flight, and ops are not counted one by one
            return done.getCount();
        }
        long f = finished.sum();
        return started.sum() - f;
    }

    /** Ops of the profile due within {@code elapsed} ns. */
    static long dueBy(Profile profile, long elapsed) {
        long lo = 0;
        long hi = (long) Math.ceil(profile.totalOps());
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (profile.slotOffsetNanos(mid) < elapsed) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The next time to take numbers: an interval on, but never past a stage boundary or the end. */
    private long nextSample(long last, Profile profile) {
        long next = last + spec.interval().toNanos();
        long elapsed = last - measureStart;
        if (elapsed < profile.totalNanos()) {
            int stage = profile.stageAt(elapsed);
            next = Math.min(next, measureStart + profile.stageStartNanos(stage + 1));
        }
        return next;
    }

    /** Waits at most {@code wait} ns (real time) for every worker to end; whether they all have. */
    private boolean awaitDone(long wait) {
        try {
            return done.await(Math.max(wait, 0), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            stop();
            Thread.currentThread().interrupt();
            return done.getCount() == 0;
        }
    }

    /** {@code abortOnFail}: upper-bound thresholds judged on the numbers so far. */
    private void checkEarly(Tally[] stages, Profile profile, long now) {
        int current = profile.stageAt(now - measureStart);
        Tally whole = null;
        for (Threshold t : spec.thresholds()) {
            if (!t.canAbortEarly() || (t.stage() > 0 && t.stage() - 1 > current)) {
                continue;
            }
            LoadResult.StageStats stats;
            if (t.stage() > 0) {
                stats = stages[t.stage() - 1].stats(t.stage(), 0, 0, spec.open());
            } else {
                if (whole == null) {
                    whole = new Tally(used, !spec.open());
                    for (Tally s : stages) {
                        whole.add(s);
                    }
                    whole.nanos = now - measureStart;
                }
                stats = whole.stats(0, 0, 0, spec.open());
            }
            LoadResult.ThresholdResult verdict = t.judge(stats);
            if (!verdict.passed() && !verdict.actual().equals("no ops measured")) {
                aborted = true;
                stop(String.format(Locale.ROOT, "threshold '%s' crossed after %.0f s (%s); aborted", t.text(),
                        (now - measureStart) / 1e9, verdict.actual()));
                message("aborting: " + stopReason);
                return;
            }
        }
    }

    private void message(String line) {
        if (listener != null) {
            listener.message(line);
        }
    }

    private Runnable worker(int index, LockLog lockLog, long warmupEnd) {
        int client = ops.clientCount() == 0 ? 0 : index % ops.clientCount();
        HistoryRecorder.Lane lane = history == null ? null : history.lane(index);
        SplittableRandom random = new SplittableRandom(spec.seed() * 1_000_003L + index);
        return () -> {
            boolean warm = false;
            try {
                if (spec.open() && warmupProfile != null) {
                    openLoop(index, random, client, lane, lockLog,
                            new Slots(warmupProfile, warmupStart, warmupSlot, warmupEnd));
                } else if (bounds != null) {
                    boundedLoop(index, random, client, lane, lockLog, share(bounds.warmupOps(), index), warmupEnd, false);
                } else {
                    long now;
                    while (!stopRequested && (now = clock.getAsLong()) < warmupEnd) {
                        countedOp(index, random, client, lane, lockLog, now, now);
                    }
                }
                warm = true;
                warmedUp.countDown();
                measureGate.await();
                if (spec.open()) {
                    openLoop(index, random, client, lane, lockLog,
                            new Slots(spec.profile(), measureStart, nextSlot, drainDeadline));
                } else if (bounds != null) {
                    boundedLoop(index, random, client, lane, lockLog, bounds.ops() == 0 ? Long.MAX_VALUE : share(bounds.ops(), index),
                            measureEnd, true);
                } else {
                    closedLoop(index, random, client, lane, lockLog);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (!warm) {
                    warmedUp.countDown();
                }
                done.countDown();
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
        for (long n = 0; n < quota && !stopRequested; n++) {
            long now = clock.getAsLong();
            if (now >= end) {
                if (measure && now >= timeboxDeadline) {
                    timeboxHit = true;
                }
                return;
            }
            Exception error = runOp(index, random, client, lane, lockLog, now, now);
            if (error == null) {
                consecutiveErrors = 0;
                if (!measure) {
                    warmupDone.increment();
                }
            } else if (maxErrors > 0 && ++consecutiveErrors >= maxErrors) {
                fail(consecutiveErrors + " ops in a row failed; last: " + Errors.describe(error));
                return;
            }
        }
    }

    private void closedLoop(int index, SplittableRandom random, int client, HistoryRecorder.Lane lane, LockLog lockLog) {
        Profile profile = spec.profile();
        long start = measureStart;
        long end = measureEnd;
        while (!stopRequested) {
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
     * Takes ops as they fall due: measuring, or warming up. Warm-up takes the same path and records the same way
     * (numbers discarded at the start of measuring), so the JIT has compiled what is measured, with no branch
     * left cold to deoptimise on in the first measured second.
     */
    /**
     * One phase of an open loop's schedule: the profile that places slots, the phase's start, the counter that hands
     * out slot numbers (shared by the workers), and the time after which no op starts.
     */
    private record Slots(Profile profile, long start, AtomicLong next, long deadline) {
    }

    private void openLoop(int index, SplittableRandom random, int client, HistoryRecorder.Lane lane, LockLog lockLog,
                          Slots phase) {
        Profile profile = phase.profile();
        long start = phase.start();
        AtomicLong slots = phase.next();
        long deadline = phase.deadline();
        while (!stopRequested) {
            long offset = profile.slotOffsetNanos(slots.getAndIncrement());
            if (offset == Long.MAX_VALUE) {
                return;
            }
            long due = start + offset;
            long now;
            while ((now = clock.getAsLong()) < due) {
                if (stopRequested) {
                    return;
                }
                long wait = due - now;
                if (wait > 20_000) {
                    LockSupport.parkNanos(Math.min(wait - 10_000, 100_000_000L));
                } else {
                    Thread.onSpinWait();
                }
            }
            if (now >= deadline || stopRequested) {
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
        started.increment();
        try {
            runOp(worker, random, client, lane, lockLog, due, begin);
        } finally {
            finished.increment();
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
