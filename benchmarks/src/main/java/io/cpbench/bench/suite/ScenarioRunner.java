package io.cpbench.bench.suite;

import io.cpbench.bench.scenario.Network;
import io.cpbench.bench.scenario.Routing;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.run.Driver;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.run.StopSwitch;
import io.cpbench.topology.Topology;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runs scenarios on one topology with cp-bench's driver and writes a result for each, in three steps: set the
 * scenario up ({@link ScenarioSession#open}), drive its op ({@link Driver}), build its result ({@link ResultBuilder})
 * from the measurement and the session's checks. Every run ends in a written result, whatever happened: FAIL,
 * UNSTABLE and INCOMPLETE results say why.
 */
public final class ScenarioRunner {

    private final Topology topology;
    private final Function<Scenario, LoadSpec> plans;
    private final Path outDir;
    private final SuiteOptions options;
    private final ProgressSink progress;
    private final StopSwitch stops = new StopSwitch();

    /** Where runs report their progress: an engine listener for each run, told what is running. */
    public interface ProgressSink {
        /** Progress goes nowhere. */
        ProgressSink NONE = (scenario, round, spec) -> null;

        /**
         * @param round 1-based; 0 for the cluster warm-up, {@link #WARMUP_ROUND} for the warm-up round
         * @param spec  what the run does
         * @return the run's listener, or null for none
         */
        LoadEngine.Listener listener(Scenario scenario, int round, LoadSpec spec);
    }

    /** @param plans what each scenario's run does (a scenario through the slow member may get a shorter time box) */
    public ScenarioRunner(Topology topology, Function<Scenario, LoadSpec> plans, Path outDir, SuiteOptions options,
                          ProgressSink progress) {
        this.topology = topology;
        this.plans = plans;
        this.outDir = outDir;
        this.options = options;
        this.progress = progress;
    }

    public ScenarioRunner(Topology topology, LoadSpec plan, Path outDir, SuiteOptions options, ProgressSink progress) {
        this(topology, scenario -> plan, outDir, options, progress);
    }

    /** Stops the scenario in flight (its result is kept, INCOMPLETE) and refuses further ones. */
    public void stop() {
        stops.stop();
    }

    public boolean stopped() {
        return stops.stopped();
    }

    /**
     * Warms the cluster up ({@link ClusterWarmup#run}) with the seed's op on one thread, reporting its progress as
     * round 0 of the scenario {@code cluster-warm-up}, and its first and last line to {@code console} unless that is
     * null; {@link #stop()} reaches it while it runs.
     *
     * @return the op/s of the warm-up's second half, a rough guide to how long the scenarios will take
     */
    public double warmCluster(ClusterWarmup warmup, java.io.PrintStream console) {
        if (warmup.none() || stops.stopped()) {
            return 0;
        }
        Scenario shown = Scenario.of("cluster-warm-up", Network.PLAIN, Routing.SMART);
        LoadSpec seedOp = ClusterWarmup.seedOp(1);
        return warmup.run(console, seedOp, topology, options, progress.listener(shown, 0, warmup.spec(seedOp)),
                engine -> stops.running(engine == null ? null : engine::stop));
    }

    /**
     * One scenario of the warm-up round: untimed, through its own client (its session set up, its client path compiled,
     * its connections made), for {@code length} ({@link #warmupPlan}). Nothing
     * is written: no result, no interval log; progress goes out as round {@link #WARMUP_ROUND}.
     *
     * @return what it ran at, for the table's warm-up column
     */
    public WarmupRun warmUp(Scenario scenario, Duration length) {
        if (length.isNegative() || length.isZero()) {
            throw new IllegalArgumentException("a warm-up round's length must be above 0, was " + length);
        }
        LoadSpec untimed = warmupPlan(plans.apply(scenario), length);
        try (ScenarioSession session = ScenarioSession.open(scenario, topology, options)) {
            LoadResult run;
            try {
                run = drive(session, untimed, null, progress.listener(scenario, WARMUP_ROUND, untimed));
            } catch (RuntimeException e) {
                session.finish(true);
                return new WarmupRun(scenario.name(), 0, 0, "client could not run: " + Driver.describe(e));
            }
            session.finish(stops.stopped());
            return new WarmupRun(scenario.name(), run.opsPerSecond(), run.seconds(),
                    run.outcome() == Status.OK ? null : run.outcome() + (run.reason() == null ? "" : ": " + run.reason()));
        } catch (ScenarioSession.SetupException e) {
            return new WarmupRun(scenario.name(), 0, 0, e.getMessage());
        }
    }

    /**
     * A scenario's plan for the warm-up round: the same op, clients and threads, measured for {@code length} with no
     * warm-up of its own, in a time box of {@code length} + 10 s (a slow session set-up or a stalled op cannot hold it
     * longer).
     */
    static LoadSpec warmupPlan(LoadSpec plan, Duration length) {
        return plan.toBuilder().warmup(Duration.ZERO).duration(length).timebox(length.plusSeconds(10)).build();
    }

    /** The round number progress is given for a scenario's run in the warm-up round. */
    public static final int WARMUP_ROUND = -1;

    /**
     * A scenario's run in the warm-up round.
     *
     * @param problem why it did not run cleanly, or null
     */
    public record WarmupRun(String scenario, double opsPerSecond, double seconds, String problem) {
    }

    /** Sets the scenario up, drives it, checks it, and writes its result. */
    public RunResult run(Scenario scenario, int round) {
        LoadSpec plan = plans.apply(scenario);
        ResultBuilder result = ResultBuilder.of(scenario, round).plan(plan);
        Path hlog = outDir.resolve(String.format("%02d-%s.hlog", round, scenario.name()));
        LoadResult measurement;
        ScenarioSession.Report report;
        try (ScenarioSession session = ScenarioSession.open(scenario, topology, options)) {
            try {
                measurement = drive(session, plan, hlog, progress.listener(scenario, round, plan));
            } catch (RuntimeException e) {
                return write(result.where(session.finish(true)).status(Status.FAIL,
                        "client could not run: " + Driver.describe(e)).build());
            }
            // From here on the measurement is kept whatever happens: a failed check makes the run UNSTABLE.
            report = session.finish(stops.stopped());
        } catch (ScenarioSession.SetupException e) {
            return write(result.where(e.where()).status(Status.FAIL, e.getMessage()).build());
        }
        List<String> reasons = new ArrayList<>();
        if (measurement.reason() != null) {
            reasons.add(measurement.reason());
        }
        reasons.addAll(report.problems());
        Status status = Status.of(measurement.outcome(), !report.problems().isEmpty());
        return write(result.where(report).measured(measurement).hlog(hlog.getFileName().toString())
                .status(status, reasons.isEmpty() ? null : String.join("; ", reasons)).build());
    }

    /** Runs the seed's op through the session's client; {@link #stop()} reaches the driver while it runs. */
    private LoadResult drive(ScenarioSession session, LoadSpec plan, Path hlog, LoadEngine.Listener listener) {
        Driver driver = new Driver(plan);
        stops.running(driver::stop);
        try {
            return driver.run(session.op(), hlog, listener);
        } finally {
            stops.running(null);
        }
    }

    private RunResult write(RunResult result) {
        ResultFiles.write(outDir, result);
        return result;
    }
}
