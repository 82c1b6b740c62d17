package io.cpbench.bench.run;

import io.cpbench.core.load.LoadSpecBuilder;
import io.cpbench.bench.agents.LoadSite;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.report.LiveView;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.service.RunContext;
import io.cpbench.bench.service.RunKind;
import io.cpbench.bench.suite.ClusterWarmup;
import io.cpbench.bench.suite.Matrix;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.load.Durations;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.result.Environment;
import io.cpbench.core.status.Status;
import io.cpbench.core.sweep.CellRun;
import io.cpbench.core.sweep.CellRunBuilder;
import io.cpbench.core.sweep.SweepAnalysis;
import io.cpbench.core.sweep.SweepCell;
import io.cpbench.core.sweep.SweepDocument;
import io.cpbench.core.sweep.SweepDocumentGridBuilder;
import io.cpbench.core.sweep.SweepFile;
import io.cpbench.core.sweep.SweepReport;
import io.cpbench.topology.MemberTuning;
import io.cpbench.topology.Topology;

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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A sweep: every cell of a {@link SweepGrid} (routing x clients x threads or rate, per member setting) as a load
 * run of its own, repeated and interleaved, on one cluster or a fresh one per repeat and member setting; each cell
 * run a row of {@code cells.csv} as it ends, and at the end (also when stopped) the analysis: {@code sweep.md} and
 * {@code sweep.json}.
 *
 * <p>A run runs once. {@link #stop()} may be called from any thread (a Ctrl-C hook): the cell in flight ends after
 * its ops in flight, no other starts, and what was measured is analysed and written.
 */
public final class SweepRun extends StoppableRun implements RunKind {

    /**
     * @param grid          the cells and how often
     * @param seed          seed for op and object choices, or null for the specs' own
     * @param clusterWarmup untimed load on each new cluster before its first cell (zero: none)
     * @param options       how scenario sessions connect
     * @param cluster       the cluster each repeat (or the whole sweep) starts or reaches
     * @param cellLines     each cell's live line on stderr
     */
    public record Config(SweepGrid grid, Long seed, Duration clusterWarmup, SuiteOptions options, ClusterChoice cluster,
                         boolean cellLines) {
    }

    private final Config config;
    private final AtomicReference<Topology> live = new AtomicReference<>();
    private volatile Function<String, LoadEngine.Listener> cellListener = name -> null;
    private volatile List<CellRun> runs = List.of();
    private RunContext context;
    /** Where the cells' loads run: here unless the service started agents for the run. */
    private LoadSite site = LoadSite.here();

    public SweepRun(Config config, PrintStream console) {
        super(console);
        this.config = config;
    }

    @Override
    public String name() {
        return "sweep";
    }

    @Override
    public boolean takesAgents() {
        return true;
    }

    /** What the sweep will run and about how long it takes ({@code --dry-run} prints this and the cells). */
    public void describe(PrintStream out) {
        SweepGrid grid = config.grid();
        Duration warmup = config.clusterWarmup();
        out.println("cp-bench sweep: " + grid.describe());
        out.printf(Locale.ROOT, "estimate: %s for the cells%s, plus the cluster's start and %s warm-up%n",
                Durations.human(grid.estimate(warmup)),
                grid.clusterPerSetting() ? " and the clusters of the other settings"
                        : grid.clusterPerRepeat() ? " and the other repeats' clusters" : "", Durations.human(warmup));
    }

    @Override
    public void announce(PrintStream out, Path runDir) {
        describe(out);
        out.println("results -> " + runDir);
    }

    @Override
    public void run(RunContext with) {
        context = with;
        site = with.loadSite();
        LiveView view = with.live();
        cellListener = name -> config.cellLines() || view != null
                ? LoadRun.consoleListener(console, !config.cellLines(), view, name) : null;
        runs = run(with.runDir());
    }

    /** Stops the cluster in use, if any. Any thread (a Ctrl-C hook, once the results are written). */
    @Override
    public void close() {
        Topology t = live.getAndSet(null);
        if (t != null) {
            t.close();
        }
    }

    /** The worst cell run's status; OK with none. */
    @Override
    public Status status() {
        return status(runs);
    }

    /**
     * The worst cell run's status, OK with none: its exit code ({@link Status#exitCode}) is 1 when a cell FAILed or
     * could not run to its end (a load generator lost), 99 when one crossed a threshold, 0 otherwise.
     */
    static Status status(List<CellRun> runs) {
        Status worst = Status.worst(runs.stream().map(CellRun::status).toList());
        return worst == null ? Status.OK : worst;
    }

    /**
     * Runs the sweep into {@code runDir} (which exists): cells, {@code cells.csv}, then {@code sweep.md} and
     * {@code sweep.json} when a cell ran. Blocks until done; stops every cluster it started.
     *
     * @return every cell run, in the order they ran
     */
    private List<CellRun> run(Path runDir) {
        SweepGrid grid = config.grid();
        List<SweepCell> cells = grid.cells();
        List<CellRun> runs = new CopyOnWriteArrayList<>();
        BufferedWriter csv = null;
        Instant started = Instant.now();
        try {
            csv = Files.newBufferedWriter(runDir.resolve("cells.csv"), StandardCharsets.UTF_8);
            csv.write(CellRun.CSV_HEADER);
            csv.newLine();
            csv.flush();
            Progress progress = new Progress(console, cells.size() * grid.repeats(),
                    grid.clusterPerRepeat() ? grid.repeats() * grid.memberSettings().size() : 1, csv, runs);
            if (!grid.clusterPerRepeat()) {
                progress.clusterStarting();
                Topology topology = startCluster(grid.memberSettings().get(0), runDir.resolve("members"));
                warmCluster(grid, topology);
                Matrix.rounds(cells, grid.repeats(), stops::stopped, done -> true,
                        (repeat, cell) -> progress.run(() -> runCell(grid, cell, repeat, topology,
                                grid.memberSettings().get(0), runDir)));
            } else {
                runClusterPerRepeat(grid, progress, runDir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + runDir.resolve("cells.csv") + ": " + e.getMessage(), e);
        } finally {
            close();
            try {
                if (csv != null) {
                    csv.close();
                }
                if (!runs.isEmpty()) {
                    writeAnalysis(console, runDir, grid, cells, runs, started);
                }
            } catch (IOException | UncheckedIOException e) {
                System.err.println("cpbench: could not write the sweep's files: " + e.getMessage());
            }
        }
        return List.copyOf(runs);
    }

    /** A cluster per member setting and repeat, settings in an order rotated per repeat, as the cells are. */
    private void runClusterPerRepeat(SweepGrid grid, Progress progress, Path runDir) {
        for (int repeat = 1; repeat <= grid.repeats(); repeat++) {
            List<MemberTuning> order = Matrix.orderForRound(grid.memberSettings(), repeat);
            for (int i = 0; i < order.size(); i++) {
                if (stops.stopped()) {
                    return;
                }
                MemberTuning tuning = order.get(i);
                console.printf(Locale.ROOT, "[repeat %d/%d] a fresh cluster, members with %s%n", repeat, grid.repeats(), tuning.describe());
                progress.clusterStarting();
                Topology topology = startCluster(tuning,
                        runDir.resolve("members").resolve(String.format(Locale.ROOT, "r%d-%d", repeat, i + 1)));
                try {
                    warmCluster(grid, topology);
                    int r = repeat;
                    for (SweepCell cell : Matrix.orderForRound(grid.cells(tuning), repeat)) {
                        if (stops.stopped()) {
                            break;
                        }
                        progress.run(() -> runCell(grid, cell, r, topology, tuning, runDir));
                    }
                } finally {
                    live.set(null);
                    topology.close();
                }
            }
        }
    }

    private Topology startCluster(MemberTuning tuning, Path logDir) {
        Topology topology = context.start(config.cluster(), logDir, tuning);
        live.set(topology);
        return topology;
    }

    /**
     * Each cell run as it ends: a CSV row (flushed, so a crash keeps it) and a progress line with the time left. The
     * time left is the cells still to run at the cells' own mean time, plus the clusters still to start at the mean
     * time spent outside cells so far (start, warm-up, stop): a first cell that came after a cluster's start must not
     * be extrapolated as if every cell cost that much.
     */
    public static final class Progress {
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

        public Progress(PrintStream console, int total, int clusters, BufferedWriter csv, List<CellRun> runs, LongSupplier clock) {
            this.console = console;
            this.total = total;
            this.clusters = clusters;
            this.csv = csv;
            this.runs = runs;
            this.clock = clock;
            this.startNanos = clock.getAsLong();
        }

        public void clusterStarting() {
            clustersStarted++;
        }

        public void run(Supplier<CellRun> cell) {
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

        public double elapsedSeconds() {
            return (clock.getAsLong() - startNanos) / 1e9;
        }

        public long secondsLeft() {
            int done = runs.size();
            if (done == 0) {
                return 0;
            }
            double perCell = cellNanos / 1e9 / done;
            double perCluster = clustersStarted == 0 ? 0 : Math.max(0, elapsedSeconds() - cellNanos / 1e9) / clustersStarted;
            return Math.round(perCell * (total - done) + perCluster * Math.max(0, clusters - clustersStarted));
        }
    }

    private void warmCluster(SweepGrid grid, Topology topology) {
        if (config.clusterWarmup().isZero() || stops.stopped()) {
            return;
        }
        ClusterWarmup.of(config.clusterWarmup()).run(console, warmBase(grid), topology, config.options(), null,
                stops.tracking(LoadEngine::stop));
    }

    /** One cell on {@code topology}, whose members run with {@code tuning} on top of the cluster's own. */
    private CellRun runCell(SweepGrid grid, SweepCell cell, int repeat, Topology topology, MemberTuning tuning,
                            Path runDir) {
        LoadSpec spec = cellSpec(grid, cell, config.seed());
        Path dir = runDir.resolve("cells").resolve(String.format(Locale.ROOT, "r%d-%s-%s%s", repeat, cell.routing(),
                cell.level().replace('@', '-').replace('/', '_'),
                cell.members().isEmpty() ? "" : "-" + cell.members().replace(", ", "-").replace("=", "")));
        ScenarioSession session;
        try {
            session = ScenarioSession.open(Scenarios.byName(cell.routing()), topology, config.options(), null,
                    site.sessionClients(cell.clients()));
        } catch (ScenarioSession.SetupException e) {
            return failed(repeat, cell, e.getMessage());
        }
        LoadResult load;
        ScenarioSession.Report report;
        try {
            LoadSite.Load running = site.prepare(new LoadSite.Job(spec, cell.routing(), topology, config.cluster(),
                    config.cluster().memberTuning().with(tuning).atMostOnce(), session, dir, cellListener.apply("cell " + dir.getFileName()), true, false));
            stops.running(running::stop);
            load = running.run(started -> { });
            stops.running(null);
            report = session.finish(stops.stopped());
        } catch (RuntimeException e) {
            stops.running(null);
            session.finish(stops.stopped());
            return failed(repeat, cell, "load could not run" + site.where() + ": " + io.cpbench.core.run.Driver.describe(e));
        } finally {
            session.close();
        }
        LoadVerdict verdict = LoadVerdict.of(load, report);
        LoadResult.OpStats all = load.total().all();
        LoadResult.LoadLatency l = all.latency();
        return CellRunBuilder.builder().repeat(repeat).cell(cell).status(verdict.status())
                .reason(verdict.reason()).seconds(load.total().seconds()).ops(all.ops()).errors(all.errors())
                .opsPerSecond(all.opsPerSecond())
                .latency(new CellRun.Latencies(l.p50(), l.p90(), l.p99(), l.p999(), l.max()))
                .sloActual(grid.slo().actual(load.total()))
                .censored(l.censored()).agents(load.agents().stream()
                        .map(a -> new CellRun.Agent(a.agent(), a.outcome(), a.reason(),
                                a.all() == null ? 0 : a.all().ops(), a.all() == null ? 0 : a.all().opsPerSecond(),
                                a.all() == null ? 0 : a.all().latency().p99())).toList()).build();
    }

    /**
     * The load one cell runs: the grid's mix and lengths, the cell's clients and threads, its rate if any. Built
     * afresh, not from another spec: a spec's flat profile holds its level, which would carry over.
     */
    public static LoadSpec cellSpec(SweepGrid grid, SweepCell cell, Long seed) {
        LoadSpecBuilder b = LoadSpec.builder().mix(grid.mix()).duration(grid.duration()).warmup(grid.warmup())
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
     * The cell the cluster warm-up stands in for: the grid's mix, closed loop, with its largest cell's workers up to
     * the warm-up's limit (so that one client can hold them all).
     */
    public static SweepCell warmupCell(SweepGrid grid) {
        int workers = Math.min(ClusterWarmup.MAX_THREADS, grid.cells().stream().mapToInt(SweepCell::workers).max().orElse(1));
        return new SweepCell("client-smart", 1, workers, null);
    }

    private LoadSpec warmBase(SweepGrid grid) {
        return cellSpec(grid, warmupCell(grid), config.seed());
    }

    private static CellRun failed(int repeat, SweepCell cell, String reason) {
        return CellRunBuilder.builder().repeat(repeat).cell(cell).status(Status.FAIL).reason(reason)
                .sloActual(Double.NaN).build();
    }

    private static void printCell(PrintStream console, CellRun run, int done, int total, double elapsed, long left) {
        String numbers = run.ops() == 0 ? "" : String.format(Locale.ROOT, "%,10.0f op/s  p50 %-9s p99 %-9s%s", run.opsPerSecond(),
                run.mark(run.latency().p50Us()) + SweepAnalysis.micros(run.latency().p50Us()),
                run.mark(run.latency().p99Us()) + SweepAnalysis.micros(run.latency().p99Us()),
                run.errors() > 0 ? String.format(Locale.ROOT, " %,d errors", run.errors()) : "");
        console.printf(Locale.ROOT, "[%d/%d repeat %d, %s elapsed, ~%s left] %-22s %-8s %s  %s%s%n", done, total, run.repeat(),
                Durations.human(Math.round(elapsed)), Durations.human(left), run.cell().routing(),
                run.cell().level(), numbers, run.status(), run.reason() == null ? "" : " (" + run.reason() + ")");
        for (CellRun.Agent a : run.agents()) {
            console.printf(Locale.ROOT, "    %-12s %,10.0f op/s  p99 %-9s %s%n", a.name(), a.opsPerSecond(),
                    SweepAnalysis.micros(a.p99Us()), a.outcome() == null ? "no result (" + a.reason() + ")" : a.outcome());
        }
    }

    private void writeAnalysis(PrintStream console, Path runDir, SweepGrid grid, List<SweepCell> cells, List<CellRun> runs,
                               Instant started) {
        SweepAnalysis analysis = SweepAnalysis.of(cells, runs, grid.slo(), grid.repeats());
        String text = SweepReport.render(analysis);
        console.println();
        console.print(text);
        RunDirectory.writeText(runDir, "sweep.md", "# cp-bench sweep\n\n" + grid.describe() + "\n\n" + text);
        SweepDocument.Grid g = SweepDocumentGridBuilder.builder().scenarios(grid.scenarios()).clients(grid.clients())
                .threads(grid.threads()).rates(grid.rates()).mix(grid.mix())
                .durationSeconds(grid.duration().toMillis() / 1000.0).warmupSeconds(grid.warmup().toMillis() / 1000.0)
                .repeats(grid.repeats()).freshClusters(grid.clusterPerRepeat()).slo(grid.slo().text()).build();
        SweepDocument json = new SweepDocument(SweepFile.FORMAT, analysis.complete() ? Status.OK : Status.INCOMPLETE,
                started.toString(), config.cluster().describe(), g, Environment.current(), analysis, runs);
        RunDirectory.writeJson(runDir, "sweep.json", json);
        console.printf(Locale.ROOT, "%nwrote %s: cells.csv (%d cell runs), sweep.json, sweep.md%s%n", runDir, runs.size(),
                analysis.complete() ? "" : "; INCOMPLETE");
    }

}
