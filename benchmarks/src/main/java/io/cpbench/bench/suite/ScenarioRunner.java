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
         * @param round 1-based; 0 for the cluster warm-up
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
