package io.cpbench.core.run;

import io.cpbench.core.status.Status;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.OpType;
import io.cpbench.core.workload.Workload;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Runs a {@link RunPlan} (a scenario's shape: warm-up ops, then an op count or a duration, inside a time box) on
 * the one load engine, {@link LoadEngine}: a closed loop of the caller's {@link Workload} on {@link RunPlan#threads()}
 * workers, bounded by {@link LoadEngine.Bounds}. This class only translates: the plan into a spec and bounds, the
 * engine's interval reports into {@link Progress}, and its result into a {@link Measurement}.
 *
 * <p>A driver runs once. {@link #stop()} may be called from any thread (for example a Ctrl-C hook), also before
 * {@link #run}: the run ends after the ops in flight, and the measurement so far is returned as
 * {@link io.cpbench.core.status.Status#INCOMPLETE}.
 */
public final class Driver {

    /** Ops failing back to back on one thread before the run is abandoned as FAILED. */
    static final int MAX_CONSECUTIVE_ERRORS = 100;
    /** How long past the time box, or past a stop, to wait for ops still in flight before abandoning them. */
    static final Duration IN_FLIGHT_GRACE = Duration.ofSeconds(30);

    private final RunPlan plan;
    private final Duration grace;
    /** Where every time the run reads comes from: {@link System#nanoTime()}, but for measuring the engine itself. */
    private final LongSupplier clock;
    private final StopSwitch stops = new StopSwitch();

    public Driver(RunPlan plan) {
        this(plan, IN_FLIGHT_GRACE, System::nanoTime);
    }

    /**
     * A driver that reads time from {@code nanoClock} instead of {@link System#nanoTime()}: for measuring the
     * engine's own cost with op times that look like real ones (see HarnessCost in the benchmarks module). Time
     * boxes, progress and recorded latencies all follow that clock; interval swaps still happen every
     * {@link RunPlan#interval()} of real time.
     */
    public static Driver withClock(RunPlan plan, LongSupplier nanoClock) {
        return new Driver(plan, IN_FLIGHT_GRACE, nanoClock);
    }

    /** @param grace how long past the time box, or past {@link #stop()}, to wait for ops in flight */
    Driver(RunPlan plan, Duration grace) {
        this(plan, grace, System::nanoTime);
    }

    private Driver(RunPlan plan, Duration grace, LongSupplier clock) {
        this.plan = plan;
        this.grace = grace;
        this.clock = clock;
    }

    /** Asks the run to end after the ops in flight. Safe from any thread, any number of times. */
    public void stop() {
        stops.stop();
    }

    /**
     * Runs the plan. Blocks until the run ends.
     *
     * @param workload the op, shared by all threads
     * @param hlog     where to write the interval log, or null for none
     * @param progress called once an interval from this thread, or null
     */
    public Measurement run(Workload workload, Path hlog, Consumer<Progress> progress) {
        long target = plan.duration() == null ? plan.ops() : 0;
        LoadSpec.Builder b = LoadSpec.builder().op(OpType.CALL, 1).threads(plan.threads()).interval(plan.interval())
                .drain(grace).seed(1).bounds(new LoadSpec.Bounds(plan.warmupOps(), target, plan.timebox(), MAX_CONSECUTIVE_ERRORS));
        if (plan.duration() != null) {
            b.duration(plan.duration());
        }
        if (plan.warmupOps() == 0) {
            b.warmup(plan.warmup());
        }
        LoadSpec spec = b.build();
        ProgressListener listener = new ProgressListener(workload, target, plan.warmupOps(), progress);
        LoadEngine running = LoadEngine.call(spec, workload, null, listener, clock).intervalLog(hlog);
        stops.running(running::stop);
        LoadResult result = running.run();
        LoadEngine.Totals totals = running.totals();
        return MeasurementBuilder.builder().outcome(result.outcome()).reason(result.reason())
                .startedAt(Instant.parse(result.startedAt())).warmupOps(totals.warmupOps()).ops(totals.ok())
                .errors(totals.errors()).measuredNanos(Math.round(result.seconds() * 1e9)).histogram(totals.latency())
                .firstError(totals.firstError()).counters(difference(workload.counters(), listener.countersAtStart))
                .censored(totals.censored()).build();
    }

    /** The workload's counts during the measured phase alone. */
    static Map<String, Long> difference(Map<String, Long> end, Map<String, Long> start) {
        Map<String, Long> measured = new TreeMap<>();
        end.forEach((name, value) -> measured.put(name, value - start.getOrDefault(name, 0L)));
        return measured;
    }

    public static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message.lines().findFirst().orElse(""));
    }

    /** The engine's reports as {@link Progress}; reads the workload's counters as measuring starts. */
    private static final class ProgressListener implements LoadEngine.Listener {
        private final Workload workload;
        private final long target;
        private final long warmupTarget;
        private final Consumer<Progress> sink;
        private long errors;
        private volatile Map<String, Long> countersAtStart = Map.of();

        ProgressListener(Workload workload, long target, long warmupTarget, Consumer<Progress> sink) {
            this.workload = workload;
            this.target = target;
            this.warmupTarget = warmupTarget;
            this.sink = sink;
        }

        @Override
        public void warmingUp(long done, long ignored, double elapsedSeconds, double opsPerSecond, long p50Micros) {
            if (sink != null) {
                sink.accept(new Progress(false, done, warmupTarget, seconds(elapsedSeconds), opsPerSecond, p50Micros, 0));
            }
        }

        @Override
        public void measuringStarts() {
            countersAtStart = workload.counters();
        }

        @Override
        public void interval(LoadEngine.IntervalReport report) {
            errors += report.errors();
            if (sink != null) {
                sink.accept(new Progress(true, report.done(), target, seconds(report.elapsed()), report.opsPerSecond(),
                        report.latency().p50(), errors));
            }
        }

        private static Duration seconds(double value) {
            return Duration.ofNanos(Math.round(value * 1e9));
        }
    }
}
