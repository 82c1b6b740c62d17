package io.cpbench.bench.run;

import io.cpbench.core.result.ComparisonTable;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.cluster.SideBySide;
import io.cpbench.bench.cluster.StartProgress;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.results.RunLines;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.service.RunContext;
import io.cpbench.bench.suite.Matrix;
import io.cpbench.bench.suite.ScenarioRunner;
import io.cpbench.core.load.Durations;
import io.cpbench.core.result.Comparison;
import io.cpbench.core.result.RunResult;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/**
 * A run with a version axis ({@code matrix}, {@code run} or {@code load} with {@code --hazelcast-version 5.3.8,5.4.0}).
 * Every round runs on fresh clusters of each release, started side by side on this machine as stock members of one
 * configuration (this build's release too, so that the release is all that differs between them) and each warmed up;
 * then each scenario runs on every release back to back, the releases' order turning by one from scenario to scenario
 * and round to round, and the round's clusters are stopped. What runs on a cluster (a matrix's scenario runs, a
 * load) is the command's {@link Harness}.
 *
 * <p>A scenario's runs of one round form a pair (a set, with three releases), minutes apart at most: each later
 * release is compared with the first pair by pair ({@link Comparison#pairedByRound}), the interval a bootstrap over
 * the rounds. As each round has clusters of its own, differences between two clusters of one release (where the Raft
 * leaders and partitions land) fall into that interval instead of being credited to the release.
 *
 * <p>{@link #stop()} may be called from any thread (a Ctrl-C hook): the run in flight ends as INCOMPLETE with what it
 * measured, no other starts, and {@link #closeClusters()} then stops the clusters up.
 */
public final class ReleaseAxisRun extends ResultRun {

    /** The verdict's settings, as {@code ab}'s and {@code compare}'s defaults. */
    public static final double TOLERANCE = 0.05;
    public static final Set<Comparison.Metric> GATE = EnumSet.of(Comparison.Metric.OPS, Comparison.Metric.P50);
    /**
     * Fewest pairs (rounds) for a verdict: with 5 and nothing changed, all ratios fall on one side of 1 with
     * probability 2/32; with 3 (--quick's rounds), 1/4. Fewer give ratios and intervals, marked "too few pairs".
     */
    public static final int MIN_PAIRS = 5;

    /** What runs on one release's cluster in one round. */
    public interface OnCluster {
        /** Warms the cluster up, if the run warms clusters up; a line saying how it went, or null. */
        String warmUp();

        /** Runs {@code scenario} once, its result written to the release's run directory. */
        RunResult run(Scenario scenario, int round);

        /** Stops what runs now; any thread. */
        void stop();
    }

    /** Makes what runs on a cluster: its topology, the release's run directory, and the release. */
    public interface Harness {
        OnCluster on(Topology topology, Path releaseDir, String version);
    }

    /**
     * @param releases  each release's cluster (stock members, {@link ClusterChoice#stockMembers}), the first the one
     *                  the others are compared with
     * @param scenarios the scenarios, in the order of the first round
     * @param rounds    rounds, 1 or more
     */
    public record Config(List<ClusterChoice> releases, List<Scenario> scenarios, int rounds) {
        public Config {
            releases = List.copyOf(releases);
            scenarios = List.copyOf(scenarios);
            if (releases.size() < 2 || releases.stream().anyMatch(c -> !c.stock())) {
                throw new IllegalArgumentException("a version axis runs two or more releases, each on stock members");
            }
        }

        /** A line to print before the run when its rounds are too few for verdicts, else null. */
        public String tooFewRounds() {
            return rounds >= MIN_PAIRS ? null : String.format(Locale.ROOT, "%d round%s: the releases' ratios come"
                    + " with intervals but no verdict, which needs %d pairs or more (--rounds %d)", rounds,
                    rounds == 1 ? "" : "s", MIN_PAIRS, MIN_PAIRS);
        }

        /** {@code 5.3.8} for each release, in order. */
        public List<String> versions() {
            return releases.stream().map(c -> c.release().version()).toList();
        }

        /** {@code " x 2 Hazelcast releases (5.3.8, 5.4.0)"}, for a run's opening line. */
        public String describe() {
            return " x " + releases.size() + " Hazelcast releases (" + String.join(", ", versions()) + ")";
        }
    }

    private final Config config;
    private final Harness harness;
    private final Map<String, List<RunResult>> byRelease = new LinkedHashMap<>();
    private volatile List<Topology> up = List.of();

