package io.cpbench.bench.history;

import io.cpbench.bench.results.HistoryRun;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.status.Status;
import io.cpbench.core.trend.EDivisive;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What the results history costs, against its goals (docs/history.md):
 * <ul>
 * <li>{@code record}: what a run's end waits for, the store being open already (a run opens it in the background as it
 * starts): reading the run directory's results and adding them in one transaction, into a store of 1,000 runs. For a
 * one-scenario run and for a quick matrix's 39 results. Goal: at most 50 ms.</li>
 * <li>{@code trend}: {@code history trend} over a store of 100,000 rows (2,000 runs of 50 rows: 25 scenarios, 2 rounds
 * each), opening the store, reading every row and finding change points, for one scenario's op/s and for all 25.
 * Goal: at most 1 s.</li>
 * <li>{@code importReference}: {@code history import results/reference} into an empty store. Goal: at most 10 s.</li>
 * <li>{@code trendPageForARun}: the trend page {@code report --html} writes beside a run's report, for a run of 25
 * scenarios in that store of 100,000 rows (50 series: op/s and p99). {@code listNewest}: {@code history list} (the 20
 * newest runs) there. Both open the store as the commands do. No goal: they show what a change to the reads costs.</li>
 * </ul>
 * Run from the repository's root (it reads {@code results/reference}):
 * {@code java -jar benchmarks/target/benchmarks.jar HistoryCost}
 */
