package io.cpbench.bench.cli;

import io.cpbench.bench.run.ClusterChoice;
import io.cpbench.bench.run.ConsoleProgress;
import io.cpbench.bench.run.Interruption;
import io.cpbench.bench.run.MatrixRun;
import io.cpbench.bench.run.ReleaseAxisRun;
import io.cpbench.bench.run.RunDirectory;
import io.cpbench.bench.run.RunLines;
import io.cpbench.bench.run.UntilCi;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.suite.ScenarioRunner;
import io.cpbench.core.load.Durations;
import io.cpbench.core.run.RunPlan;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.MemberTuning;
import io.cpbench.topology.Topology;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * What {@code run} and {@code matrix} share: bring up (or attach to) the cluster, run scenarios in rounds, write
 * every result as it ends, then the table and CSV. On Ctrl-C the scenario in flight is stopped and kept as
 * INCOMPLETE, the table is written from what ran, and the members are stopped.
 */
abstract class SuiteCommand implements Callable<Integer> {

    /** The scenario others are compared with, round by round. */

    @Mixin
    PlanOptions planOptions;

    @Mixin
    ClusterOptions clusterOptions;

    @Mixin
    LiveOptions liveOptions;

    @Mixin
    OutOption out;

    @Option(names = "--slow-member", paramLabel = "N", defaultValue = "-1",
            description = "Member made slow in network (b), by index 1 to members-1; member-0 has leadership priority"
                    + " and leads, so it cannot be the slow one (default: the last member).")
    int slowMember;

    @Mixin
    SlowDelayOption delay;

    @Mixin
    ClusterWarmupOption clusterWarmup;

    @Option(names = "--lb-property", paramLabel = "KEY=VALUE",
            description = "A setting for the latency-aware and leader-aware balancers, as their client property"
                    + " (repeatable), e.g. --lb-property cpbench.lb.exclude-ratio=1.5; see docs/balancers.md.")
    Map<String, String> lbProperties = new java.util.LinkedHashMap<>();

    @Option(names = "--strict",
            description = "Exit 3 when any result is UNSTABLE or TIMEBOXED (default: only FAIL makes the exit non-zero).")
    boolean strict;

    @Option(names = "--progress", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "5s",
            description = "How often to print progress during a scenario; 0 for never (default: ${DEFAULT-VALUE}).")
    Duration progressEvery;

    /** With --hazelcast-version A,B: each release's cluster (stock members), from {@link #validate}; else empty. */
    private List<ClusterChoice> releaseChoices = List.of();

    abstract List<Scenario> scenarios();

    abstract int rounds();

    abstract String commandName();

    /** Rounds until the ratios are known ({@code matrix --until-ci}), or null for a fixed number of rounds. */
    UntilCi untilCi() {
        return null;
    }

