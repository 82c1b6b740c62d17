package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.bench.service.ExitCodes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code cpbench sweep} end to end on the shared local 3-member cluster ({@link SharedCluster}): 2 routings x 3 thread counts x 2 repeats, short
 * cells. Checks the CSV against itself (op/s is ops over seconds, every cell ran in every repeat, in the rotated
 * order), and the analysis against the CSV (the knee is the level with the highest median throughput, as
 * recomputed here, since the SLO lets every level through).
 */
@SharedCluster.Uses
class SweepIT {

    @TempDir
    static Path work;
    static CliProcess.Finished finished;
    static Path runDir;
    static List<String[]> rows;

    @BeforeAll
    static void run() throws Exception {
        Files.writeString(work.resolve("grid.yaml"), """
                scenarios: [client-leader, client-follower]
                threads: [1, 2, 4]
                duration: 1s
                warmup: 500ms
                repeats: 2
                """);
        finished = CliProcess.run(work, 400, SharedCluster.with("sweep", "--grid", "grid.yaml", "--slo", "p99<5s",
                "--cluster-warmup", "2s", "--settle", "2s", "--out", "runs"));
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(runDir.resolve("cells.csv"));
        assertThat(lines.get(0)).startsWith("repeat,routing,clients,threads,workers,rate,status,seconds,ops,errors,ops_per_s");
        lines.stream().skip(1).forEach(l -> rows.add(l.split(",", -1)));
    }

    @Test
    void everyCellRanOnceARepeatInARotatedOrderAndItsRateIsItsOpsOverItsTime() {
        assertThat(finished.exitCode()).as(finished.stderr()).isEqualTo(ExitCodes.OK);
        assertThat(finished.stdout()).contains("2 routings (client-leader, client-follower) x clients 1 x threads 1,2,4")
                .contains("= 6 cells, x 2 repeats").doesNotContain("a fresh cluster").contains("[12/12 repeat 2");
        assertThat(rows).hasSize(12);
        List<String> first = rows.subList(0, 6).stream().map(r -> r[1] + " " + r[3]).toList();
        List<String> second = rows.subList(6, 12).stream().map(r -> r[1] + " " + r[3]).toList();
        assertThat(first).containsExactly("client-leader 1", "client-follower 1", "client-leader 2", "client-follower 2",
                "client-leader 4", "client-follower 4");
        assertThat(second).containsExactly("client-follower 1", "client-leader 2", "client-follower 2", "client-leader 4",
                "client-follower 4", "client-leader 1");
        for (String[] r : rows) {
            assertThat(r[6]).as(String.join(",", r)).isEqualTo("OK");
            double seconds = Double.parseDouble(r[7]);
            long ops = Long.parseLong(r[8]);
            // at least the grid's 1 s, and never past the engine's own bound: the 1 s plus the drain for ops in flight
            // (10 s by default); how far into the drain a cell goes depends on the machine, so nothing tighter is asserted
            assertThat(seconds).as("measured for the grid's 1 s").isBetween(0.95, 1.0 + 10.0);
            assertThat(Double.parseDouble(r[10])).isCloseTo(ops / seconds, within(ops / seconds * 0.01 + 0.1));
            assertThat(Long.parseLong(r[11])).isLessThanOrEqualTo(Long.parseLong(r[13])); // p50 <= p99
        }
    }

    @Test
    void theKneeIsTheLevelWithTheHighestMedianAndTheAnalysisIsWritten() throws Exception {
        Map<String, List<Double>> byCell = new HashMap<>();
        for (String[] r : rows) {
            byCell.computeIfAbsent(r[1] + " 1x" + r[3], k -> new ArrayList<>()).add(Double.parseDouble(r[10]));
        }
        String best = byCell.entrySet().stream()
                .max(Comparator.comparingDouble(e -> e.getValue().stream().mapToDouble(Double::doubleValue).average().orElse(0)))
                .orElseThrow().getKey();
        JsonNode sweep = new ObjectMapper().readTree(runDir.resolve("sweep.json").toFile());
        assertThat(sweep.get("format").asText()).isEqualTo("cpbench-sweep/1");
        assertThat(sweep.get("status").asText()).isEqualTo("OK");
        assertThat(sweep.get("cells")).hasSize(12);
        // every repeat on the one cluster it was given (a fresh cluster per repeat: SweepFreshClustersIT)
        assertThat(sweep.get("grid").get("freshClusters").asBoolean()).isFalse();
        assertThat(runDir.resolve("members")).doesNotExist();
        JsonNode analysis = sweep.get("analysis");
        JsonNode knee = analysis.get("knee");
        assertThat(knee.get("routing").asText() + " " + knee.get("level").get("level").asText()).isEqualTo(best);
        assertThat(analysis.get("routings")).hasSize(2).allSatisfy(r -> {
            assertThat(r.get("levels")).hasSize(3);
            assertThat(r.get("usl").get("points").asInt()).isEqualTo(6);
        });
        assertThat(analysis.get("winners")).hasSize(3);
        assertThat(Files.readString(runDir.resolve("sweep.md"))).contains("Optimal configuration").contains("| Routing ");
        assertThat(finished.stdout()).contains("<- knee").contains("Which routing wins where");
        // each cell kept its per-second numbers, and ran with its own number of workers
        List<Path> csvs;
        try (Stream<Path> files = Files.walk(runDir.resolve("cells"))) {
            csvs = files.filter(p -> p.getFileName().toString().equals("load.csv")).toList();
        }
        assertThat(csvs).hasSize(12);
        for (Path csv : csvs) {
            String cell = csv.getParent().getFileName().toString(); // r1-client-leader-1x4
            double workers = Double.parseDouble(cell.substring(cell.lastIndexOf('x') + 1));
            List<String> intervals = Files.readAllLines(csv).stream().skip(1).toList();
            assertThat(intervals).as(cell).isNotEmpty()
                    .allSatisfy(line -> assertThat(Double.parseDouble(line.split(",")[2])).as(cell + ": " + line).isEqualTo(workers));
        }
    }