@Fork(1)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class HistoryCost {

    static final Path REFERENCE = Path.of("results/reference");
    static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

    /** A store of 1,000 one-row runs, open, and a run directory to record. */
    @State(Scope.Benchmark)
    public static class Recording {

        @Param({"local-2core-quick-20261125/01-client-leader.json", "local-2core-quick-20261125"})
        public String results;

        Path dir;
        HistoryStore store;
        Path runDir;
        long next;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            dir = Files.createTempDirectory("cpbench-history-cost");
            Path source = reference().resolve(results);
            if (Files.isRegularFile(source)) { // a one-scenario run: a directory with that one result
                runDir = Files.createDirectories(dir.resolve("20261128-000000-run"));
                Files.copy(source, runDir.resolve(source.getFileName()));
            } else {
                runDir = source;
            }
            store = HistoryStore.open(dir.resolve("history.db").toString());
            fill(store, 1_000, 1, 7);
            ResultFiles.prepare();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            store.close();
            delete(dir);
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public boolean record(Recording state) {
        HistoryRun run = RunImport.read(state.runDir, "run");
        // a new id each time, or the store would find the run there already and write nothing
        run = run.as(String.format(Locale.ROOT, "%016x", 0x7000_0000_0000_0000L + state.next++), run.startedAt(),
                run.endedAt(), run.rows()).with(Map.of("env", "bench"), "cpbench run --quick", run.status());
        if (!state.store.add(run)) {
            throw new IllegalStateException("run " + run.id() + " was not added");
        }
        return true;
    }

    /** A store of 100,000 rows, closed: each {@code trend} opens it as the command does. */
    @State(Scope.Benchmark)
    public static class Trending {

        /** One scenario's series, or all 25. */
        @Param({"scenario-07", "all"})
        public String scenario;

        Path dir;
        String where;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            dir = Files.createTempDirectory("cpbench-history-cost");
            where = filledStore(dir);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            delete(dir);
        }
    }

    /** A store of 100,000 rows in {@code dir}, closed: 2,000 runs of 25 scenarios, 2 rounds each; where it is. */
    static String filledStore(Path dir) {
        String where = dir.resolve("history.db").toString();
        try (HistoryStore store = HistoryStore.open(where)) {
            fill(store, 2_000, 25, 11);
            long rows = store.points(HistoryStore.Selection.ALL).size();
            if (rows != 100_000) {
                throw new IllegalStateException("the store holds " + rows + " rows, not 100,000");
            }
        }
        return where;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @Warmup(iterations = 2, time = 2)
    @Measurement(iterations = 5, time = 2)
    public void trend(Trending state) {
        History.Query query = new History.Query("all".equals(state.scenario) ? null : state.scenario, null, null, null,
                null, Map.of(), Trends.Metric.OPS, Trends.Order.TIME, null, EDivisive.Options.DEFAULT);
        try (HistoryStore store = HistoryStore.open(state.where)) {
            History.trend(store, query, "table", NOWHERE);
        }
    }

    /** Only reading the rows {@code trend} reads: what finding change points adds is the difference. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @Warmup(iterations = 2, time = 2)
    @Measurement(iterations = 5, time = 2)
    public int trendRowsOnly(Trending state) {
        try (HistoryStore store = HistoryStore.open(state.where)) {
            return store.points(new HistoryStore.Selection(null, "all".equals(state.scenario) ? null : state.scenario,
                    null, null, null, null, true)).size();
        }
    }

    /** The store of 100,000 rows, closed, and its newest run: what a run report's trend page and history list read. */
    @State(Scope.Benchmark)
    public static class Reporting {

        Path dir;
        String where;
        String newest;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            dir = Files.createTempDirectory("cpbench-history-cost");
            where = filledStore(dir);
            try (HistoryStore store = HistoryStore.open(where)) {
                newest = store.runs(1).get(0).id();
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            delete(dir);
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @Warmup(iterations = 2, time = 2)
    @Measurement(iterations = 5, time = 2)
    public int trendPageForARun(Reporting state) {
        try (HistoryStore store = HistoryStore.open(state.where)) {
            HistoryReport.Link link = HistoryReport.forRunIds(store, java.util.Set.of(state.newest),
                    state.dir.resolve("report-trend.html"), state.dir.resolve("report.html"));
            if (link == null || link.series() != 50) {
                throw new IllegalStateException("the trend page of run " + state.newest + " has " + link + ", not 50 series");
            }
            return link.series();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @Warmup(iterations = 2, time = 2)
    @Measurement(iterations = 5, time = 2)
    public void listNewest(Reporting state) {
        try (HistoryStore store = HistoryStore.open(state.where)) {
            History.list(store, 20, NOWHERE);
        }
    }

    /** An empty store for each import. */
    @State(Scope.Thread)
    public static class Importing {

        Path dir;

        @Setup(Level.Invocation)
        public void setUp() throws IOException {
            reference();
            dir = Files.createTempDirectory("cpbench-history-cost");
        }

        @TearDown(Level.Invocation)
        public void tearDown() throws IOException {
            delete(dir);
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 2)
    @Measurement(iterations = 10)
    public long importReference(Importing state) {
        try (HistoryStore store = HistoryStore.open(state.dir.resolve("history.db").toString())) {
            History.importRuns(store, List.of(REFERENCE), Map.of(), NOWHERE);
            long runs = store.count();
            if (runs < 10) {
                throw new IllegalStateException("only " + runs + " runs imported from " + REFERENCE.toAbsolutePath());
            }
            return runs;
        }
    }

    private static Path reference() {
        if (!Files.isDirectory(REFERENCE)) {
            throw new IllegalStateException("run it from the repository's root: no " + REFERENCE + " in "
                    + Path.of("").toAbsolutePath());
        }
        return REFERENCE;
    }

    /**
     * Adds {@code runs} runs of {@code scenarios} scenarios, 2 rounds each when there are several, a run an hour,
     * op/s about 1,000 with 3 % noise and a 10 % drop at four fifths of the runs, in batches of one transaction a run.
     */
    public static void fill(HistoryStore store, int runs, int scenarios, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int rounds = scenarios > 1 ? 2 : 1;
        for (int i = 0; i < runs; i++) {
            String at = java.time.Instant.parse("2026-01-01T00:00:00Z").plusSeconds(3_600L * i).toString();
            String commit = String.format(Locale.ROOT, "%07x", 0x1000000 + i / 10);
            List<HistoryRun.Row> rows = new ArrayList<>();
            for (int s = 0; s < scenarios; s++) {
                for (int round = 1; round <= rounds; round++) {
                    double level = 1_000 * (i < runs * 4 / 5 ? 1 : 0.9) * (1 + 0.03 * gaussian(random));
                    long p50 = (long) (1_000_000 / level);
                    rows.add(new HistoryRun.Row(String.format(Locale.ROOT, "scenario-%02d", s), "", "all", "driver", round,
                            "a", Status.OK, at, 8_000, 0, level,
                            new HistoryRun.Latency(p50, p50 * 2, p50 * 5, p50 * 10, p50 * 30, null),
                            new HistoryRun.Leaders("member-0", "member-0", 1, 1)));
                }
            }
            store.add(new HistoryRun(String.format(Locale.ROOT, "%016x", 0x1000_0000_0000_0000L + i), scenarios > 1
                    ? "matrix" : "run", at, at, Status.OK, new HistoryRun.Build("0.1.0", commit, "5.4.0", "5.4.0"), "local",
                    new HistoryRun.Machine("bench", 2, 1_024L, "Linux", "OpenJDK 17"), "cpbench matrix --quick",
                    "/tmp/run-" + i, Map.of("env", "bench"), rows));
        }
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