    @Override
    public Integer call() {
        PrintStream console = System.out;
        // Everything the options decide is checked before anything starts or any directory is made.
        RunPlan plan = planOptions.plan();
        java.util.function.Function<Scenario, RunPlan> plans = planOptions.plans();
        List<Scenario> scenarios = scenarios();
        ProbeSettings probeSettings = probeSettings();
        UntilCi untilCi = untilCi();
        int rounds = untilCi != null ? untilCi.maxRounds() : rounds();
        ClusterChoice cluster = validate(scenarios);
        MatrixRun.Config config = new MatrixRun.Config(scenarios, plans, rounds, untilCi, clusterWarmup.get(planOptions.quick),
                cluster.suiteOptions(slowMember, delay.value(), probeSettings));
        if (!releaseChoices.isEmpty() && untilCi != null) {
            throw new IllegalArgumentException("--until-ci with several --hazelcast-version releases: give --rounds"
                    + " (each round starts fresh clusters of every release)");
        }
        ReleaseAxisRun.Config acrossReleases = releaseChoices.isEmpty() ? null
                : new ReleaseAxisRun.Config(releaseChoices, scenarios, rounds);
        int releases = Math.max(1, releaseChoices.size());
        Path runDir = RunDirectory.choose(out.dir, commandName());
        long boxedRound = scenarios.stream().mapToLong(s -> plans.apply(s).timebox().toSeconds()).sum();
        Duration shortestBox = scenarios.stream().map(s -> plans.apply(s).timebox()).min(Duration::compareTo).orElseThrow();
        boolean shorterBoxes = shortestBox.compareTo(plan.timebox()) < 0;
        console.printf(Locale.ROOT, "cp-bench %s: %d scenario%s x %d round%s%s; %s; time box %s per scenario%s (at most %s in all)%n",
                commandName(), scenarios.size(), scenarios.size() == 1 ? "" : "s", rounds, rounds == 1 ? "" : "s",
                acrossReleases == null ? "" : acrossReleases.describe(),
                RunLines.describe(plan), Durations.human(plan.timebox()),
                shorterBoxes ? ", " + Durations.human(shortestBox) + " through the slow member" : "",
                untilCi != null && untilCi.maxTime().toSeconds() < boxedRound * rounds
                        ? Durations.human(untilCi.maxTime().toSeconds() + boxedRound) + ": --max-time, plus the round in flight"
                        : Durations.human(boxedRound * rounds * releases)
                        + (releases == 1 ? "" : ", plus each round's cluster starts"));
        if (untilCi != null) {
            console.println(untilCi.describe());
        }
        if (acrossReleases != null && acrossReleases.tooFewRounds() != null) {
            console.println(acrossReleases.tooFewRounds());
        }
        console.println("results -> " + runDir);
        String planted = io.cpbench.core.workload.PlantedSlowdown.banner();
        if (planted != null) {
            console.println(planted);
        }
        liveOptions.start(console, runDir, "cp-bench " + commandName() + " (live)");
        io.cpbench.bench.report.LiveView live = liveOptions.view();
        ConsoleProgress progress = new ConsoleProgress(System.err, progressEvery, rounds, plan.duration(),
                scenario -> plans.apply(scenario).timebox());
        ScenarioRunner.ProgressSink sink = live == null ? progress : (scenario, round, p) -> {
            progress.report(scenario, round, p);
            live.sample((round == 0 ? "cluster warm-up" : "round " + round + " " + scenario.name()) + (p.measuring() ? "" : " (warm-up)"),
                    p.intervalOpsPerSecond(), p.intervalP50Micros(), null, p.done(), p.errors());
        };
        if (acrossReleases != null) {
            return runAcrossReleases(acrossReleases, config, runDir, sink);
        }
        long startNanos = System.nanoTime();
        Topology topology;
        try {
            topology = cluster.startAnnounced(console, runDir.resolve("members"), MemberTuning.NONE, progressEvery,
                    liveOptions::close);
        } finally {
            RunDirectory.removeIfEmpty(runDir);
        }
        topology.takeOverShutdown(); // the hook below writes what was measured first, then stops the members
        MatrixRun run = new MatrixRun(config, console, sink);
        // a no-op when the main thread closed the topology first
        Interruption interruption = new Interruption(run::stop, topology::close);
        try {
            ClusterChoice.printReady(console, topology, startNanos);
            run.run(topology, runDir);
        } finally {
            topology.close();
            liveOptions.close();
            try {
                RunDirectory.writeSummary(console, runDir, commandName(), run.results(), run.verdicts());
                RunDirectory.removeIfEmpty(runDir);
                // Before the hook is released: on Ctrl-C the JVM ends as soon as the hook returns.
                String summary = RunLines.notOk(commandName(), run.results());
                if (summary != null) {
                    System.err.println(summary);
                }
            } finally {
                interruption.written();
            }
        }
        boolean interrupted = !interruption.disarm() || run.stopped();
        return ExitCodes.of(run.results(), interrupted, strict);
    }

    /**
     * A run with a version axis ({@code --hazelcast-version A,B}): fresh clusters of each release every round, each
     * scenario on each in turn; each release's results into a run directory of its own under {@code runDir}, and
     * {@code releases.md} comparing them.
     */
    private int runAcrossReleases(ReleaseAxisRun.Config config, MatrixRun.Config matrix, Path runDir,
                                  ScenarioRunner.ProgressSink sink) {
        ReleaseAxisRun run = new ReleaseAxisRun(config, ReleaseAxisRun.matrix(matrix, sink), System.out);
        boolean interrupted = ReleaseAxis.run(run, runDir, progressEvery, commandName(), liveOptions, (v, results) -> { });
        return ExitCodes.of(run.results(), interrupted, strict);
    }

    /** Checks what the options can tell before anything starts: a mistake here costs a second, not a minute. */
    private ClusterChoice validate(List<Scenario> scenarios) {
        if (slowMember < -1) {
            throw new IllegalArgumentException("--slow-member must be a member's index (or leave it out for the last"
                    + " member), was " + slowMember);
        }
        ClusterChoice cluster = clusterOptions.chooseAxisAware(slowMember);
        releaseChoices = clusterOptions.releaseChoices(cluster);
        if (!releaseChoices.isEmpty()) {
            cluster = releaseChoices.get(0);
        }
        clusterOptions.checkSlowNetwork(scenarios, cluster);
        delay.value(); // checked before anything starts
        RunDirectory.checkWritable(out.dir);
        return cluster;
    }

    /** The balancers' settings from {@code --lb-property}; a bad key or value is bad input. */
    ProbeSettings probeSettings() {
        for (String key : lbProperties.keySet()) {
            if (!PROBE_KEYS.contains(key)) {
                throw new IllegalArgumentException("--lb-property: unknown key '" + key + "'; known: " + String.join(", ", PROBE_KEYS));
            }
        }
        try {
            return ProbeSettings.fromProperties(lbProperties::get);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--lb-property: " + e.getMessage());
        }
    }

    static final List<String> PROBE_KEYS = List.of(ProbeSettings.CP_GROUP, ProbeSettings.PERIOD_MS, ProbeSettings.TIMEOUT_MS,
            ProbeSettings.WINDOW_MS, ProbeSettings.MIN_SAMPLES, ProbeSettings.EXCLUDE_RATIO, ProbeSettings.READMIT_RATIO,
            ProbeSettings.EXCLUDE_QUANTILE,
            ProbeSettings.SWITCH_MARGIN, ProbeSettings.STICKY, ProbeSettings.LEADER_HINT, ProbeSettings.LEADER_SILENCE_MS);
}