    public ReleaseAxisRun(Config config, Harness harness, PrintStream console) {
        super(console);
        this.config = config;
        this.harness = harness;
        config.versions().forEach(v -> byRelease.put(v, new CopyOnWriteArrayList<>()));
    }

    /** What a matrix (or {@code run}) runs on each cluster: its scenarios' runs, after the cluster's warm-up. */
    static Harness matrix(MatrixRun.Config matrix, ScenarioRunner.ProgressSink progress) {
        return (topology, releaseDir, version) -> {
            ScenarioRunner runner = new ScenarioRunner(topology, matrix.plans(), releaseDir, matrix.options(), progress);
            return new OnCluster() {
                @Override
                public String warmUp() {
                    if (matrix.warmup().none()) {
                        return null;
                    }
                    return String.format(Locale.ROOT, "warmed Hazelcast %s's cluster up: untimed ops through a smart"
                            + " client for %s, %,.0f op/s", version, matrix.warmup().human(), runner.warmCluster(matrix.warmup(), null));
                }

                @Override
                public RunResult run(Scenario scenario, int round) {
                    return runner.run(scenario, round);
                }

                @Override
                public void stop() {
                    runner.stop();
                }
            };
        };
    }

    /** Where release {@code version}'s results go under the run directory: a run directory of its own. */
    public static Path releaseDir(Path runDir, String version) {
        return runDir.resolve("hazelcast-" + version);
    }

    /** The results of release {@code version} so far, in the order they ran. */
    public List<RunResult> results(String version) {
        return List.copyOf(byRelease.get(version));
    }

    /**
     * Runs the rounds; each release's results go to {@link #releaseDir}, its member logs to
     * {@code members-<release>-<round>}.
     *
     * @throws TopologyException when a round's clusters cannot be started (what ran before is kept)
     */
    public void run(RunContext context) {
        Path runDir = context.runDir();
        List<Scenario> scenarios = config.scenarios();
        List<String> versions = config.versions();
        int rounds = config.rounds();
        int total = scenarios.size() * versions.size() * rounds;
        versions.forEach(v -> RunDirectory.create(releaseDir(runDir, v)));
        long measuringStart = System.nanoTime();
        for (int round = 1; round <= rounds && !stopped(); round++) {
            List<Topology> clusters = startClusters(context, round);
            try {
                List<OnCluster> on = new ArrayList<>();
                for (int i = 0; i < versions.size(); i++) {
                    on.add(harness.on(clusters.get(i), releaseDir(runDir, versions.get(i)), versions.get(i)));
                }
                for (int i = 0; i < on.size() && !stopped(); i++) {
                    OnCluster cluster = on.get(i);
                    stops.running(cluster::stop);
                    String line = cluster.warmUp();
                    if (line != null) {
                        console.println(line);
                    }
                }
                int k = 0;
                for (Scenario scenario : Matrix.orderForRound(scenarios, round)) {
                    for (int i : Matrix.orderForRound(java.util.stream.IntStream.range(0, versions.size()).boxed().toList(), round + k)) {
                        if (stopped()) {
                            break;
                        }
                        OnCluster cluster = on.get(i);
                        stops.running(cluster::stop);
                        long elapsed = System.nanoTime() - measuringStart;
                        long left = count() == 0 ? 0 : (long) (elapsed / 1e9 / count() * (total - count()));
                        console.printf(Locale.ROOT, "[round %d/%d, run %d of %d%s] %s on Hazelcast %s: %s%n", round,
                                rounds, count() + 1, total, left > 0 ? ", about " + Durations.human(left) + " left in all" : "",
                                scenario.name(), versions.get(i), scenario.description());
                        RunResult result = add(cluster.run(scenario, round));
                        byRelease.get(versions.get(i)).add(result);
                        console.println("    " + RunLines.oneLine(result));
                    }
                    k++;
                }
            } finally {
                stops.running(null);
                closeClusters();
            }
        }
    }

