package io.cpbench.bench.run;

import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.results.RunLines;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.service.RunContext;
import io.cpbench.bench.service.RunKind;
import io.cpbench.bench.suite.ClusterWarmup;
import io.cpbench.bench.suite.Matrix;
import io.cpbench.bench.suite.ScenarioRunner;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.load.Durations;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.ScenarioTable;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.status.Status;
import io.cpbench.topology.Topology;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A matrix (or {@code run}): the cluster warmed up, then every scenario once per round, interleaved
 * ({@link Matrix#run}), each a {@link ScenarioRunner} run of its plan whose result is written as it ends; a fixed
 * number of rounds, or until the ratios are known ({@link UntilCi}).
 *
 * <p>A run runs once. {@link #stop()} may be called from any thread (a Ctrl-C hook): the scenario in flight ends as
 * INCOMPLETE with what it measured, and no other starts.
 */
public final class MatrixRun extends ReleaseAwareRun implements RunKind {

    /**
     * @param name      the command: {@code matrix} or {@code run}
     * @param scenarios the scenarios, in the order of the first round
     * @param plan      the plan the options give
     * @param plans     each scenario's plan (a scenario through the slow member may have a shorter time box)
     * @param rounds    rounds at most
     * @param untilCi   rounds until the ratios are known (every scenario's network then needs its baseline among the
     *                  scenarios), or null for {@code rounds} rounds
     * @param warmup    the cluster's warm-up before the first round
     * @param warmupRound how long each scenario runs, untimed, in the warm-up round before round 1; zero for none
     * @param options   cluster-wide settings the scenarios' sessions use
     * @param cluster   the cluster (the first release's with a version axis)
     * @param releases  with a version axis ({@code --hazelcast-version A,B}), every release's cluster; else empty
     * @param strict    UNSTABLE and TIMEBOXED results make the exit code 3
     */
    public record Config(String name, List<Scenario> scenarios, LoadSpec plan, Function<Scenario, LoadSpec> plans, int rounds,
                         UntilCi untilCi, ClusterWarmup warmup, Duration warmupRound, SuiteOptions options, ClusterChoice cluster,
                         List<ClusterChoice> releases, boolean strict) {
        public Config {
            scenarios = List.copyOf(scenarios);
            releases = List.copyOf(releases);
            if (rounds < 1 || rounds > 1000) {
                throw new IllegalArgumentException("--rounds must be 1-1000, was " + rounds);
            }
            if (untilCi != null) {
                if (!releases.isEmpty()) {
                    throw new IllegalArgumentException("--until-ci with several --hazelcast-version releases: give --rounds"
                            + " (each round starts fresh clusters of every release)");
                }
                for (Scenario scenario : scenarios) {
                    if (scenarios.stream().noneMatch(s -> s.isBaseline() && s.network() == scenario.network())) {
                        throw new IllegalArgumentException("--until-ci compares each scenario with its network's baseline,"
                                + " the client-to-leader scenario; add the one of network (" + scenario.network().code()
                                + ") to --scenario: " + Scenarios.all().stream()
                                .filter(s -> s.isBaseline() && s.network() == scenario.network()).map(Scenario::name)
                                .findFirst().orElse("?"));
                    }
                }
                if (scenarios.stream().allMatch(Scenario::isBaseline)) {
                    throw new IllegalArgumentException("--until-ci needs a scenario to compare with the baseline");
                }
            }
        }

        /** The version axis's settings, or null without one. */
        ReleaseAxisRun.Config acrossReleases() {
            return releases.isEmpty() ? null : new ReleaseAxisRun.Config(releases, scenarios, rounds);
        }
    }

    private final Config config;

    public MatrixRun(Config config, PrintStream console) {
        super(console);
        this.config = config;
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public ClusterChoice cluster() {
        return config.acrossReleases() == null ? config.cluster() : null;
    }

    @Override
    public void announce(PrintStream out, Path runDir) {
        List<Scenario> scenarios = config.scenarios();
        LoadSpec plan = config.plan();
        Function<Scenario, LoadSpec> plans = config.plans();
        UntilCi untilCi = config.untilCi();
        int rounds = config.rounds();
        ReleaseAxisRun.Config across = config.acrossReleases();
        int releases = Math.max(1, config.releases().size());
        long boxedRound = scenarios.stream().mapToLong(s -> plans.apply(s).bounds().timebox().toSeconds()).sum();
        Duration shortestBox = scenarios.stream().map(s -> plans.apply(s).bounds().timebox()).min(Duration::compareTo).orElseThrow();
        boolean shorterBoxes = shortestBox.compareTo(plan.bounds().timebox()) < 0;
        out.printf(Locale.ROOT, "cp-bench %s: %d scenario%s x %d round%s%s; %s; time box %s per scenario%s (at most %s in all)%n",
                name(), scenarios.size(), scenarios.size() == 1 ? "" : "s", rounds, rounds == 1 ? "" : "s",
                across == null ? "" : across.describe(),
                RunLines.describe(plan), Durations.human(plan.bounds().timebox()),
                shorterBoxes ? ", " + Durations.human(shortestBox) + " through the slow member" : "",
                untilCi != null && untilCi.maxTime().toSeconds() < boxedRound * rounds
                        ? Durations.human(untilCi.maxTime().toSeconds() + boxedRound) + ": --max-time, plus the round in flight"
                        : Durations.human(boxedRound * rounds * releases)
                        + (releases == 1 ? "" : ", plus each round's cluster starts"));
        if (untilCi != null) {
            out.println(untilCi.describe());
        }
        if (across != null && across.tooFewRounds() != null) {
            out.println(across.tooFewRounds());
        }
        out.println("results -> " + runDir);
        String planted = io.cpbench.core.workload.PlantedSlowdown.banner();
        if (planted != null) {
            out.println(planted);
        }
        String slowStart = io.cpbench.core.load.PlantedSlowStart.banner();
        if (slowStart != null) {
            out.println(slowStart);
        }
    }

    @Override
    public void run(RunContext context) {
        ScenarioRunner.ProgressSink progress = progress(context);
        ReleaseAxisRun.Config across = config.acrossReleases();
        if (across != null) {
            runAcross(across, ReleaseAxisRun.matrix(config, progress), context);
            return;
        }
        run(context.topology(), context.runDir(), progress);
    }

    @Override
    public void write(RunContext context) {
        List<RunResult> results;
        if (axis() != null) {
            axis().writeSummaries(context.runDir(), name(), (v, byRelease) -> { });
            results = axis().results();
        } else {
            List<String> notes = new java.util.ArrayList<>(verdicts());
            notes.addAll(warmupNotes());
            RunDirectory.writeSummary(console, context.runDir(), name(), results(), notes);
            results = results();
        }
        String summary = RunLines.notOk(name(), results);
        if (summary != null) {
            System.err.println(summary);
        }
    }

    /** The worst of its results' statuses; OK with none. */
    @Override
    public Status status() {
        return worstOrOk(allResults());
    }

    @Override
    public boolean strict() {
        return config.strict();
    }

    /** Progress lines on stderr each {@code --progress}, and the live view's samples when it runs. */
    private ScenarioRunner.ProgressSink progress(RunContext context) {
        ConsoleProgress lines = new ConsoleProgress(System.err, context.progressEvery(), config.rounds());
        io.cpbench.bench.report.LiveView live = context.live();
        return live == null ? lines : (scenario, round, spec) -> LoadEngine.Listener.both(lines.listener(scenario, round, spec),
                new LoadEngine.Listener() {
                    private final String what = round == 0 ? "cluster warm-up"
                            : round == ScenarioRunner.WARMUP_ROUND ? "warm-up round " + scenario.name()
                            : "round " + round + " " + scenario.name();
                    private long errors;

                    @Override
                    public void warmingUp(long done, long target, double elapsedSeconds, double opsPerSecond, long p50Micros) {
                        live.sample(what + " (warm-up)", opsPerSecond, p50Micros, null, done, 0);
                    }

                    @Override
                    public void interval(LoadEngine.IntervalReport r) {
                        errors += r.errors();
                        live.sample(what, r.opsPerSecond(), r.latency().p50(), null, r.done(), errors);
                    }
                });
    }

    /** With --until-ci, each scenario's ratio to its baseline and whether it is known well enough; else none. */
    public List<String> verdicts() {
        return config.untilCi() == null || count() == 0 ? List.of() : config.untilCi().verdicts(results());
    }

    /** Warms {@code topology} up, then runs the rounds; results and interval logs go to {@code runDir}. */
    private void run(Topology topology, Path runDir, ScenarioRunner.ProgressSink progress) {
        ScenarioRunner runner = new ScenarioRunner(topology, config.plans(), runDir, config.options(), progress);
        stops.running(runner::stop);
        warmups.clear();
        List<Scenario> scenarios = config.scenarios();
        int rounds = config.rounds();
        Estimate estimate = new Estimate(config.plans(), scenarios, rounds);
        ClusterWarmup warmup = config.warmup();
        if (!warmup.none() && !stops.stopped()) {
            double rate = runner.warmCluster(warmup, console);
            estimate.rate(rate);
            long seconds = estimate.remainingSeconds(0, 0);
            if (seconds > 0 && config.warmupRound() != null) { // the warm-up round's scenarios too (their set-up not)
                seconds += scenarios.size() * config.warmupRound().toSeconds();
            }
            if (seconds > 0) {
                console.printf(Locale.ROOT, "at that rate, with scenarios through the slow member at their time box,"
                        + " this takes about %s%n", Durations.human(seconds));
            }
        }
        RunDirectory.create(runDir);
        warmUpRound(runner, scenarios);
        int total = scenarios.size() * rounds;
        long measuringStart = System.nanoTime();
        UntilCi untilCi = config.untilCi();
        Matrix.run(runner, scenarios, rounds,
                (round, scenario) -> {
                    int k = count() + 1;
                    long left = estimate.remainingSeconds(count(), System.nanoTime() - measuringStart);
                    console.printf(Locale.ROOT, "[round %d/%d, scenario %d of %d%s] %s: %s%n", round, rounds, k, total,
                            left > 0 ? ", about " + Durations.human(left) + " left in all" : "", scenario.name(),
                            scenario.description());
                },
                (round, result) -> {
                    add(result);
                    console.println("    " + RunLines.oneLine(result));
                },
                done -> untilCi == null || untilCi.another(done, results(), Duration.ofNanos(System.nanoTime() - measuringStart),
                        console));
        if (untilCi == null) { // --until-ci adds rounds while the intervals are wide, as a left-out round leaves them
            runAgain(runner, scenarios, rounds);
        }
    }

    /** The warm-up round's runs, in the order they ran; empty without one. */
    private final List<ScenarioRunner.WarmupRun> warmups = new java.util.ArrayList<>();

    /**
     * The warm-up round, as JMH warms up before it measures: before round 1, every scenario once, in round 1's order,
     * through its own client for {@link Config#warmupRound}, untimed, so that round 1 measures compiled client paths and
     * made connections as the later rounds do. Its op/s go in the table's notes beside the measured rounds'.
     */
    private void warmUpRound(ScenarioRunner runner, List<Scenario> scenarios) {
        Duration length = config.warmupRound();
        if (length == null || length.isZero() || stops.stopped()) {
            return;
        }
        List<Scenario> order = Matrix.orderForRound(scenarios, 1);
        console.printf(Locale.ROOT, "warm-up round: each scenario once for %s through its own client, untimed and not in"
                + " the results (--warmup-round)%n", Durations.format(length));
        for (int i = 0; i < order.size() && !stops.stopped(); i++) {
            Scenario scenario = order.get(i);
            console.printf(Locale.ROOT, "[warm-up round, scenario %d of %d] %s%n", i + 1, order.size(), scenario.name());
            ScenarioRunner.WarmupRun run = runner.warmUp(scenario, length);
            warmups.add(run);
            console.printf(Locale.ROOT, "    warm-up  %,.0f op/s in %.1f s%s%n", run.opsPerSecond(), run.seconds(),
                    run.problem() == null ? "" : "  (" + run.problem() + ")");
        }
    }

    /**
     * The warm-up round beside the measured rounds, for the table's notes: each scenario's warm-up op/s, its round 1's,
     * and the median of its measured rounds; empty without a warm-up round.
     */
    List<String> warmupNotes() {
        if (warmups.isEmpty()) {
            return List.of();
        }
        List<List<String>> cells = new java.util.ArrayList<>();
        for (ScenarioRunner.WarmupRun warm : warmups) {
            double[] measured = results().stream().filter(r -> r.label().equals(warm.scenario()))
                    .mapToDouble(r -> r.measured().opsPerSecond()).sorted().toArray();
            double first = results().stream().filter(r -> r.label().equals(warm.scenario()) && r.round() == 1)
                    .mapToDouble(r -> r.measured().opsPerSecond()).findFirst().orElse(Double.NaN);
            double median = measured.length == 0 ? Double.NaN : io.cpbench.core.stats.Bootstrap.median(measured);
            cells.add(List.of(warm.scenario(), String.format(Locale.ROOT, "%,.0f", warm.opsPerSecond()),
                    Double.isNaN(first) ? "–" : String.format(Locale.ROOT, "%,.0f", first),
                    Double.isNaN(median) ? "–" : String.format(Locale.ROOT, "%,.0f", median),
                    Double.isNaN(median) || median == 0 ? "–" : String.format(Locale.ROOT, "%.2f", warm.opsPerSecond() / median),
                    warm.problem() == null ? "" : warm.problem()));
        }
        List<String> lines = new java.util.ArrayList<>();
        lines.add(String.format(Locale.ROOT, "Warm-up round (%s a scenario, untimed, not in the results above): what it"
                + " ran at beside the measured rounds", Durations.format(config.warmupRound())));
        lines.add("");
        lines.addAll(io.cpbench.core.result.MarkdownTable.render(List.of("Scenario", "warm-up op/s", "round 1 op/s",
                "op/s (table's median)", "warm-up ÷ median", "problem"), cells).lines().toList());
        return lines;
    }

    /** The most rounds run again because a round was disturbed: a matrix does not run on and on on a busy machine. */
    static final int MAX_RERUNS = 2;

    /**
     * Runs each disturbed round ({@link ScenarioTable.Disturbed}: a scenario's op/s, the baseline's or another's, under
     * half its other rounds') once more at the end, as a new round, at most {@link #MAX_RERUNS}: the disturbed round
     * stays in the results, left out of the ratios it would skew, and the new round gives them the pairs it would
     * have. One line for each disturbed scenario.
     */
    private void runAgain(ScenarioRunner runner, List<Scenario> scenarios, int rounds) {
        // each disturbed round once, in round order, with every scenario disturbed in it
        java.util.TreeMap<Integer, List<ScenarioTable.Disturbed>> byRound = new java.util.TreeMap<>();
        ScenarioTable.disturbedWithinNetwork(results())
                .forEach(d -> byRound.computeIfAbsent(d.round(), k -> new java.util.ArrayList<>()).add(d));
        List<List<ScenarioTable.Disturbed>> disturbed = List.copyOf(byRound.values());
        for (int i = 0; i < Math.min(MAX_RERUNS, disturbed.size()) && !stops.stopped(); i++) {
            int round = rounds + i + 1;
            List<ScenarioTable.Disturbed> lines = disturbed.get(i);
            int again = lines.get(0).round();
            for (int j = 0; j < lines.size(); j++) {
                console.printf(Locale.ROOT, "%s%s%n", lines.get(j).line(),
                        j == lines.size() - 1 ? "; running the round again, as round " + round : "");
            }
            for (Scenario scenario : Matrix.orderForRound(scenarios, round)) {
                if (stops.stopped()) {
                    break;
                }
                console.printf(Locale.ROOT, "[round %d, again for round %d] %s: %s%n", round, again, scenario.name(),
                        scenario.description());
                RunResult result = runner.run(scenario, round);
                add(result);
                console.println("    " + RunLines.oneLine(result));
            }
        }
        if (disturbed.size() > MAX_RERUNS) {
            console.printf(Locale.ROOT, "%d more disturbed round%s not run again (at most %d are): left out of the ratios%n",
                    disturbed.size() - MAX_RERUNS, disturbed.size() - MAX_RERUNS == 1 ? "" : "s", MAX_RERUNS);
        }
    }

    /** How long what is left should take: from the scenarios run so far, or before any from the warm-up's rate. */
    static final class Estimate {
        private final Function<Scenario, LoadSpec> plans;
        private final List<Scenario> scenarios;
        private final int rounds;
        private double rate;

        Estimate(Function<Scenario, LoadSpec> plans, List<Scenario> scenarios, int rounds) {
            this.plans = plans;
            this.scenarios = scenarios;
            this.rounds = rounds;
        }

        void rate(double opsPerSecond) {
            rate = opsPerSecond;
        }

        long remainingSeconds(int done, long elapsedNanos) {
            int total = scenarios.size() * rounds;
            if (done > 0) {
                return (long) (elapsedNanos / 1e9 / done * (total - done));
            }
            long perRound = 0;
            for (Scenario scenario : scenarios) {
                LoadSpec plan = plans.apply(scenario);
                long box = plan.bounds().timebox().toSeconds();
                long fast;
                long warm = plan.warmup().toSeconds() + (rate > 0 ? (long) (plan.bounds().warmupOps() / rate) : 0);
                if (plan.measuredFor() != null) {
                    fast = plan.measuredFor().toSeconds() + warm;
                } else if (rate > 0) {
                    fast = warm + (long) (plan.bounds().ops() / rate);
                } else {
                    return 0;
                }
                // Through the slow member an op costs tens of ms: those scenarios run to their time box.
                perRound += scenario.callsReachSlowMember() && plan.measuredFor() == null ? box : Math.min(fast, box);
            }
            return perRound * rounds;
        }
    }
}
