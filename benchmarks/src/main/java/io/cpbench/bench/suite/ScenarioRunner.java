package io.cpbench.bench.suite;

import io.cpbench.bench.scenario.Network;
import io.cpbench.bench.scenario.Routing;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import io.cpbench.core.run.Driver;
import io.cpbench.core.run.Measurement;
import io.cpbench.core.status.Status;
import io.cpbench.core.run.Progress;
import io.cpbench.core.run.RunPlan;
import io.cpbench.core.run.StopSwitch;
import io.cpbench.topology.Topology;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs scenarios on one topology with cp-bench's driver and writes a result for each, in three steps: set the
 * scenario up ({@link ScenarioSession#open}), drive its op ({@link Driver}), build its result ({@link ResultBuilder})
 * from the measurement and the session's checks. Every run ends in a written result, whatever happened: FAIL,
 * UNSTABLE and INCOMPLETE results say why.
 */
public final class ScenarioRunner {

    /** The cluster warm-up's own time box: the scenarios' is about measuring, and a short one must not cut it. */
    static final Duration CLUSTER_WARMUP_TIMEBOX = Duration.ofMinutes(10);

    private final Topology topology;
    private final Function<Scenario, RunPlan> plans;
    private final Path outDir;
    private final SuiteOptions options;
    private final ProgressSink progress;
    private final StopSwitch stops = new StopSwitch();

    /** Receives the driver's progress, tagged with what is running. */
    public interface ProgressSink {
        void report(Scenario scenario, int round, Progress progress);
    }

    /** @param plans what each scenario's run does (a scenario through the slow member may get a shorter time box) */
    public ScenarioRunner(Topology topology, Function<Scenario, RunPlan> plans, Path outDir, SuiteOptions options,
                          ProgressSink progress) {
        this.topology = topology;
        this.plans = plans;
        this.outDir = outDir;
        this.options = options;
        this.progress = progress;
    }

    public ScenarioRunner(Topology topology, RunPlan plan, Path outDir, SuiteOptions options, ProgressSink progress) {
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
     * Runs untimed ops through a smart client for the warm-up's length (or, in its deprecated form, its op count), so
     * that every member's JIT has compiled the CP paths before the first scenario is measured. Without it the first
     * scenario of a fresh cluster runs on cold members and loses to whatever runs after it.
     *
     * @return the op/s of the warm-up's second half, a rough guide to how long the scenarios will take
     */
    public double warmCluster(ClusterWarmup warmup) {
        if (warmup.none() || stops.stopped()) {
            return 0;
        }
        Scenario warmUp = Scenario.of("cluster-warm-up", Network.PLAIN, Routing.SMART);
        try (ScenarioSession session = ScenarioSession.open(warmUp, topology, options)) {
            // The first half warms the JIT up; the second half's rate is the guide to what follows.
            RunPlan.Builder second = RunPlan.builder().timebox(CLUSTER_WARMUP_TIMEBOX);
            if (warmup.length() != null) {
                Duration half = warmup.length().dividedBy(2);
                if (!half.isZero()) {
                    drive(session, RunPlan.builder().warmupOps(0).duration(half).build(), null, p -> { });
                }
                second.warmupOps(0).duration(warmup.length().minus(half));
            } else {
                second.warmupOps(warmup.ops() - warmup.ops() / 2).ops(Math.max(1, warmup.ops() / 2));
            }
            Measurement m = drive(session, second.build(), null, p -> progress.report(warmUp, 0, p));
            if (m.outcome() == Status.TIMEBOXED) {
                throw new IllegalStateException("the cluster warm-up did not finish " + warmup.human() + " in "
                        + CLUSTER_WARMUP_TIMEBOX.toMinutes() + " min; the cluster is too slow to measure (lower --cluster-warmup?)");
            }
            return m.opsPerSecond();
        }
    }

    /** Sets the scenario up, drives it, checks it, and writes its result. */
    public RunResult run(Scenario scenario, int round) {
        RunPlan plan = plans.apply(scenario);
        ResultBuilder result = ResultBuilder.of(scenario, round).plan(plan);
        Path hlog = outDir.resolve(String.format("%02d-%s.hlog", round, scenario.name()));
        Measurement measurement;
        ScenarioSession.Report report;
        try (ScenarioSession session = ScenarioSession.open(scenario, topology, options)) {
            try {
                measurement = drive(session, plan, hlog, p -> progress.report(scenario, round, p));
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
    private Measurement drive(ScenarioSession session, RunPlan runPlan, Path hlog, Consumer<Progress> progressSink) {
        Driver driver = new Driver(runPlan);
        stops.running(driver::stop);
        try {
            return driver.run(session.op(), hlog, progressSink);
        } finally {
            stops.running(null);
        }
    }

    private RunResult write(RunResult result) {
        ResultFiles.write(outDir, result);
        return result;
    }
}
