package io.cpbench.bench.run;

import io.cpbench.bench.agents.LoadSite;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.service.RunContext;
import io.cpbench.bench.service.RunKind;
import io.cpbench.bench.suite.ClusterWarmup;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.check.Availability;
import io.cpbench.core.check.ChaosDocument;
import io.cpbench.core.check.ChaosDocumentBuilder;
import io.cpbench.core.check.Checker;
import io.cpbench.core.check.Linearizability;
import io.cpbench.core.status.Status;
import io.cpbench.core.history.Event;
import io.cpbench.core.history.HistoryFiles;
import io.cpbench.core.history.HistoryRecorder;
import io.cpbench.core.load.Durations;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.LoadSummary;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.Faults;
import io.cpbench.topology.Topology;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A chaos run on a started cluster: the load engine's workload with every op recorded as a history, a nemesis
 * hitting members on a schedule, then the checkers on that history (linearizability of the registers, the counter
 * and lock invariants, availability around each fault), and the files: {@code chaos.json}, {@code history.jsonl},
 * {@code jepsen/} and the load's own. Jepsen's roles, kept apart: the workload and schedule are a {@link LoadSpec},
 * the client a scenario's routing, the nemesis {@link ChaosNemesis} on {@link Faults}, the history a
 * {@link HistoryRecorder}, the checkers {@link Checker}s composed (the load's ending, its invariants and thresholds,
 * linearizability, availability) into the run's one verdict.
 *
 * <p>A run runs once; {@link #stop()} may be called from any thread (a Ctrl-C hook): the nemesis stops, the load
 * ends after its ops in flight, and what was recorded is still checked and written.
 */
public final class ChaosRun extends StoppableRun implements RunKind {

    /**
     * @param plan       the fault and its target
     * @param schedule   when faults come and go
     * @param scenario   how the clients connect
     * @param spec       the load; its warm-up and duration bound the nemesis
     * @param duration   how long the load runs, measured
     * @param timeBudget time the linearizability check may take
     * @param cluster    the cluster it runs on (a fresh one per run), whose failover settings the clients have
     * @param quiet      without the load's live line on stderr
     * @param clusterWarmup how long the fresh cluster is warmed up with the load's mix before the load and its
     *                   faults begin ({@link ClusterWarmup}); zero for none
     */
    public record Config(ChaosNemesis.Plan plan, ChaosNemesis.Schedule schedule, Scenario scenario, LoadSpec spec,
                         Duration duration, Duration timeBudget, ClusterChoice cluster, boolean quiet,
                         Duration clusterWarmup) {
    }

    private final Config config;
    private final CountDownLatch stopNemesis = new CountDownLatch(1);
    /** Where the load runs: here unless the service started agents for the run. */
    private LoadSite site = LoadSite.here();
    private volatile Faults faults;
    private volatile Status verdict;

    public ChaosRun(Config config, PrintStream console) {
        super(console);
        this.config = config;
    }

    @Override
    public String name() {
        return "chaos";
    }

    @Override
    public String subject() {
        return config.scenario().name() + ", on a fresh cluster";
    }

    @Override
    public ClusterChoice cluster() {
        return config.cluster();
    }

    @Override
    public boolean takesAgents() {
        return true;
    }

    @Override
    public void announce(PrintStream out, Path runDir) {
        out.println("cp-bench chaos: " + config.schedule().describe(config.plan(), config.duration()));
        out.println("load: " + config.spec().summary() + "; clients: " + config.scenario().name());
        out.println("failover: " + config.cluster().failoverPreset().describe());
        out.println("results -> " + runDir);
    }

    @Override
    public void run(RunContext context) throws Exception {
        Topology topology = context.topology();
        faults = topology.faults().orElseThrow(
                () -> new IllegalStateException("the " + topology.kind() + " topology cannot inject faults"));
        site = context.loadSite();
        SuiteOptions options = config.cluster().suiteOptions(-1, SuiteOptions.SEED_DELAY, ProbeSettings.defaults());
        ClusterWarmup.of(config.clusterWarmup()).run(console, config.spec(), topology, options, null,
                stops.tracking(LoadEngine::stop));
        if (stops.stopped()) {
            return;
        }
        verdict = run(topology, faults, options, context.runDir(), LoadRun.consoleListener(console, config.quiet(),
                context.live(), "chaos " + config.plan().text()));
    }

    /** Heals every fault in force, so that the members can be stopped; any thread, more than once. */
    @Override
    public void close() {
        Faults inForce = faults;
        if (inForce != null) {
            inForce.healAll();
        }
    }

    /**
     * The run's one verdict, the status {@code chaos.json} holds ({@link ChaosDocument#verdictOf}); null when the run
     * broke before its checks.
     */
    @Override
    public Status status() {
        return verdict;
    }

    /** Stops the nemesis and ends the load after its ops in flight; what was recorded is still checked. Any thread. */
    @Override
    public void stop() {
        stopNemesis.countDown();
        super.stop();
    }

    /**
     * Runs the load and the nemesis on {@code topology}, checks the history, prints the tables and writes the files
     * into {@code runDir}. Blocks until done.
     *
     * @param listener the load engine's progress, or null
     */
    private Status run(Topology topology, Faults faults, SuiteOptions options, Path runDir, LoadEngine.Listener listener)
            throws Exception {
        LoadSpec spec = config.spec();
        ChaosNemesis nemesis;
        LoadResult load;
        LoadSite.Load running;
        try (ScenarioSession session = ScenarioSession.open(config.scenario(), topology, options, null,
                site.sessionClients(spec.clients()), spec.objectGroups())) {
            running = site.prepare(new LoadSite.Job(spec, config.scenario().name(), topology, config.cluster(),
                    config.cluster().memberTuning().atMostOnce(), session, runDir, listener, config.quiet(), true));
            // the nemesis stamps its events on the history's clock (the agents' histories are moved onto it)
            HistoryRecorder recorder = running.clock();
            stops.running(running::stop);
            java.util.concurrent.CompletableFuture<Long> loadStart = new java.util.concurrent.CompletableFuture<>();
            AtomicReference<LoadResult> result = new AtomicReference<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread runner = new Thread(() -> {
                try {
                    result.set(running.run(loadStart::complete));
                } catch (Throwable t) {
                    failure.set(t);
                } finally {
                    stopNemesis.countDown();
                }
            }, "cpbench-chaos-load");
            runner.start();
            nemesis = new ChaosNemesis(config.plan(), config.schedule(), topology, faults, recorder, console, stopNemesis);
            // the faults' schedule begins with the load: at once here; on agents when their clients are all
            // connected, which on a busy host takes seconds, not when their jobs went out
            Long shared = awaitLoadStart(loadStart, runner);
            long startsAt = shared == null ? System.nanoTime() : shared;
            long lead = startsAt - System.nanoTime();
            if (lead > 0) {
                java.util.concurrent.TimeUnit.NANOSECONDS.sleep(lead);
            }
            nemesis.run(startsAt + spec.warmup().toNanos() + spec.profile().totalNanos(), spec.seed());
            runner.join();
            stops.running(null);
            if (failure.get() != null) {
                throw new IllegalStateException("the load could not run" + site.where() + ": "
                        + io.cpbench.core.run.Driver.describe(failure.get()));
            }
            load = result.get();
        }
        List<Event> events = running.history();
        return checkAndReport(runDir, load, events, nemesis);
    }

    /**
     * Writes the history (JSON lines, and a Jepsen log per register), checks it (linearizability, availability per
     * fault, the load's invariants), prints the tables and writes {@code chaos.json}.
     */
    private Status checkAndReport(Path runDir, LoadResult load, List<Event> events, ChaosNemesis nemesis)
            throws java.io.IOException {
        long end = events.isEmpty() ? 0 : events.get(events.size() - 1).time();
        List<Availability.Window> closed = nemesis.windows(end);
        Files.createDirectories(runDir.resolve("jepsen"));
        HistoryFiles.writeJson(runDir.resolve("history.jsonl"), events);
        Map<String, List<Event>> byKey = new TreeMap<>();
        for (Event ev : events) {
            if (ev.registerOp()) {
                byKey.computeIfAbsent(ev.key(), k -> new ArrayList<>()).add(ev);
            }
        }
        for (Map.Entry<String, List<Event>> k : byKey.entrySet()) {
            HistoryFiles.writeJepsen(runDir.resolve("jepsen").resolve(k.getKey().replaceAll("[^\\w.-]", "_") + ".log"), k.getValue());
        }
        console.printf(Locale.ROOT, "%nhistory: %,d events -> history.jsonl (and jepsen/*.log, one per register)%n", events.size());
        console.println("checking linearizability ...");
        // the checkers, composed (their order breaks ties for the run's reason): the load's ending, its invariants
        // and thresholds, linearizability of the registers, availability around each fault, and whether every fault
        // that came due was injected
        Checker.LinearizabilityCheck linearizability = new Checker.LinearizabilityCheck(
                new Linearizability.Budget(config.timeBudget(), Linearizability.Budget.DEFAULT.memoryBytes()));
        Checker.AvailabilityCheck availabilityCheck = new Checker.AvailabilityCheck();
        List<Checker.Verdict> checks = Checker.all(List.of(Checker.ofLoad(), linearizability, availabilityCheck,
                run -> List.of(nemesis.verdict())))
                .check(new Checker.Recorded(events, closed, load));
        Linearizability.Result lin = linearizability.result();
        List<Availability.Result> availability = availabilityCheck.results();

        console.println();
        console.print(LoadSummary.render(load));
        console.println();
        console.print(faultTable(availability));
        console.println();
        console.printf(Locale.ROOT, "linearizability: %s (%,d register ops on %d keys, %.2f s)%n", lin.verdict().text(),
                lin.ops(), lin.keys().size(), lin.seconds());
        if (lin.firstProblem() != null) {
            console.println(lin.firstProblem().detail().indent(2).stripTrailing());
        }
        for (LoadResult.InvariantResult inv : load.invariants()) {
            console.printf(Locale.ROOT, "%s: %s (%s)%n", inv.name(), inv.holds() ? "holds" : "VIOLATED", inv.evidence());
        }
        ChaosDocument.Verdict verdict = ChaosDocument.verdictOf(checks);
        console.println("chaos run: " + verdict.status() + (verdict.reason() == null ? "" : " (" + verdict.reason() + ")"));
        writeResult(runDir, load, ChaosDocument.Check.of(lin), verdict, checks, availability, nemesis.log());
        console.println("wrote chaos.json, history.jsonl, jepsen/"
                + (site.writesLoadFiles() ? ", load.csv" : ""));
        return verdict.status();
    }

    /**
     * The load's start instant ({@link System#nanoTime()}), once its site has set it (here at once; on agents the
     * shared instant, when all are ready); null when the load ended (or failed) before it did. Bounded by the site's
     * own: the agent pool sets the instant within its ready bound.
     */
    private static Long awaitLoadStart(java.util.concurrent.CompletableFuture<Long> loadStart, Thread runner)
            throws InterruptedException {
        while (runner.isAlive()) {
            try {
                return loadStart.get(100, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException notYet) {
                // the agents' clients are still connecting
            } catch (java.util.concurrent.ExecutionException cannot) {
                return null;
            }
        }
        return loadStart.getNow(null);
    }

    /** One row per fault: when, what, how long until an op invoked after it succeeded, the longest gap, errors. */
    public static String faultTable(List<Availability.Result> results) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%-3s %-8s %-9s %-26s %8s %10s %12s  %s%n", "#", "at", "fault", "target",
                "healed", "first ok", "longest gap", "errors during the fault"));
        int i = 1;
        for (Availability.Result r : results) {
            String errors = r.errors().isEmpty() ? "none" : String.join(", ", r.errors().entrySet().stream()
                    .map(e -> e.getValue() + " " + e.getKey()).toList());
            b.append(String.format(Locale.ROOT, "%-3d %-8s %-9s %-26s %8s %10s %12s  %s%n", i++,
                    String.format(Locale.ROOT, "%.1fs", r.injectedAtS()), r.fault(), r.target(),
                    Double.isNaN(r.healedAfterMs()) ? "never" : String.format(Locale.ROOT, "%.1fs", r.healedAfterMs() / 1000),
                    ms(r.firstOkMs()),
                    String.format(Locale.ROOT, "%,.0f ms%s", r.longestGapMs(), r.gapOpen() ? "+" : ""), errors));
        }
        if (results.isEmpty()) {
            b.append("(no fault was injected)\n");
            return b.toString();
        }
        Availability.Summary s = Availability.Summary.of(results);
        b.append(String.format(Locale.ROOT, "over %d fault%s: first ok p50 %s, max %s; longest gap p50 %s, max %s%s%n", s.faults(),
                s.faults() == 1 ? "" : "s", ms(s.firstOkP50Ms()), ms(s.firstOkMaxMs()), ms(s.longestGapP50Ms()), ms(s.longestGapMaxMs()),
                s.neverRecovered() == 0 ? "" : "; " + s.neverRecovered() + " with no success after the injection"));
        return b.toString();
    }

    private static String ms(Double value) {
        return value == null ? "none" : String.format(Locale.ROOT, "%,.0f ms", value);
    }

    private void writeResult(Path runDir, LoadResult load, ChaosDocument.Check lin, ChaosDocument.Verdict verdict,
                             List<Checker.Verdict> checks, List<Availability.Result> availability, List<String> log) {
        ChaosNemesis.Schedule schedule = config.schedule();
        ChaosDocument json = ChaosDocumentBuilder.builder().setup(new ChaosDocument.Setup("chaos", config.scenario().name(),
                        config.plan().text(), Durations.format(schedule.faultFor()), Durations.format(schedule.interval()),
                        schedule.restart(), config.cluster().failoverPreset().describe()))
                .spec(config.spec().describe()).faults(availability)
                .availability(Availability.Summary.of(availability)).nemesisLog(log)
                .linearizability(lin).load(load).status(verdict.status()).reason(verdict.reason()).checks(checks).build();
        RunDirectory.writeJson(runDir, "chaos.json", json);
    }
}
