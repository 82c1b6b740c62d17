package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.check.Availability;
import io.cpbench.core.check.ChaosDocument;
import io.cpbench.core.check.Linearizability;
import io.cpbench.core.history.Event;
import io.cpbench.core.history.History;
import io.cpbench.core.history.HistoryFiles;
import io.cpbench.core.history.HistoryRecorder;
import io.cpbench.core.load.Durations;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.LoadSummary;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.Faults;
import io.cpbench.topology.MemberTuning;
import io.cpbench.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
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
 * {@code cpbench chaos}: the load engine's workload and clients, a nemesis hitting members on a schedule, every op
 * recorded as a history, and checkers on that history: linearizability of the registers, the counter and lock
 * invariants, and availability around each fault. Jepsen's roles, kept apart: the workload and schedule are a
 * {@link LoadSpec}, the client a scenario's routing, the nemesis {@link Faults}, the history a
 * {@link HistoryRecorder}, the checkers {@link Linearizability} and {@link Availability}.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a load while a nemesis injects faults on a schedule (inject, hold for --fault-for, heal, wait"
                + " --interval, repeat), records every op as a history (invoke/ok/fail/info), and checks it: linearizability"
                + " of the registers (read/write/cmpset ops), no lost acknowledged increment, lock exclusion, and"
                + " availability per fault (first successful op after the injection, longest gap, errors)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:every checker passed", " 1:a checker failed (not linearizable, an invariant broken), or the run failed",
                " 2:bad input; nothing was started", " 3:a verdict is unknown (the linearizability check ran over its budget)",
                "130:interrupted (Ctrl-C); the history so far is checked and kept"},
        footer = {"", "Nemeses: FAULT-TARGET.",
                "  FAULT:",
                "  kill: kill -9 (with --restart, the member is started again and re-admitted to CP after --fault-for)",
                "  pause: SIGSTOP, SIGCONT after --fault-for",
                "  partition: the members hit are cut off from the rest (--cut members|clients|both), healed after --fault-for",
                "  slow: every byte the member sends is delayed by --delay",
                "  TARGET: leader; follower (one, at random); random (any member); minority (2 of 5: the leader and a",
                "  follower); majority (3 of 5: the leader and two followers). kill-majority is refused: CP could not recover.",
                "",
                "Fault table: first ok is the time from the injection to the first success of an op invoked after it (the",
                "unavailability, seed 001's figure, see docs/origins.md); longest gap is the longest time without any successful op until the next",
                "fault (restarts and re-admission included); the last line gives medians and maxima over the run's faults.",
                "", "Examples:",
                "  cpbench chaos --nemesis kill-leader --restart --duration 2m",
                "  cpbench chaos --nemesis pause-leader --failover fast --fault-for 10s --interval 10s",
                "  cpbench chaos --nemesis partition-leader --cut both --duration 90s"})
final class ChaosCommand implements java.util.concurrent.Callable<Integer> {

