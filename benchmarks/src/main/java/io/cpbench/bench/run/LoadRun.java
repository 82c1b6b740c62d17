package io.cpbench.bench.run;

import io.cpbench.bench.agents.LoadSite;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.report.LiveView;
import io.cpbench.bench.results.LoadTables;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.results.RunLines;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.service.RunContext;
import io.cpbench.bench.service.RunKind;
import io.cpbench.bench.suite.ClusterWarmup;
import io.cpbench.bench.suite.ResultBuilder;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.load.Durations;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.LoadSummary;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import io.cpbench.core.run.Driver;
import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A load run: the cluster warmed up with the run's mix, then each scenario (how the clients connect) runs the spec
 * once per round, interleaved: each round starts one scenario later, so no scenario always runs first. Each scenario
 * run writes its result ({@code NN-scenario.json}, harness {@code load}), its per-interval CSV and one {@code .hlog}
 * per op. A scenario whose clients cannot be set up, or whose objects fail, is a FAIL result and the rest go on.
 *
 * <p>A run runs once. {@link #stop()} may be called from any thread (a Ctrl-C hook): the engine in flight ends after
 * its ops in flight, no other scenario starts, and {@link #results()} holds what was measured.
 */
public final class LoadRun extends ReleaseAwareRun implements RunKind {

    /**
     * @param spec          the load each scenario runs
     * @param scenarios     how the clients connect, in the order of the first round (none: the engine alone)
     * @param rounds        rounds over the scenarios, 1 or more
     * @param clusterWarmup how long the cluster is warmed up with the mix first (zero: not at all)
     * @param options       cluster-wide settings the scenarios' sessions use (null: the engine alone)
     * @param cluster       the cluster the load runs on (the first release's with a version axis); null: the engine
     *                      alone, a noop mix with no cluster and no clients
     * @param releases      with a version axis ({@code --hazelcast-version A,B}), every release's cluster; else empty
     * @param quiet         without the live line on stderr
     */
    public record Config(LoadSpec spec, List<Scenario> scenarios, int rounds, Duration clusterWarmup, SuiteOptions options,
                         ClusterChoice cluster, List<ClusterChoice> releases, boolean quiet) {
        public Config {
            if (rounds < 1 || rounds > 100) {
                throw new IllegalArgumentException("--rounds must be 1-100, was " + rounds);
            }
            scenarios = List.copyOf(scenarios);
            releases = List.copyOf(releases);
        }

        boolean engineAlone() {
            return cluster == null;
        }

        /** The version axis's settings, or null without one. */
        ReleaseAxisRun.Config acrossReleases() {
            return releases.isEmpty() ? null : new ReleaseAxisRun.Config(releases, scenarios, rounds);
        }
    }

    private final Config config;
    private volatile LoadEngine.Listener listener;
    /** Where the loads run: here unless the service started agents for the run. */
    private LoadSite site = LoadSite.here();
    private volatile LoadResult engineAlone;

    public LoadRun(Config config, PrintStream console) {
        super(console);
        this.config = config;
    }

    @Override
    public String name() {
        return "load";
    }

    @Override
    public ClusterChoice cluster() {
        return config.engineAlone() || config.acrossReleases() != null ? null : config.cluster();
    }

    @Override
    public boolean takesAgents() {
        return true;
    }

    @Override
    public void announce(PrintStream out, Path runDir) {
        LoadSpec spec = config.spec();
        out.println("cp-bench load: " + spec.summary());
        if (!spec.thresholds().isEmpty()) {
            out.println("thresholds: " + String.join(", ", spec.thresholds().stream().map(t -> t.text()).toList())
                    + (spec.abortOnFail() ? " (abort on fail)" : ""));
        }
        if (config.engineAlone()) {
            out.println("the engine alone (noop ops): no cluster is started");
            out.println("results -> " + runDir);
            return;
        }
        List<Scenario> scenarios = config.scenarios();
        int rounds = config.rounds();
        long perRun = (spec.warmup().toNanos() + spec.profile().totalNanos()) / 1_000_000_000L;
        ReleaseAxisRun.Config across = config.acrossReleases();
        out.printf(Locale.ROOT, "%d scenario%s x %d round%s%s, about %s each: %s%n", scenarios.size(),
                scenarios.size() == 1 ? "" : "s", rounds, rounds == 1 ? "" : "s",
                across == null ? "" : across.describe(), Durations.human(perRun),
                String.join(", ", scenarios.stream().map(Scenario::name).toList()));
        if (across != null && across.tooFewRounds() != null) {
            out.println(across.tooFewRounds());
        }
        out.println("results -> " + runDir);
    }

    @Override
    public void run(RunContext context) {
        listener = consoleListener(console, config.quiet(), context.live(), "load");
        if (config.engineAlone()) {
            engineAlone = runEngineOnly(context.runDir());
            return;
        }
        ReleaseAxisRun.Config across = config.acrossReleases();
        if (across != null) {
            runAcross(across, acrossReleases(), context);
            return;
        }
        site = context.loadSite();
        run(context.topology(), context.runDir());
    }

    @Override
    public void write(RunContext context) {
        Path runDir = context.runDir();
        if (config.engineAlone()) {
            return; // runEngineOnly wrote it
        }
        List<RunResult> results;
        if (axis() != null) {
            axis().writeSummaries(runDir, "load", (v, byRelease) -> {
                if (byRelease.size() > 1) {
                    console.println();
                    console.print(LoadTables.perOp(byRelease));
                }
            });
            results = axis().results();
        } else {
            results = results();
            if (!results.isEmpty()) {
                RunDirectory.writeSummary(console, runDir, "load", results, List.of());
            }
            if (results.size() > 1) {
                console.println();
                console.print(LoadTables.perOp(results));
            }
        }
        String summary = RunLines.notOk("load", results);
        if (summary != null) {
            System.err.println(summary);
        }
    }

    /** The worst of its results' statuses ({@link LoadVerdict}); OK with none; the engine alone's by the same rule. */
    @Override
    public Status status() {
        return config.engineAlone() ? LoadVerdict.ofEngineAlone(engineAlone) : worstOrOk(allResults());
    }

    /**
     * Warms {@code topology} up, then runs every round; each result is written to {@code runDir} as it ends.
     *
     * @return the results, in the order they ran (fewer when stopped)
     */
    private List<RunResult> run(Topology topology, Path runDir) {
        LoadSpec spec = config.spec();
        if (!config.clusterWarmup().isZero()) {
            ClusterWarmup.of(config.clusterWarmup()).run(console, spec, topology, config.options(), null,
                    stops.tracking(LoadEngine::stop));
            printGroupLeaders(console, spec, topology);
        }
        List<Scenario> scenarios = config.scenarios();
        int rounds = config.rounds();
        for (int round = 1; round <= rounds && !stops.stopped(); round++) {
            for (int k = 0; k < scenarios.size() && !stops.stopped(); k++) {
                Scenario scenario = scenarios.get((k + round - 1) % scenarios.size());
                console.printf(Locale.ROOT, "[round %d/%d] %s: %s; %d client%s%n", round, rounds, scenario.name(),
                        scenario.description(), spec.clients(), spec.clients() == 1 ? "" : "s");
                add(runOne(scenario, round, topology, runDir));
            }
        }
        return results();
    }

    /**
     * What a load with a version axis runs on each release's cluster ({@link ReleaseAxisRun}): this run's load, warm-up
     * first, on that cluster, in a run of its own (so that stopping one stops only what runs on it).
     */
    private ReleaseAxisRun.Harness acrossReleases() {
        return (topology, releaseDir, version) -> {
            LoadRun one = new LoadRun(config, console);
            one.listener = listener;
            return new ReleaseAxisRun.OnCluster() {
                @Override
                public String warmUp() {
                    if (config.clusterWarmup().isZero()) {
                        return null;
                    }
                    console.println("Hazelcast " + version + "'s cluster:");
                    ClusterWarmup.of(config.clusterWarmup()).run(console, config.spec(), topology, config.options(), null,
                            one.stops.tracking(LoadEngine::stop));
                    printGroupLeaders(console, config.spec(), topology);
                    return null;
                }

                @Override
                public RunResult run(Scenario scenario, int round) {
                    return one.runOne(scenario, round, topology, releaseDir);
                }

                @Override
                public void stop() {
                    one.stop();
                }
            };
        };
    }

    /**
     * The engine alone: a {@code noop} mix, no cluster and no clients. Writes {@code load.json}, {@code load.csv}
     * and {@code load-noop.hlog} to {@code runDir} and prints the summary.
     */
    private LoadResult runEngineOnly(Path runDir) {
        LoadEngine engine = new LoadEngine(config.spec(), List.of(), runDir, listener);
        stops.running(engine::stop);
        LoadResult load = engine.run();
        stops.running(null);
        console.println();
        console.print(LoadSummary.render(load));
        RunDirectory.writeJson(runDir, "load.json", load);
        console.println("wrote load.json, load.csv and load-noop.hlog to " + runDir);
        return load;
    }

    /**
     * One scenario's load, wherever it runs ({@link LoadSite}): the session opened here (all its clients, or the one
     * that reads leadership and routing before and after when agents run the load), the load, the verdict.
     */
    private RunResult runOne(Scenario scenario, int round, Topology topology, Path runDir) {
        LoadSpec spec = config.spec();
        ResultBuilder builder = ResultBuilder.of(scenario, round).harness("load")
                .plan(new RunResult.PlanInfo(0, 0, spec.profile().totalNanos() / 1e9,
                        (spec.warmup().toNanos() + spec.profile().totalNanos() + spec.drain().toNanos()) / 1e9, spec.workers()));
        String stem = String.format(Locale.ROOT, "%02d-%s.load", round, scenario.name());
        ScenarioSession session;
        try {
            session = ScenarioSession.open(scenario, topology, config.options(), null, site.sessionClients(spec.clients()),
                    spec.objectGroups());
        } catch (ScenarioSession.SetupException e) {
            return failed(runDir, builder.where(e.where()).status(Status.FAIL, e.getMessage()).build());
        }
        LoadResult load;
        ScenarioSession.Report report;
        try {
            LoadSite.Load running = site.prepare(new LoadSite.Job(spec, scenario.name(), topology, config.cluster(),
                    config.cluster().memberTuning().atMostOnce(), session, runDir.resolve(stem), listener, config.quiet(), false));
            stops.running(running::stop);
            load = running.run(started -> { });
            stops.running(null);
            report = session.finish(stops.stopped());
        } catch (RuntimeException e) { // setting the objects up, or reading them back, failed: this run FAILs, the rest go on
            stops.running(null);
            ScenarioSession.Report where = session.finish(stops.stopped());
            return failed(runDir, builder.where(where).status(Status.FAIL, "load could not run" + site.where() + ": "
                    + Driver.describe(e)).build());
        } finally {
            session.close();
        }
        LoadVerdict verdict = LoadVerdict.of(load, report);
        builder.where(report).measuredLoad(load).status(verdict.status(), verdict.reason());
        if (site.writesLoadFiles()) {
            builder.hlog(stem + "/load-" + spec.mix().keySet().iterator().next().key() + ".hlog");
        }
        RunResult result = builder.build();
        ResultFiles.write(runDir, result);
        console.println();
        console.print(indent(LoadSummary.render(load)));
        console.printf(Locale.ROOT, "    %s  %s%s%n    wrote %s.json%s%n%n", verdict.status(),
                site.ranOn(load, report.cluster().clientTarget()),
                verdict.reason() == null ? "" : "  (" + verdict.reason() + ")", stem,
                site.writesLoadFiles() ? ", " + stem + "/load.csv and one .hlog per op" : "");
        return result;
    }

    private RunResult failed(Path runDir, RunResult failed) {
        ResultFiles.write(runDir, failed);
        console.println("    FAIL  " + failed.reason());
        return failed;
    }

    /** Where the objects' CP groups are led, once the warm-up created them (priority puts them all on one member). */
    private static void printGroupLeaders(PrintStream console, LoadSpec spec, Topology topology) {
        List<String> groups = spec.groups() == null ? List.of() : spec.groups().stream()
                .filter(g -> !g.equals("default")).distinct().toList();
        if (groups.isEmpty()) {
            return;
        }
        try {
            Map<String, MemberRef> leaders = topology.leadership().leadersOf(groups);
            console.println("CP group leaders: " + String.join(", ", leaders.entrySet().stream()
                    .map(e -> e.getKey() + " -> " + (e.getValue() == null ? "none yet" : e.getValue().name())).toList()));
        } catch (RuntimeException e) {
            console.println("CP group leaders: unknown (" + e.getMessage() + ")");
        }
    }

    /**
     * Prints the engine's messages on {@code console} and, unless {@code quiet}, a live line each interval on stderr;
     * hands each interval's numbers to the live view, if there is one.
     */
    public static LoadEngine.Listener consoleListener(PrintStream console, boolean quiet, LiveView live, String what) {
        return new LoadEngine.Listener() {
            @Override
            public void interval(LoadEngine.IntervalReport report) {
                if (!quiet) {
                    System.err.println(report.line());
                }
                if (live != null) {
                    live.sample(String.format(Locale.ROOT, "%s, stage %d/%d", what, report.stage(), report.stages()),
                            report.opsPerSecond(), report.latency().p50(), report.latency().p99(), report.latency().count(),
                            report.errors());
                }
            }

            @Override
            public void message(String line) {
                console.println("    " + line);
            }
        };
    }

    private static String indent(String text) {
        StringBuilder b = new StringBuilder();
        text.lines().forEach(line -> b.append("    ").append(line).append('\n'));
        return b.toString();
    }
}
