package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.cluster.ClusterOptions;
import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.run.SweepGrid;
import io.cpbench.bench.run.SweepGridBuilder;
import io.cpbench.bench.run.SweepRun;
import io.cpbench.bench.service.ExitCodes;
import io.cpbench.bench.service.RunService;
import io.cpbench.bench.suite.ClusterWarmup;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.load.Threshold;
import io.cpbench.core.sweep.SweepAnalysis;
import io.cpbench.core.sweep.SweepCell;
import io.cpbench.core.sweep.SweepFile;
import io.cpbench.core.sweep.SweepReport;
import io.cpbench.lb.ProbeSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code cpbench sweep}: the load engine over a grid of routings x client instances x threads (or open-loop
 * rates), every cell warmed up and measured, cells interleaved and repeated as {@code matrix} does its scenarios;
 * then the knee under an SLO, a USL fit per routing, which routing wins at which level, and an optimal
 * configuration with its reasons.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Sweeps a grid on one cluster: routings (scenarios) x client instances x threads per client (or"
                + " open-loop rates). Each repeat runs every cell once, level by level, in an order rotated per repeat;"
                + " each cell is warmed up, then measured. Prints an estimate first, a line per cell, then throughput"
                + " against concurrency with 95 %% intervals, the knee (highest throughput within --slo), a Universal"
                + " Scalability Law fit per routing, which routing wins at each level, and an optimal configuration.",
                "--scenario names the routings to compare, as network (a) scenarios; without it (or the grid file's"
                        + " scenarios): client-leader-aware, client-smart, client-follower.",
                "Writes cells.csv (every cell run, as it ends), sweep.json and sweep.md. Ctrl-C keeps what was measured."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:the sweep ran (a level over the SLO is a finding, not a failure)",
                " 1:a cell FAILed (an invariant broke, or a session could not be set up), or the cluster could not start",
                " 2:bad input (grid, options); nothing was started",
                "130:interrupted (Ctrl-C); what was measured is analysed and kept, marked INCOMPLETE"},
        footer = {"", "Grid file (YAML; flags override it):",
                "  scenarios: [client-leader-aware, client-smart, client-follower]",
                "  clients: [1, 2]",
                "  threads: [1, 4, 16, 32, 64, 128]",
                "  rates: []            # op/s; when given, each cell is an open loop at that rate",
                "  mix: cas",
                "  duration: 10s",
                "  warmup: 3s",
                "  repeats: 3",
                "  slo: p99<10ms",
                "  members: {operation-threads: [2, 4]}   # member settings; each on a fresh cluster",
                "  fresh-clusters: false   # true: a fresh cluster per repeat",
                "", "Examples:",
                "  cpbench sweep --dry-run",
                "  cpbench sweep",
                "  cpbench sweep --scenario client-leader-aware,client-smart --clients 1,4 --threads 1,4,16 --slo 'p99<5ms'",
                "  cpbench sweep --threads 16 --rates 1000,2000,4000,8000 --slo 'p99.9<20ms'",
                "  cpbench sweep --scenario client-leader-aware --threads 4,16 --vary-member operation-threads=1,2,4",
                "  cpbench sweep --fresh-clusters --repeats 5",
                "  cpbench sweep --agents 2 --clients 2 --threads 4,16",
                "  cpbench sweep --grid sweep.yaml --failover fast"})
final class SweepCommand implements Callable<Integer> {

    @Option(names = "--grid", paramLabel = "FILE", description = "A YAML grid (see below); the options here override it.")
    Path gridFile;

    @picocli.CommandLine.Mixin
    ScenarioOption scenarioOption;

    @Option(names = "--clients", paramLabel = "N", split = ",", description = "Client instances per cell, a list (default: 1).")
    List<Integer> clients;

    @Option(names = "--threads", paramLabel = "T", split = ",", description = "Threads per client, a list (default: 1,4,16,32,64,128).")
    List<Integer> threads;

    @Option(names = "--rates", paramLabel = "OPS", split = ",", description = "Open-loop rates in op/s, a list: each cell then runs at a"
            + " rate with its workers (default: closed loop).")
    List<Double> rates;

