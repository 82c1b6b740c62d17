package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.cluster.ClusterOptions;
import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.run.AbProtocol;
import io.cpbench.bench.run.AbConfig;
import io.cpbench.bench.run.AbRun;
import io.cpbench.bench.scenario.Network;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.service.RunService;
import io.cpbench.core.result.Comparison;
import io.cpbench.core.stats.Percent;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code cpbench ab}: BASE and NEW builds measured side by side on one cluster. Each side is a client process of its
 * own build ({@link AbWorkerCommand}); they take turns in short slices, BASE-NEW then NEW-BASE, so both see the same
 * cluster and the same machine at nearly the same moment. Each pair of slices gives new ÷ base; the verdict comes
 * from the median of those ratios and its bootstrap interval, with {@code compare}'s rule.
 *
 * <p>Why: on a small shared machine the throughput of one unchanged client wanders by 6-8 % between 20-second
 * blocks (docs/reports.md), so two runs made minutes apart differ by more than a regression worth catching.
 * Alternating every second cancels most of that wander; what is left shrinks with the number of pairs.
 */
@Command(name = "ab", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compares two builds (or JVM settings) side by side: a client process of BASE and one of NEW on"
                + " one cluster, taking turns in short slices (BASE-NEW, then NEW-BASE), until the new ÷ base ratios"
                + " of the gated metrics are known to --until-ci. Per pair of slices: new ÷ base of op/s, p50 and p99;"
                + " the verdict is the median ratio with a 95 %% bootstrap interval over pairs, by compare's rule."
                + " Exits 1 when NEW is slower.",
                "Separate runs cannot do this on a shared machine: one client's op/s wanders by several percent"
                        + " from minute to minute, more than a regression worth catching.",
                "Both sides run the --scenario (default client-leader; network (a) only). Several scenarios are"
                        + " compared one after another, each into its own run directory; the exit code is the worst."},
        footer = {"", "Examples:",
                "  cpbench ab --new benchmarks/target/cpbench.jar --base baseline/cpbench.jar",
                "  cpbench ab --new-jvm-arg=-Dcpbench.plant.slowdown=10%%        (this build against itself, slowed)",
                "  cpbench ab --base-version 5.3.8 --new-version 5.4.0 --members 3   (Hazelcast releases, fresh clusters)",
                "  cpbench ab --topology attach --cluster-name prod --connect 10.0.0.1:5701 --scenario client-leader-aware"})
final class AbCommand implements Callable<Integer> {


    @Option(names = "--base", paramLabel = "JAR", description = "BASE: a cp-bench jar (cpbench.jar of that build)"
            + " (default: this cp-bench).")
    Path baseJar;

    @Option(names = "--new", paramLabel = "JAR", description = "NEW: a cp-bench jar (default: this cp-bench).")
    Path newJar;

    @Option(names = "--base-version", paramLabel = "V", description = "Compare Hazelcast releases: BASE's members run"
            + " release V (5.0.0-5.4.0; fetched into the local Maven repository on first use), NEW's run --new-version."
            + " Each side gets a fresh local cluster of its release for every pair of client processes (both stock"
            + " members of the same configuration, leader from metrics, links direct); both clients are this build's."
            + " Either option alone compares with this build's release (default: one cluster, this build's members).")
    String baseVersion;

    @Option(names = "--new-version", paramLabel = "V", description = "Compare Hazelcast releases: NEW's members run"
            + " release V (see --base-version).")
    String newVersion;

    @Option(names = "--base-jvm-arg", paramLabel = "ARG", description = "A JVM argument for BASE's client process"
            + " (repeatable), e.g. --base-jvm-arg=-Xmx512m.")
    List<String> baseJvmArgs = new ArrayList<>();

    @Option(names = "--new-jvm-arg", paramLabel = "ARG", description = "A JVM argument for NEW's client process"
            + " (repeatable), e.g. --new-jvm-arg=-Dcpbench.plant.slowdown=10%%.")
    List<String> newJvmArgs = new ArrayList<>();