    @Option(names = "--nemesis", paramLabel = "FAULT-TARGET", defaultValue = "kill-leader",
            description = "The fault and its target (default: ${DEFAULT-VALUE}); see below.")
    String nemesis;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "2m",
            description = "How long the load runs, faults included (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--fault-for", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "20s",
            description = "How long each fault lasts before it is healed (default: ${DEFAULT-VALUE}, as Jepsen).")
    Duration faultFor;

    @Option(names = "--interval", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "20s",
            description = "Quiet time before the first fault and after each heal (default: ${DEFAULT-VALUE}, as Jepsen).")
    Duration interval;

    @Option(names = "--faults", paramLabel = "N", defaultValue = "0", description = "Inject at most N faults (default: as many as --duration holds).")
    int maxFaults;

    @Option(names = "--restart", description = "kill: start the killed member again when the fault is healed (else kills stop"
            + " at a minority of the members, so the group keeps its majority).")
    boolean restart;

    @Option(names = "--cut", paramLabel = "WHAT", defaultValue = "members",
            description = "partition: cut the member off from members, clients or both (default: ${DEFAULT-VALUE}).")
    String cut;

    @Option(names = "--delay", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "200ms",
            description = "slow: the one-way delay added to what the member sends (default: ${DEFAULT-VALUE}).")
    Duration delay;

    /** read, write and cmpset are the registers the linearizability checker reads; increment and lock have invariants. */
    @Mixin
    WorkloadOptions workload = new WorkloadOptions("read=2,write=1,cmpset=1,increment=1", 4, 2, 4);

    @Option(names = "--scenario", paramLabel = "NAME", defaultValue = "client-smart", completionCandidates = Completions.ScenarioNames.class,
            description = "How the clients connect (default: ${DEFAULT-VALUE}).")
    String scenarioName;

    @Option(names = "--time-budget", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "60s",
            description = "Time the linearizability check may take (default: ${DEFAULT-VALUE}).")
    Duration timeBudget;

    @Mixin
    ClusterOptions clusterOptions;

    @Mixin
    LiveOptions liveOptions;


    @picocli.CommandLine.Mixin
    OutOption out;

    private final CountDownLatch stopNemesis = new CountDownLatch(1);
    private final AtomicReference<LoadEngine> engine = new AtomicReference<>();
    private volatile boolean interrupted;

    /** The load under the faults: the workload options over a 2 s warm-up, and 10 s for ops in flight at the end. */
    LoadSpec spec() {
        return workload.applyAll(LoadSpec.builder()).duration(duration).warmup(Duration.ofSeconds(2))
                .drain(Duration.ofSeconds(10)).build();
    }

    @Override
    public Integer call() throws Exception {
        PrintStream console = System.out;
        ChaosNemesis.Plan plan = ChaosNemesis.Plan.parse(nemesis);
        Faults.Cut cutWhat;
        try {
            cutWhat = Faults.Cut.valueOf(cut.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--cut must be members, clients or both, not '" + cut + "'");
        }
        if (faultFor.isZero() || interval.isZero() || duration.compareTo(interval.plus(faultFor)) < 0) {
            throw new IllegalArgumentException("--duration (" + Durations.format(duration) + ") must hold at least one --interval ("
                    + Durations.format(interval) + ") and one --fault-for (" + Durations.format(faultFor) + "), both positive");
        }
        if (delay.isZero() || delay.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IllegalArgumentException("--delay must be 1ms-10s");
        }
        if (maxFaults < 0) {
            throw new IllegalArgumentException("--faults must be 0 (no limit) or more");
        }
        clusterOptions.validate(-1);
        java.util.Optional<String> noFaults = clusterOptions.whyNoFaults();
        if (noFaults.isPresent()) {
            throw new IllegalArgumentException("chaos: " + noFaults.get());
        }
        if (restart && clusterOptions.containers()) {
            throw new IllegalArgumentException("--restart is not supported on --topology containers yet (a killed member's"
                    + " container is not started again); use --topology local, or kills without --restart");
        }
        plan.validate(clusterOptions.memberCount());
        if ((plan.fault() == ChaosNemesis.Fault.PARTITION || plan.fault() == ChaosNemesis.Fault.SLOW)
                && clusterOptions.startsMembers()) {
            if (!clusterOptions.emulated()) {
                throw new IllegalArgumentException(plan.fault().name().toLowerCase(Locale.ROOT) + " needs --network emulated");
            }
            clusterOptions.proxyEveryLink(); // the fault picks its member as it goes: every link through the proxies
        }
        Scenario scenario = Scenarios.byName(scenarioName.trim());
        LoadSpec spec = spec();
        RunDirectory.checkWritable(out.dir);
        Path runDir = RunDirectory.choose(out.dir, "chaos");
        clusterOptions.failoverPreset().applyToClientsOfThisJvm();
        ChaosNemesis.Schedule schedule = new ChaosNemesis.Schedule(faultFor, interval, maxFaults, restart, cutWhat, delay);
        console.println("cp-bench chaos: " + schedule.describe(plan, duration));
        console.println("load: " + spec.summary() + "; clients: " + scenario.name());
        console.println("failover: " + clusterOptions.failoverPreset().describe());
        console.println("results -> " + runDir);
        liveOptions.start(console, runDir, "cp-bench chaos (live)");
        long startNanos = System.nanoTime();
        Topology topology = clusterOptions.startAnnounced(console, runDir.resolve("members"), MemberTuning.NONE,
                Duration.ofSeconds(5), liveOptions::close);
        topology.takeOverShutdown();
        Faults faults = topology.faults().orElse(null);
        if (faults == null) {
            topology.close();
            liveOptions.close();
            throw new IllegalStateException("the " + topology.kind() + " topology cannot inject faults");
        }
        Interruption interruption = new Interruption(this::stop, () -> {
            faults.healAll();
            topology.close();
        });
        int code;
        try {
            ClusterOptions.printReady(console, topology, startNanos);
            RunDirectory.create(runDir);
            code = run(console, spec, scenario, plan, schedule, topology, faults, runDir);
        } finally {
            faults.healAll();
            topology.close();
            liveOptions.close();
            interruption.written();
        }
        boolean wasInterrupted = !interruption.disarm() || interrupted;
        return wasInterrupted ? ExitCodes.INTERRUPTED : code;
    }

    private void stop() {
        interrupted = true;
        stopNemesis.countDown();
        LoadEngine e = engine.get();
        if (e != null) {
            e.stop();
        }
    }

    private int run(PrintStream console, LoadSpec spec, Scenario scenario, ChaosNemesis.Plan plan, ChaosNemesis.Schedule schedule,
                    Topology topology, Faults faults, Path runDir) throws Exception {
        SuiteOptions options = clusterOptions.suiteOptions(-1, SuiteOptions.SEED_DELAY, ProbeSettings.defaults());
        ChaosNemesis nemesis;
        LoadResult load;
        HistoryRecorder recorder;
        try (ScenarioSession session = ScenarioSession.open(scenario, topology, options, null, spec.clients(),
                spec.objectGroups())) {
            LoadEngine e = new LoadEngine(spec, session.clients(), runDir, LoadCommand.listener(console, workload.quiet,
                    liveOptions.view(), "chaos " + plan.text())).recordHistory().routeByGroup(session.clientsByGroup());
            recorder = e.historyRecorder();
            engine.set(e);
            if (interrupted) {
                e.stop();
            }
            AtomicReference<LoadResult> result = new AtomicReference<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread runner = new Thread(() -> {
                try {
                    result.set(e.run());
                } catch (Throwable t) {
                    failure.set(t);
                } finally {
                    stopNemesis.countDown();
                }
            }, "cpbench-chaos-load");
            runner.start();
            nemesis = new ChaosNemesis(plan, schedule, topology, faults, recorder, console, stopNemesis);
            nemesis.run(System.nanoTime() + spec.warmup().toNanos() + duration.toNanos(), spec.seed());
            runner.join();
            if (failure.get() != null) {
                throw new IllegalStateException("the load could not run: " + io.cpbench.core.run.Driver.describe(failure.get()));
            }
            load = result.get();
        }
        List<Event> events = recorder.events();
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
        Linearizability.Result lin = Linearizability.check(new History(events, false),
                new Linearizability.Budget(timeBudget, Linearizability.Budget.DEFAULT.memoryBytes()));
        List<Availability.Result> availability = Availability.of(events, closed);

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
        writeResult(runDir, plan, spec, load, lin, availability, nemesis.log());
        console.println("wrote chaos.json, history.jsonl, jepsen/, load.csv");
        return exitCode(lin.verdict(), load.invariantsHold());
    }

    /** A verdict that is unknown: the linearizability check ran over its budget. */
    static final int UNKNOWN = 3;

    /** 1 when a checker failed, else 3 when linearizability is unknown, else 0. */
    static int exitCode(Linearizability.Verdict linearizability, boolean invariantsHold) {
        if (linearizability == Linearizability.Verdict.NOT_LINEARIZABLE || !invariantsHold) {
            return ExitCodes.FAILED;
        }
        return linearizability == Linearizability.Verdict.UNKNOWN ? UNKNOWN : ExitCodes.OK;
    }

    /** One row per fault: when, what, how long until an op invoked after it succeeded, the longest gap, errors. */
    static String faultTable(List<Availability.Result> results) {
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

    private void writeResult(Path runDir, ChaosNemesis.Plan plan, LoadSpec spec, LoadResult load, Linearizability.Result lin,
                             List<Availability.Result> availability, List<String> log) {
        ChaosDocument json = new ChaosDocument("chaos", plan.text(), Durations.format(faultFor), Durations.format(interval),
                restart, clusterOptions.failoverPreset().describe(), spec.describe(), availability,
                Availability.Summary.of(availability), log,
                new ChaosDocument.Check(lin.verdict().text(), lin.ops(), lin.seconds(), lin.keys()), load);
        try {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(runDir.resolve("chaos.json").toFile(), json);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + runDir.resolve("chaos.json") + ": " + e.getMessage(), e);
        }
    }
}
