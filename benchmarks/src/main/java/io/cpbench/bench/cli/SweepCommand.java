package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.suite.Matrix;
import io.cpbench.bench.suite.LoadWarmup;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.Threshold;
import io.cpbench.core.result.Environment;
import io.cpbench.core.result.Status;
import io.cpbench.core.sweep.CellRun;
import io.cpbench.core.sweep.SweepAnalysis;
import io.cpbench.core.sweep.SweepCell;
import io.cpbench.core.sweep.SweepDocument;
import io.cpbench.core.sweep.SweepFile;
import io.cpbench.core.sweep.SweepReport;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.MemberTuning;
import io.cpbench.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

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

    @picocli.CommandLine.Mixin
    OutOption out;

    /** The grid's SLO, for each cell's run. */
    private Threshold sloThreshold;
    private SuiteOptions options;
    private volatile LoadEngine current;
    private volatile boolean interrupted;

    SweepGrid grid() {
        SweepGrid.FileValues file = gridFile == null ? SweepGrid.FileValues.NONE : SweepGrid.readFile(gridFile);
        Threshold threshold = SweepAnalysis.slo(pick(slo, file.slo(), "p99<10ms"));
        return new SweepGrid(pick(scenarioOption.given() ? scenarioOption.names() : null, file.scenarios(), SweepGrid.DEFAULT_SCENARIOS).stream().map(String::trim).toList(),
                pick(clients, file.clients(), SweepGrid.DEFAULT_CLIENTS), pick(threads, file.threads(), SweepGrid.DEFAULT_THREADS),
                pick(rates, file.rates(), List.of()), pick(mix, file.mix(), "cas"),
                pick(duration, file.duration(), Duration.ofSeconds(10)), pick(warmup, file.warmup(), Duration.ofSeconds(3)),
                pick(repeats, file.repeats(), 3), threshold,
                SweepGrid.memberGrid(vary != null && !vary.isEmpty() ? SweepGrid.parseVary(vary)
                        : file.members() != null ? file.members() : java.util.Map.of()),
                pick(freshClusters, file.freshClusters(), false));
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
        clusterWarmup = clusterWarmupOption.length(false);
        SweepGrid grid = grid();
        clusterOptions.validate(-1);
        sloThreshold = grid.slo();
        options = clusterOptions.suiteOptions(-1, Duration.ofMillis(10), ProbeSettings.defaults());
        if (grid.clusterPerRepeat() && !clusterOptions.startsMembers()) {
            throw new IllegalArgumentException((grid.clusterPerSetting() ? "--vary-member" : "--fresh-clusters")
                    + " needs members cp-bench starts (--topology local, embedded or containers)");
        }
        List<SweepCell> cells = grid.cells();
        cells.forEach(c -> cellSpec(grid, c, seed)); // every cell's spec builds, before anything starts
        LoadWarmup.spec(warmBase(grid), clusterWarmup.isZero() ? Duration.ofSeconds(1) : clusterWarmup); // so does the warm-up's
        console.println("cp-bench sweep: " + grid.describe());
        console.printf(Locale.ROOT, "estimate: %s for the cells%s, plus the cluster's start and %s warm-up%n",
                ConsoleProgress.human(grid.estimate(clusterWarmup)),
                grid.clusterPerSetting() ? " and the clusters of the other settings"
                        : grid.clusterPerRepeat() ? " and the other repeats' clusters" : "", ConsoleProgress.human(clusterWarmup));
        if (dryRun) {
            for (SweepCell c : cells) {
                console.println("  " + c);
            }
            return ExitCodes.OK;
        }
        RunDirectory.checkWritable(out.dir);
        Path runDir = RunDirectory.choose(out.dir, "sweep");
        console.println("results -> " + runDir);
        liveOptions.start(console, runDir, "cp-bench sweep (live)");
        List<CellRun> runs = new CopyOnWriteArrayList<>();
        AtomicReference<Topology> live = new AtomicReference<>();
        Interruption interruption = new Interruption(this::stop, () -> {
            Topology t = live.getAndSet(null);
            if (t != null) {
                t.close();
            }
        });
        BufferedWriter csv = null;
        Instant started = Instant.now();
        try {
            RunDirectory.create(runDir);
            csv = Files.newBufferedWriter(runDir.resolve("cells.csv"), StandardCharsets.UTF_8);
            csv.write(CellRun.CSV_HEADER);
            csv.newLine();
            csv.flush();
            Progress progress = new Progress(console, cells.size() * grid.repeats(),
                    grid.clusterPerRepeat() ? grid.repeats() * grid.memberSettings().size() : 1, csv, runs);
            if (!grid.clusterPerRepeat()) {
                progress.clusterStarting();
                Topology topology = startCluster(console, grid.memberSettings().get(0), runDir.resolve("members"), live);
                warmCluster(console, grid, topology);
                Matrix.rounds(cells, grid.repeats(), () -> interrupted, done -> true,
                        (repeat, cell) -> progress.run(() -> runCell(grid, cell, repeat, topology, runDir)));
            } else {
                // A cluster per member setting and repeat, settings in an order rotated per repeat, as the cells are.
                outer:
                for (int repeat = 1; repeat <= grid.repeats(); repeat++) {
                    List<MemberTuning> order = Matrix.orderForRound(grid.memberSettings(), repeat);
                    for (int i = 0; i < order.size(); i++) {
                        if (interrupted) {
                            break outer;
                        }
                        MemberTuning tuning = order.get(i);
                        console.printf(Locale.ROOT, "[repeat %d/%d] a fresh cluster, members with %s%n", repeat, grid.repeats(), tuning.describe());
                        progress.clusterStarting();
                        Topology topology = startCluster(console, tuning,
                                runDir.resolve("members").resolve(String.format(Locale.ROOT, "r%d-%d", repeat, i + 1)), live);
                        try {
                            warmCluster(console, grid, topology);
                            int r = repeat;
                            for (SweepCell cell : Matrix.orderForRound(grid.cells(tuning), repeat)) {
                                if (interrupted) {
                                    break;
                                }
                                progress.run(() -> runCell(grid, cell, r, topology, runDir));
                            }
                        } finally {
                            live.set(null);
                            topology.close();
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            Topology t = live.getAndSet(null);
            if (t != null) {
                t.close();
            }
            liveOptions.close();
            try {
                if (csv != null) {
                    csv.close();
                }
                if (!runs.isEmpty()) {
                    writeAnalysis(console, runDir, grid, cells, runs, started);
                }
                RunDirectory.removeIfEmpty(runDir);
            } catch (IOException e) {
                System.err.println("cpbench: could not write the sweep's files: " + e.getMessage());
            } finally {
                interruption.written();
            }
        }
        boolean wasInterrupted = !interruption.disarm() || interrupted;
        if (wasInterrupted) {
            return ExitCodes.INTERRUPTED;
        }
        return runs.stream().anyMatch(r -> Status.FAIL.name().equals(r.status())) ? ExitCodes.FAILED : ExitCodes.OK;
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
                + sweep.status() + "), SLO " + threshold.text());
        console.println();
        console.print(SweepReport.render(analysis));
        return ExitCodes.OK;
    }

    private Topology startCluster(PrintStream console, MemberTuning tuning, Path logDir, AtomicReference<Topology> live) {
        long startNanos = System.nanoTime();
        Topology topology = clusterOptions.startAnnounced(console, logDir, tuning, Duration.ofSeconds(5), () -> { });
        topology.takeOverShutdown();
        live.set(topology);
        ClusterOptions.printReady(console, topology, startNanos);
        return topology;
    }

    /**
     * Each cell run as it ends: a CSV row (flushed, so a crash keeps it) and a progress line with the time left. The
     * time left is the cells still to run at the cells' own mean time, plus the clusters still to start at the mean
     * time spent outside cells so far (start, warm-up, stop): a first cell that came after a cluster's start must not
     * be extrapolated as if every cell cost that much.
     */
    static final class Progress {
        private final PrintStream console;
        private final int total;
        private final int clusters;
        private final BufferedWriter csv;
        private final List<CellRun> runs;
        private final LongSupplier clock;
        private final long startNanos;
        private long cellNanos;
        private int clustersStarted;

        Progress(PrintStream console, int total, int clusters, BufferedWriter csv, List<CellRun> runs) {
            this(console, total, clusters, csv, runs, System::nanoTime);
        }

        Progress(PrintStream console, int total, int clusters, BufferedWriter csv, List<CellRun> runs, LongSupplier clock) {
            this.console = console;
            this.total = total;
            this.clusters = clusters;
            this.csv = csv;
            this.runs = runs;
            this.clock = clock;
            this.startNanos = clock.getAsLong();
        }

        void clusterStarting() {
            clustersStarted++;
        }

        void run(Supplier<CellRun> cell) {
            long t0 = clock.getAsLong();
            CellRun run = cell.get();
            cellNanos += clock.getAsLong() - t0;
            add(run);
        }

        private void add(CellRun run) {
            runs.add(run);
            try {
                if (csv != null) {
                    csv.write(run.csvLine());
                    csv.newLine();
                    csv.flush();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            printCell(console, run, runs.size(), total, elapsedSeconds(), secondsLeft());
        }

        double elapsedSeconds() {
            return (clock.getAsLong() - startNanos) / 1e9;
        }

        long secondsLeft() {
            int done = runs.size();
            if (done == 0) {
                return 0;
            }
            double perCell = cellNanos / 1e9 / done;
            double perCluster = clustersStarted == 0 ? 0 : Math.max(0, elapsedSeconds() - cellNanos / 1e9) / clustersStarted;
            return Math.round(perCell * (total - done) + perCluster * Math.max(0, clusters - clustersStarted));
        }
    }

    private void warmCluster(PrintStream console, SweepGrid grid, Topology topology) {
        if (clusterWarmup.isZero() || interrupted) {
            return;
        }
        LoadWarmup.run(console, warmBase(grid), clusterWarmup, topology, options, this::running);
    }

    /** The engine Ctrl-C stops; one that starts after Ctrl-C is stopped at once. */
    private void running(LoadEngine engine) {
        current = engine;
        if (engine != null && interrupted) {
            engine.stop();
        }
    }

    private CellRun runCell(SweepGrid grid, SweepCell cell, int repeat, Topology topology, Path runDir) {
        PrintStream console = System.out;
        LoadSpec spec = cellSpec(grid, cell, seed);
        Path dir = runDir.resolve("cells").resolve(String.format(Locale.ROOT, "r%d-%s-%s%s", repeat, cell.routing(),
                cell.level().replace('@', '-').replace('/', '_'),
                cell.members().isEmpty() ? "" : "-" + cell.members().replace(", ", "-").replace("=", "")));
        ScenarioSession session;
        try {
            session = ScenarioSession.open(Scenarios.byName(cell.routing()), topology, options, null, cell.clients());
        } catch (ScenarioSession.SetupException e) {
            return failed(repeat, cell, e.getMessage());
        }
        LoadResult load;
        ScenarioSession.Report report;
        try {
            LoadEngine engine = new LoadEngine(spec, session.clients(), dir, cellLines || liveOptions.view() != null
                    ? LoadCommand.listener(console, !cellLines, liveOptions.view(), "cell " + dir.getFileName()) : null);
            running(engine);
            load = engine.run();
            running(null);
            report = session.finish(interrupted);
        } catch (RuntimeException e) {
            running(null);
            session.finish(interrupted);
            return failed(repeat, cell, "load could not run: " + io.cpbench.core.run.Driver.describe(e));
        } finally {
            session.close();
        }
        LoadCommand.Verdict verdict = LoadCommand.Verdict.of(load, report);
        LoadResult.OpStats all = load.total().all();
        LoadResult.LoadLatency l = all.latency();
        return new CellRun(repeat, cell, verdict.status().name(), verdict.reason(), load.total().seconds(), all.ops(),
                all.errors(), all.opsPerSecond(), l.p50(), l.p90(), l.p99(), l.p999(), l.max(),
                sloThreshold.actual(load.total()));
    }

    /**
     * The load one cell runs: the grid's mix and lengths, the cell's clients and threads, its rate if any. Built
     * afresh, not from another spec: a spec's flat profile holds its level, which would carry over.
     */
    static LoadSpec cellSpec(SweepGrid grid, SweepCell cell, Long seed) {
        LoadSpec.Builder b = LoadSpec.builder().mix(grid.mix()).duration(grid.duration()).warmup(grid.warmup())
                .clients(cell.clients()).threads(cell.threads());
        if (cell.rate() != null) {
            b.rate(cell.rate());
        }
        if (seed != null) {
            b.seed(seed);
        }
        return b.build();
    }

    /**
     * The run the cluster warm-up stands in for: the grid's mix, closed loop, with its largest cell's workers up to
     * the warm-up's limit (so that one client can hold them all).
     */
    private LoadSpec warmBase(SweepGrid grid) {
        int workers = Math.min(LoadWarmup.MAX_THREADS, grid.cells().stream().mapToInt(SweepCell::workers).max().orElse(1));
        return cellSpec(grid, new SweepCell("client-smart", 1, workers, null), seed);
    }

    private static CellRun failed(int repeat, SweepCell cell, String reason) {
        return new CellRun(repeat, cell, Status.FAIL.name(), reason, 0, 0, 0, 0, 0, 0, 0, 0, 0, Double.NaN);
    }

    private static void printCell(PrintStream console, CellRun run, int done, int total, double elapsed, long left) {
        String numbers = run.ops() == 0 ? "" : String.format(Locale.ROOT, "%,10.0f op/s  p50 %-9s p99 %-9s%s", run.opsPerSecond(),
                SweepAnalysis.micros(run.p50Us()), SweepAnalysis.micros(run.p99Us()),
                run.errors() > 0 ? String.format(Locale.ROOT, " %,d errors", run.errors()) : "");
        console.printf(Locale.ROOT, "[%d/%d repeat %d, %s elapsed, ~%s left] %-22s %-8s %s  %s%s%n", done, total, run.repeat(),
                ConsoleProgress.human(Math.round(elapsed)), ConsoleProgress.human(left), run.cell().routing(),
                run.cell().level(), numbers, run.status(), run.reason() == null ? "" : " (" + run.reason() + ")");
    }

    private void writeAnalysis(PrintStream console, Path runDir, SweepGrid grid, List<SweepCell> cells, List<CellRun> runs,
                               Instant started) throws IOException {
        SweepAnalysis analysis = SweepAnalysis.of(cells, runs, grid.slo(), grid.repeats());
        String text = SweepReport.render(analysis);
        console.println();
        console.print(text);
        Files.writeString(runDir.resolve("sweep.md"), "# cp-bench sweep\n\n" + grid.describe() + "\n\n" + text);
        SweepDocument.Grid g = new SweepDocument.Grid(grid.scenarios(), grid.clients(), grid.threads(), grid.rates(),
                grid.mix(), grid.duration().toMillis() / 1000.0, grid.warmup().toMillis() / 1000.0, grid.repeats(),
                grid.clusterPerRepeat(), grid.slo().text());
        SweepDocument json = new SweepDocument(SweepFile.FORMAT, analysis.complete() ? "COMPLETE" : "INCOMPLETE",
                started.toString(), clusterOptions.describe(), g, Environment.current(), analysis, runs);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(runDir.resolve("sweep.json").toFile(), json);
        console.printf(Locale.ROOT, "%nwrote %s: cells.csv (%d cell runs), sweep.json, sweep.md%s%n", runDir, runs.size(),
                analysis.complete() ? "" : "; INCOMPLETE");
    }

    private void stop() {
        interrupted = true;
        LoadEngine engine = current;
        if (engine != null) {
            engine.stop();
        }
    }
}
