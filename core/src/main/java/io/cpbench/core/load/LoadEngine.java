package io.cpbench.core.load;

import com.hazelcast.core.HazelcastInstance;
import io.cpbench.core.history.HistoryRecorder;
import io.cpbench.core.workload.Workload;
import io.soabase.recordbuilder.core.RecordBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Runs a {@link LoadSpec} on clients that are already connected: workers (clients x threads, worker i on client
 * i mod clients) run the op mix in a closed loop, or take the open loop's ops as they fall due ({@link Workers}).
 * This thread takes the numbers once an interval (and at each stage boundary, so no interval spans two stages),
 * writes the CSV and the {@code .hlog}s and reports a live line ({@link Sampling}), and at the end checks invariants
 * and thresholds ({@link RunEnding}). What they share, the phases' instants and the stop, is {@link RunState}.
 *
 * <p>Open loop: op {@code k} is due at {@link Profile#slotOffsetNanos(long)}; a free worker takes the next op,
 * waits until it is due, and runs it. Its latency counts from when it was due (coordinated-omission safe); its
 * service time from when it started; how late it started is the schedule lag. When every worker is busy, ops
 * start late and the lag and latency show it; no op is skipped. After the schedule ends, ops already due still
 * run, for at most {@link LoadSpec#drain()}; any left then are counted as never started.
 *
 * <p>Bounded closed loop ({@link LoadSpec#bounds()}): the shape of a scenario run. Warm-up is a number of ops (at most a
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
         * @param target warm-up ops asked for ({@link LoadSpec.Bounds#warmupOps()}), or 0 when warm-up is a duration
         */
        default void warmingUp(long done, long target, double elapsedSeconds, double opsPerSecond, long p50Micros) {
        }

        /** Just before the first measured op may start, on the sampling thread (to read counters at the start). */
        default void measuringStarts() {
        }

        /** Tells {@code first} and then {@code second} everything; either may be null. */
        static Listener both(Listener first, Listener second) {
            if (first == null || second == null) {
                return first == null ? second : first;
            }
            return new Listener() {
                @Override
                public void interval(IntervalReport report) {
                    first.interval(report);
                    second.interval(report);
                }

                @Override
                public void message(String line) {
                    first.message(line);
                    second.message(line);
                }

                @Override
                public void warmingUp(long done, long target, double elapsedSeconds, double opsPerSecond, long p50Micros) {
                    first.warmingUp(done, target, elapsedSeconds, opsPerSecond, p50Micros);
                    second.warmingUp(done, target, elapsedSeconds, opsPerSecond, p50Micros);
                }

                @Override
                public void measuringStarts() {
                    first.measuringStarts();
                    second.measuringStarts();
                }
            };
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

    /** After the drain (or a stop), how long ops in flight get to end before they are abandoned. */
    static final Duration IN_FLIGHT_GRACE = Duration.ofSeconds(5);

    /** {@link #IN_FLIGHT_GRACE}, or a shorter one a test of abandoned ops sets. */
    private Duration inFlightGrace = IN_FLIGHT_GRACE;

    private final LoadSpec spec;
    private final LoadOps ops;
    private final Workers.Exec executor;
    private HistoryRecorder history;
    private final Path outDir;
    private final Listener listener;
    /** The mix's ops, in the order every tally and recorder counts them. */
    private final OpType[] used;
    private final Recording recording;
    private final InFlight inFlight;
    private final RunState state;
    private final List<LockLog> lockLogs = new ArrayList<>();
    /** Lock logs' time base: real time, as {@link LoadOps} stamps lock holds with {@link System#nanoTime()}. */
    private final long origin = System.nanoTime();
    private Path hlog;
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

    private LoadEngine(LoadSpec spec, List<HazelcastInstance> clients, Path outDir, Listener listener, Workers.Exec executor,
                       LongSupplier clock) {
        boolean clientless = spec.mix().keySet().stream().allMatch(OpType::clientless);
        if (!clientless && executor == null && clients.size() != spec.clients()) {
            throw new IllegalArgumentException("the spec asks for " + spec.clients() + " clients, " + clients.size() + " given");
        }
        this.spec = spec;
        this.state = new RunState(spec.workers(), clock);
        this.ops = new LoadOps(spec, clientless ? List.of() : clients, Long.toString(System.currentTimeMillis() % 100_000_000L, 36)
                + Integer.toString((int) (Math.random() * 1296), 36));
        // a planted slow start (a test's) wraps the op; without one the op is run as it is
        this.executor = PlantedSlowStart.around(executor != null ? executor : ops::execute);
        this.outDir = outDir;
        this.listener = listener;
        this.used = spec.mix().keySet().toArray(new OpType[0]);
        this.inFlight = new InFlight(spec.workers());
        this.recording = new Recording(used, !spec.open(), spec.workers() == 1, inFlight);
    }

    /**
     * Tells the counter invariant that the members apply an op at most once (their
     * fail-on-indeterminate-operation-state is true), so an increment applied twice is a violation; by default it is a
     * duplicate that Hazelcast's at-least-once retry allows. Call before {@link #run()}.
     */
    public LoadEngine atMostOnce(boolean value) {
        ops.atMostOnce(value);
        return this;
    }

    /**
     * Records every op of the run (warm-up and setup too: they act on the same objects) as a history, for
     * {@link #historyRecorder()}. Call before {@link #run()}.
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

    /** The run's history so far (null unless {@link #recordHistory()}); taking it closes it to later ops. */
    public HistoryRecorder historyRecorder() {
        return history;
    }

    /** Asks the run to end after the ops in flight; what was measured is kept (INTERRUPTED). Any thread, any time. */
    public void stop() {
        state.stop("stopped before the end");
    }

    public boolean stopped() {
        return state.stopRequested;
    }

    /**
     * Sets up the objects, then runs the workers ({@link Workers}) while this thread samples them ({@link Sampling}):
     * warm-up, the measured phase and its drain; then judges what was measured ({@link RunEnding}). Blocks until the
     * run ends.
     */
    public LoadResult run() {
        if (outDir != null) {
            try {
                Files.createDirectories(outDir);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create " + outDir + ": " + e.getMessage(), e);
            }
        }
        ops.setUp(history == null ? null : history.setup());
        long warmupEnd = planWarmup();
        Workers workers = new Workers(spec, used, executor, recording, inFlight, history, ops, state);
        for (int i = 0; i < spec.workers(); i++) {
            LockLog log = new LockLog();
            lockLogs.add(log);
            Thread t = new Thread(workers.worker(i, log, warmupEnd), "cpbench-load-" + i);
            t.setDaemon(true);
            t.start();
        }
        Sampling sampling = new Sampling(spec, used, recording, state, listener);
        sampling.announceWarmup();
        try {
            sampling.warmUp(warmupEnd);
        } catch (InterruptedException e) {
            stop();
            Thread.currentThread().interrupt();
        }
        Instant startedAt = Instant.now();
        try (LoadOutput output = new LoadOutput(outDir, used, spec.open(), hlog)) {
            Sampling.Measured m = sampling.measure(output, inFlightGrace);
            RunEnding.Ended ended = new RunEnding(spec, used, recording, state, ops).end(m, lockLogs, origin, startedAt);
            parts = ended.parts();
            return ended.result();
        }
    }

    /**
     * Sets the warm-up's start, and the time box's end for a bounded run; the open loop's warm-up schedule (at the
     * schedule's first rate, or its peak if that is 0). Returns when warm-up ends: the spec's warm-up; for a bounded
     * run no later than its share of the time box (and with warm-up ops, at their count or then).
     */
    private long planWarmup() {
        long start = state.clock.getAsLong();
        state.warmupStart = start;
        long warmupEnd = start + spec.warmup().toNanos();
        LoadSpec.Bounds bounds = spec.bounds();
        if (bounds != null) {
            state.timeboxDeadline = start + bounds.timebox().toNanos();
            long share = (long) (bounds.timebox().toNanos() * LoadSpec.Bounds.WARMUP_SHARE_OF_TIMEBOX);
            // warm-up ops end at their count or at the share, a warm-up time at its end or at the share
            warmupEnd = start + (bounds.warmupOps() > 0 ? share : Math.min(spec.warmup().toNanos(), share));
        }
        if (spec.open() && !spec.warmup().isZero()) {
            double rate = spec.profile().startLevel() > 0 ? spec.profile().startLevel() : spec.profile().peak();
            state.warmupProfile = Profile.flat(rate, spec.warmup());
        }
        return warmupEnd;
    }
}