    /** Exit code, sweep.json, the history's run and the report: one verdict. */
    @Test
    void itsExitCodeDocumentHistoryAndReportAgree() throws Exception {
        OneVerdict.agree(io.cpbench.core.status.Status.OK, finished, runDir, "sweep.json");
    }

    /** sweep.json read back from the history: a row per cell run, its cell the variant, its repeat the round. */
    @Test
    void theHistoryHoldsARowPerCellRun() {
        io.cpbench.bench.results.HistoryRun run = Recorded.run(runDir, finished.stdout());
        assertThat(run.kind()).isEqualTo("sweep");
        assertThat(run.rows()).hasSize(rows.size()).allSatisfy(r -> assertThat(r.harness()).isEqualTo("sweep"));
        assertThat(run.rows()).extracting(io.cpbench.bench.results.HistoryRun.Row::round).containsOnly(1, 2);
        assertThat(run.rows().stream().mapToLong(io.cpbench.bench.results.HistoryRun.Row::ops).sum())
                .isEqualTo(rows.stream().mapToLong(r -> Long.parseLong(r[8])).sum());
    }

    @Test
    void aFinishedSweepIsAnalysedAgainUnderAnotherSloWithoutRunning() throws Exception {
        CliProcess.Finished strict = CliProcess.run(work, 60, "sweep", "--from", runDir.toString(), "--slo", "p99<1us");
        assertThat(strict.exitCode()).as(strict.stderr()).isEqualTo(ExitCodes.OK);
        assertThat(strict.stdout()).contains("12 cell runs, status OK").contains("SLO p99<1us")
                .contains("no level met the SLO p99<1us");
        CliProcess.Finished same = CliProcess.run(work, 60, "sweep", "--from", runDir.toString());
        String kneeLine = finished.stdout().lines().filter(l -> l.contains("<- knee")).findFirst().orElseThrow();
        assertThat(same.stdout()).contains(kneeLine); // the same numbers, the same knee
    }

    @Test
    void compareTellsASweepFromItsCopyAtAQuarterOfItsSpeedAndSaysTheWholeMachineMoved() throws Exception {
        CliProcess.Finished self = CliProcess.run(work, 60, "compare", runDir.toString(), runDir.toString());
        assertThat(self.exitCode()).as(self.stderr()).isEqualTo(ExitCodes.OK);
        assertThat(self.stdout()).contains("Knees (SLO p99<").contains("+0.0 %").contains("0 of 6 cells slower, 0 faster")
                .contains("0 of 6 rows slower, 0 faster, 6 no change")
                .doesNotContain("moved together");
        // the same sweep, every cell at a quarter of its op/s: every cell moved together by -75 %; the rows are
        // slower where the two repeats' spread (up to 2x in 2 s cells here) leaves the interval clear of 1
        Path half = work.resolve("sweep-quarter");
        Files.createDirectories(half);
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(runDir.resolve("sweep.json").toFile());
        for (var cell : tree.withArray("cells")) {
            var c = (com.fasterxml.jackson.databind.node.ObjectNode) cell;
            c.put("opsPerSecond", c.get("opsPerSecond").asDouble() / 4);
        }
        Files.writeString(half.resolve("sweep.json"), tree.toString());
        CliProcess.Finished slower = CliProcess.run(work, 60, "compare", runDir.toString(), half.toString(),
                "--markdown", "sweeps.md");
        assertThat(slower.exitCode()).as(slower.stderr()).isEqualTo(ExitCodes.FAILED);
        assertThat(slower.stdout()).contains("6 of 6 cells slower").contains("every cell moved together by -75 %")
                .contains("-75.0 %").contains("verdict: REGRESSION");
        List<String> stderr = slower.stderr().strip().lines().toList();
        assertThat(stderr.get(stderr.size() - 1)).startsWith("cpbench: verdict: REGRESSION: ");
        assertThat(work.resolve("sweeps.md")).content().startsWith("# cp-bench compare: sweeps");
    }

    @Test
    @io.cpbench.bench.report.NeedsChromium
    void theHtmlReportDrawsTheCurvesWithTheirFitInChromium() throws Exception {
        io.cpbench.bench.report.Browser.Rendered report = io.cpbench.bench.report.Browser.renderAndCheck(runDir, "sweep-it");
        var sweep = report.charts("sweep");
        assertThat(sweep).hasSize(1);
        var series = sweep.get(0).path("series");
        // per routing its measured points (with 95 % intervals) and, where the fit converged, its USL curve
        assertThat(series.get(0).path("label").asText()).isEqualTo("client-leader");
        assertThat(series.get(0).path("x")).hasSize(3);
        assertThat(series.get(0).path("low")).hasSize(3);
        long fits = java.util.stream.StreamSupport.stream(series.spliterator(), false)
                .filter(s -> s.path("label").asText().contains("USL")).count();
        long noFit = java.util.stream.StreamSupport.stream(report.data().withArray("runs").get(0).path("notes").spliterator(), false)
                .filter(n -> n.asText().contains("no USL fit")).count();
        assertThat(fits + noFit).as("each routing has its fit or says why not").isEqualTo(2);
        assertThat(report.page().dom()).contains("Optimal configuration");
    }
}