    /** The scenario both sides run: client-leader unless named; several are compared one after another. */
    @picocli.CommandLine.Mixin
    ScenarioOption scenarioOption;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "Threads calling the op back to back in each client, 1-256 (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--slice", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "1s",
            description = "How long each side runs per turn, 100ms-60s (default: ${DEFAULT-VALUE}).")
    Duration slice;

    @Option(names = "--warmup", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "30s",
            description = "Untimed turns per side before the first pair (default: ${DEFAULT-VALUE}; 0 for none).")
    Duration warmup;

    @Option(names = "--until-ci", paramLabel = "PCT", defaultValue = "3%",
            description = "Stop once the 95 %% interval of every gated ratio is within this of its median, after"
                    + " --min-pairs; 0 to run --max-pairs (default: ${DEFAULT-VALUE}).")
    String untilCi;

    @Option(names = "--restart-every", paramLabel = "N", defaultValue = "50",
            description = "Start both client processes anew after every N pairs (warmed up again for up to 5s a"
                    + " side), so that a lasting difference between two JVMs of one build varies as pairs do and the"
                    + " interval holds it (it resamples the process pairs, then the pairs in them); --until-ci then"
                    + " stops only after 2 or more whole process pairs. 0 for never (default: ${DEFAULT-VALUE}).")
    int restartEvery;

    @Option(names = "--min-pairs", paramLabel = "N", defaultValue = "30",
            description = "Pairs before --until-ci may stop, 5 or more (default: ${DEFAULT-VALUE}).")
    int minPairs;

    @Option(names = "--max-pairs", paramLabel = "N", defaultValue = "600",
            description = "Pairs at most (default: ${DEFAULT-VALUE}).")
    int maxPairs;

    @Option(names = "--max-time", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "15m",
            description = "Time for the pairs at most, warm-up excluded (default: ${DEFAULT-VALUE}).")
    Duration maxTime;

    @Mixin
    GateOptions gateOptions;

    @Mixin
    ClusterOptions clusterOptions;

    @picocli.CommandLine.Mixin
    OutOption out;

    @Override
    public Integer call() throws Exception {
        List<Scenario> scenarios = scenarioOption.scenariosOr("client-leader");
        for (Scenario chosen : scenarios) {
            if (chosen.network() != Network.PLAIN) {
                throw new IllegalArgumentException("ab runs network (a) scenarios; " + chosen.name() + " runs on network"
                        + " (b), which only the process holding the network emulator can switch");
            }
        }
        double tol = gateOptions.tolerance();
        Set<Comparison.Metric> gated = gateOptions.gated();
        List<AbConfig.Turns> turns = scenarios.stream().map(s -> new AbConfig.Turns(s.name(), threads, slice, warmup))
                .toList();
        AbConfig.Stopping stopping = stopping();
        ClusterChoice cluster = clusterOptions.choose(-1);
        if (!(cluster.startsMembers() && !cluster.containers()) && !cluster.attachTopology()) {
            throw new IllegalArgumentException("ab runs on --topology local or attach, not " + cluster.topology());
        }
        AbConfig.Releases releases = releases(cluster);
        List<String> baseCommand = AbProtocol.workerCommand(baseJar, "--base", baseJvmArgs, CpBench.class,
                AbWorkerCommand.class);
        List<String> newCommand = AbProtocol.workerCommand(newJar, "--new", newJvmArgs, CpBench.class,
                AbWorkerCommand.class);
        List<String> sides = releases == null
                ? List.of("BASE: " + describe(baseJar, baseJvmArgs), "NEW: " + describe(newJar, newJvmArgs))
                : List.of("BASE: " + describe(baseJar, baseJvmArgs) + " on " + releases.describe(releases.base()),
                "NEW: " + describe(newJar, newJvmArgs) + " on " + releases.describe(releases.next()));
        AbConfig.Where where = new AbConfig.Where(cluster, clusterOptions.toArgs(), releases, sides);
        return RunService.runEach(turns.stream().map(t -> new AbRun(new AbConfig(t, stopping, tol, gated, baseCommand,
                newCommand, cluster.startupTimeout(), where), System.out)).toList(), out.setup());
    }

    private AbConfig.Releases releases(ClusterChoice cluster) {
        if (baseVersion == null && newVersion == null) {
            return null;
        }
        if (clusterOptions.releaseGiven()) {
            throw new IllegalArgumentException("--hazelcast-version names one release for both sides; ab compares"
                    + " releases with --base-version and --new-version");
        }
        if (!"local".equals(cluster.topology())) {
            throw new IllegalArgumentException("--base-version and --new-version start members of each release on this"
                    + " machine: --topology local only, not " + cluster.topology());
        }
        String build = io.cpbench.topology.HazelcastRelease.build().version();
        int port = cluster.basePort();
        ClusterChoice base = stock(cluster, "--base-version", baseVersion == null ? build : baseVersion, port);
        ClusterChoice next = stock(cluster, "--new-version", newVersion == null ? build : newVersion,
                port == 0 ? 0 : port + cluster.memberCount());
        return new AbConfig.Releases(base, next);
    }

    /** Stock members of {@code version}, its jar resolved; a bad version's one line names {@code option}. */
    private static ClusterChoice stock(ClusterChoice cluster, String option, String version, int port) {
        try {
            return cluster.stockMembers(version, port).resolveRelease(System.out);
        } catch (IllegalArgumentException e) {
            String message = String.valueOf(e.getMessage());
            throw new IllegalArgumentException(message.startsWith("--hazelcast-version ")
                    ? option + message.substring("--hazelcast-version".length()) : option + " " + version + ": " + message, e);
        }
    }

    /** When the pairs end, from --until-ci, --min-pairs, --max-pairs, --max-time and --restart-every. */
    private AbConfig.Stopping stopping() {
        return new AbConfig.Stopping(Percent.parse(untilCi, "--until-ci"), minPairs, maxPairs, maxTime, restartEvery);
    }

    private static String describe(Path jar, List<String> jvmArgs) {
        return (jar == null ? "this build (" + new CpBench.Version().getVersion()[0] + ")" : jar.toString())
                + (jvmArgs.isEmpty() ? "" : " with " + String.join(" ", jvmArgs));
    }
}