    /** This round's clusters, one per release, started side by side; announced as each command announces its cluster. */
    private List<Topology> startClusters(RunContext context, int round) {
        Path runDir = context.runDir();
        List<ClusterChoice> placed = SideBySide.withPorts(config.releases());
        List<String> versions = config.versions();
        console.println("round " + round + ": starting fresh clusters side by side: " + String.join("; ",
                placed.stream().map(ClusterChoice::describe).toList()) + " ...");
        List<Path> logDirs = versions.stream().map(v -> runDir.resolve("members-" + v + "-" + round)).toList();
        long t0 = System.nanoTime();
        List<Topology> clusters;
        try (StartProgress ignored = new StartProgress(System.err, context.progressEvery(), t0, logDirs.get(0))) {
            clusters = SideBySide.start(placed, versions.stream().map(v -> "Hazelcast " + v + "'s").toList(), logDirs);
        } catch (RuntimeException e) {
            // Ctrl-C while they started stops their members under them: what failed then is not news
            throw new TopologyException("round " + round + ": " + (stopped() ? "stopped while its clusters started"
                    : e.getMessage()));
        }
        up = clusters;
        clusters.forEach(context::own);
        if (stopped()) { // Ctrl-C came while they started
            closeClusters();
            throw new TopologyException("round " + round + ": stopped while its clusters started");
        }
        for (int i = 0; i < clusters.size(); i++) {
            console.print("  Hazelcast " + versions.get(i) + ": ");
            ClusterChoice.printReady(console, clusters.get(i), t0);
        }
        return clusters;
    }

    /** Stops the clusters that are up; any thread, any number of times. */
    public void closeClusters() {
        List<Topology> clusters = up;
        up = List.of();
        SideBySide.stop(clusters, console::println);
    }

    /**
     * Release {@code version} against the first, per scenario, paired by round ({@link Comparison#pairedByRound}),
     * judged by {@link #TOLERANCE} and {@link #GATE}; rows with fewer than {@link #MIN_PAIRS} pairs are not judged.
     */
    public Comparison.Result comparison(String version) {
        return Comparison.undecidedBelow(Comparison.pairedByRound(config.scenarios().stream().map(Scenario::name).toList(),
                byRelease.get(config.versions().get(0)), byRelease.get(version), TOLERANCE, GATE), MIN_PAIRS);
    }

    /**
     * Writes what ran: for each release with results, its table and CSV ({@link RunDirectory#writeSummary}, then
     * {@code more} with its results), then {@code releases.md}, each printed too. What has nothing is left out.
     */
    public void writeSummaries(Path runDir, String commandName, BiConsumer<String, List<RunResult>> more) {
        for (String version : config.versions()) {
            Path dir = releaseDir(runDir, version);
            List<RunResult> results = results(version);
            if (!results.isEmpty()) {
                console.println();
                console.println("== Hazelcast " + version);
                RunDirectory.writeSummary(console, dir, commandName + " on Hazelcast " + version, results, List.of());
                more.accept(version, results);
            }
            RunDirectory.removeIfEmpty(dir);
        }
        if (!results().isEmpty()) {
            String releases = releasesMarkdown(commandName);
            console.println();
            console.print(releases);
            RunDirectory.writeText(runDir, "releases.md", releases);
            console.println("wrote releases.md to " + runDir);
        }
        RunDirectory.removeIfEmpty(runDir);
    }

    /** {@code releases.md}: each later release against the first, with how the runs were made. */
    String releasesMarkdown(String commandName) {
        List<String> versions = config.versions();
        StringBuilder b = new StringBuilder("# cp-bench " + commandName + " across Hazelcast releases\n\n");
        b.append(String.format(Locale.ROOT, "Releases: %s (members); clients: Hazelcast %s. Each round: a fresh"
                        + " cluster of each release (%s), started side by side; each scenario then ran on every release"
                        + " back to back, in an order turning from scenario to scenario. Pairs are a scenario's runs of"
                        + " one round; the intervals are a bootstrap over the rounds.%n%n",
                String.join(", ", versions), com.hazelcast.instance.BuildInfoProvider.getBuildInfo().getVersion(),
                config.releases().get(0).describe().replace("Hazelcast " + versions.get(0), "Hazelcast <release>")));
        for (int i = 1; i < versions.size(); i++) {
            String base = "Hazelcast " + versions.get(0);
            String next = "Hazelcast " + versions.get(i);
            b.append("## ").append(next).append(" against ").append(base).append("\n\n");
            b.append(ComparisonTable.markdown(comparison(versions.get(i)), base, next, "pairs")).append('\n');
        }
        b.append("Each release's results: ").append(String.join(", ", versions.stream().map(v -> "hazelcast-" + v + "/").toList()))
                .append(" (its table.md; `cpbench report` renders one).\n");
        return b.toString();
    }
}