    @Option(names = "--mix", paramLabel = "OP=W,...", description = "The ops each cell runs (default: cas, the seed's get + compareAndSet).")
    String mix;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class, description = "Measured time per cell (default: 10s).")
    Duration duration;

    @Option(names = "--warmup", paramLabel = "TIME", converter = DurationConverter.class, description = "Untimed ops per cell first (default: 3s).")
    Duration warmup;

    @Option(names = "--repeats", paramLabel = "N", description = "Times the whole grid runs, interleaved (default: 3).")
    Integer repeats;

    @Option(names = "--slo", paramLabel = "EXPR", description = "The latency bound of the knee, like p99<10ms or cas:p99.9<20ms (default: p99<10ms).")
    String slo;

    @Option(names = "--seed", paramLabel = "N", description = "Seed for op and object choices.")
    Long seed;

    /** Before the first cell, and on every fresh cluster. */
    @picocli.CommandLine.Mixin
    ClusterWarmupOption clusterWarmupOption;

    /** The cluster warm-up's length, read from its option when the command starts. */
    private Duration clusterWarmup;

    @Option(names = "--fresh-clusters", negatable = true, description = "Start a fresh cluster for every repeat, so that"
            + " the 95 %% intervals hold the spread between clusters, not only between cells on one (default: one cluster"
            + " for the whole sweep; always on with --vary-member).")
    Boolean freshClusters;

    @Option(names = "--vary-member", paramLabel = "KNOB=V1,V2", description = "A member setting to sweep, repeatable (settings"
            + " multiply): operation-threads, generic-threads, io-threads, raft-uncommitted-entries, raft-append-batch."
            + " Each setting runs on a fresh cluster, in every repeat.")
    List<String> vary;

    @Option(names = "--from", paramLabel = "DIR", description = "Analyse a sweep's run directory again (its sweep.json), with"
            + " --slo if given, instead of running one; writes nothing.")
    Path from;

    @Option(names = "--dry-run", description = "Print the cells and the estimate, and start nothing.")
    boolean dryRun;

    @Option(names = "--cell-lines", description = "Also print each cell's per-second line.")
    boolean cellLines;

    @Mixin
    LiveOptions liveOptions;

    @Mixin
    ClusterOptions clusterOptions;

    @Mixin
    AgentOptions agentOptions;

    @picocli.CommandLine.Mixin
    OutOption out;

    /** The grid's SLO, for each cell's run. */

    SweepGrid grid() {
        SweepGrid.FileValues file = gridFile == null ? SweepGrid.FileValues.NONE : SweepGrid.readFile(gridFile);
        Threshold threshold = SweepAnalysis.slo(pick(slo, file.slo(), "p99<10ms"));
        return SweepGridBuilder.builder()
                .scenarios(pick(scenarioOption.given() ? scenarioOption.names() : null, file.scenarios(),
                        SweepGrid.DEFAULT_SCENARIOS).stream().map(String::trim).toList())
                .clients(pick(clients, file.clients(), SweepGrid.DEFAULT_CLIENTS))
                .threads(pick(threads, file.threads(), SweepGrid.DEFAULT_THREADS))
                .rates(pick(rates, file.rates(), List.of())).mix(pick(mix, file.mix(), "cas"))
                .duration(pick(duration, file.duration(), Duration.ofSeconds(10)))
                .warmup(pick(warmup, file.warmup(), Duration.ofSeconds(3))).repeats(pick(repeats, file.repeats(), 3))
                .slo(threshold)
                .memberSettings(SweepGrid.memberGrid(vary != null && !vary.isEmpty() ? SweepGrid.parseVary(vary)
                        : file.members() != null ? file.members() : java.util.Map.of()))
                .freshClusters(pick(freshClusters, file.freshClusters(), false)).build();
    }

    private static <T> T pick(T flag, T file, T fallback) {
        return flag != null ? flag : file != null ? file : fallback;
    }

    @Override
    public Integer call() {
        PrintStream console = System.out;
        if (from != null) {
            return reanalyse(console, from);
        }
        clusterWarmup = clusterWarmupOption.length();
        SweepGrid grid = grid();
        ClusterChoice cluster = clusterOptions.choose(-1);
        SuiteOptions options = cluster.suiteOptions(-1, Duration.ofMillis(10), ProbeSettings.defaults());
        if (grid.clusterPerRepeat() && !cluster.startsMembers()) {
            throw new IllegalArgumentException((grid.clusterPerSetting() ? "--vary-member" : "--fresh-clusters")
                    + " needs members cp-bench starts (--topology local, embedded or containers)");
        }
        if (grid.clusterPerSetting() && cluster.stock()) {
            throw new IllegalArgumentException("--vary-member needs cp-bench's member launcher; --hazelcast-version "
                    + cluster.release() + " runs stock members, whose settings are Hazelcast's own");
        }
        List<SweepCell> cells = grid.cells();
        cells.forEach(c -> SweepRun.cellSpec(grid, c, seed)); // every cell's spec builds, before anything starts
        int agents = agentOptions.validate();
        if (agents != 0) { // and splits between the agents
            cells.forEach(c -> agentOptions.checkSplits(SweepRun.cellSpec(grid, c, seed),
                    io.cpbench.bench.scenario.Scenarios.byName(c.routing()), "cell " + c.routing() + " " + c.level()));
        }
        ClusterWarmup.of(clusterWarmup.isZero() ? Duration.ofSeconds(1) : clusterWarmup)
                .spec(SweepRun.cellSpec(grid, SweepRun.warmupCell(grid), seed)); // so does the warm-up's
        SweepRun run = new SweepRun(new SweepRun.Config(grid, seed, clusterWarmup, options, cluster, cellLines), console);
        if (dryRun) {
            run.describe(console);
            for (SweepCell c : cells) {
                console.println("  " + c);
            }
            return ExitCodes.OK;
        }
        return RunService.run(run, out.setup().withLive(liveOptions).withAgents(agentOptions));
    }

    /** {@code --from}: the analysis of a finished (or interrupted) sweep, again, under this --slo or its own. */
    private int reanalyse(PrintStream console, Path dir) {
        SweepFile sweep;
        try {
            sweep = SweepFile.read(dir);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--from: " + e.getMessage());
        }
        Threshold threshold = sweep.threshold(slo);
        SweepAnalysis analysis;
        try {
            analysis = sweep.analyse(threshold);
        } catch (IllegalArgumentException e) { // an SLO the kept percentiles cannot answer
            throw new IllegalArgumentException("--from: " + e.getMessage());
        }
        console.println("cp-bench sweep, analysed again: " + sweep.file() + " (" + sweep.runs().size() + " cell runs, status "
                + (sweep.status() == null ? "?" : sweep.status()) + "), SLO " + threshold.text());
        console.println();
        console.print(SweepReport.render(analysis));
        return ExitCodes.OK;
    }
}
