package io.cpbench.core.run;

import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadResultBuilder;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.workload.Workload;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Runs the caller's {@link Workload} on the one load engine, {@link LoadEngine}: a closed loop on the spec's workers,
 * shaped by the spec (usually {@link LoadSpec#scenario()}: a warm-up, then an op count or a duration, inside a time
 * box). What it adds to the engine: the workload's own counters over the measured phase
 * ({@link LoadResult#counters()}), and a stop that may come before the run has started.
 *
 * <p>A driver runs once. {@link #stop()} may be called from any thread (for example a Ctrl-C hook), also before
 * {@link #run}: the run ends after the ops in flight, and what was measured so far is returned as
 * {@link io.cpbench.core.status.Status#INCOMPLETE}.
 */
public final class Driver {

    private final LoadSpec spec;
    /** Where every time the run reads comes from: {@link System#nanoTime()}, but for measuring the engine itself. */
    private final LongSupplier clock;
    private final StopSwitch stops = new StopSwitch();

    /** @param spec the run's shape; its mix is the caller's op alone ({@code call}), as {@link LoadSpec#scenario()}'s */
    public Driver(LoadSpec spec) {
        this(spec, System::nanoTime);
    }

    /**
     * A driver that reads time from {@code nanoClock} instead of {@link System#nanoTime()}: for measuring the
     * engine's own cost with op times that look like real ones (see HarnessCost in the benchmarks module). Time
     * boxes, progress and recorded latencies all follow that clock; interval swaps still happen every
     * {@link LoadSpec#interval()} of real time.
     */
    public static Driver withClock(LoadSpec spec, LongSupplier nanoClock) {
        return new Driver(spec, nanoClock);
    }

    private Driver(LoadSpec spec, LongSupplier clock) {
        this.spec = spec;
        this.clock = clock;
    }

    /** Asks the run to end after the ops in flight. Safe from any thread, any number of times. */
    public void stop() {
        stops.stop();
    }

    /**
     * Runs the spec. Blocks until the run ends.
     *
     * @param workload the op, shared by all threads
     * @param hlog     where to write the interval log, or null for none
     * @param listener told of the warm-up and of each interval, from this thread; or null
     */
    public LoadResult run(Workload workload, Path hlog, LoadEngine.Listener listener) {
        CountersAtStart counting = new CountersAtStart(workload, listener);
        LoadEngine running = LoadEngine.call(spec, workload, null, counting, clock).intervalLog(hlog);
        stops.running(running::stop);
        LoadResult result = running.run();
        return LoadResultBuilder.builder(result).counters(difference(workload.counters(), counting.atStart)).build();
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

    /** Passes the engine's reports on; reads the workload's counters as measuring starts. */
    private static final class CountersAtStart implements LoadEngine.Listener {
        private final Workload workload;
        private final LoadEngine.Listener next;
        private volatile Map<String, Long> atStart = Map.of();

        CountersAtStart(Workload workload, LoadEngine.Listener next) {
            this.workload = workload;
            this.next = next;
        }

        @Override
        public void warmingUp(long done, long target, double elapsedSeconds, double opsPerSecond, long p50Micros) {
            if (next != null) {
                next.warmingUp(done, target, elapsedSeconds, opsPerSecond, p50Micros);
            }
        }

        @Override
        public void measuringStarts() {
            atStart = workload.counters();
            if (next != null) {
                next.measuringStarts();
            }
        }

        @Override
        public void interval(LoadEngine.IntervalReport report) {
            if (next != null) {
                next.interval(report);
            }
        }

        @Override
        public void message(String line) {
            if (next != null) {
                next.message(line);
            }
        }
    }
}
