package io.cpbench.bench.cli;

import io.cpbench.bench.report.Browser;
import io.cpbench.bench.report.NeedsChromium;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cpbench ab} end to end on the shared 3-member cluster ({@link SharedCluster}), with the packaged jar on both
 * sides: a NEW side slowed down on purpose is called slower (exit 1); every pair is written, the order alternates, and no client process or member
 * outlives the run. The same build against itself is a statistical check, in {@link AbSameBuildIT} (tag "long").
 */
@SharedCluster.Uses
class AbIT {

    private static final Pattern OPS_RATIO = Pattern.compile("\\| ab +\\| all +\\| (\\d+)/(\\d+) +\\| [\\d,]+ +\\| [\\d,]+ +\\| ([\\d.]+) \\[");

    @TempDir
    static Path work;
    static CliProcess.Finished finished;
    static Path runDir;

    /** One run: NEW slowed down on purpose, every op spinning twice its own time more (3x the time per op). */
    @BeforeAll
    static void runWithAPlantedSlowdown() throws Exception {
        finished = ab(work, "--new-jvm-arg=-Dcpbench.plant.slowdown=200%");
        runDir = runDir(work);
    }

    @Test
    void callsAPlantedSlowdownSlower() throws Exception {
        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(1);
        assertThat(finished.stdout()).contains("NEW ready:").contains("PLANTED SLOWDOWN 200 %");
        assertThat(finished.stderr().strip().lines().reduce((a, b) -> b).orElse(""))
                .startsWith("cpbench: verdict: REGRESSION: 1 of 1 rows slower");
        double ratio = opsRatio(Files.readString(runDir.resolve("table.md")));
        // Each op takes 3x its time: at most 1/3 of the op/s (less here, where the spinning client also takes CPU
        // from the members on the same 2 cores). The bound only says the planted effect is unmistakable in the
        // table, far beyond the 5 % tolerance; the verdict above is the statistical check.
        assertThat(ratio).isBetween(0.01, 0.6);
    }

    /** ab.json and slices.csv read back from the results history: a row per side, NEW's op/s below BASE's. */
    @Test
    void theResultsHistoryHoldsBothSidesAndTheSlowdown() {
        io.cpbench.bench.results.HistoryRun run = Recorded.run(runDir, finished.stdout());
        assertThat(run.kind()).isEqualTo("ab");
        assertThat(run.rows()).extracting(io.cpbench.bench.results.HistoryRun.Row::variant).containsExactly("base", "new");
        assertThat(run.rows().get(1).opsPerSecond()).isLessThan(run.rows().get(0).opsPerSecond() * 0.6);
        // the pairs ran to their end: the rows' numbers stand; the regression makes the run FAIL
        assertThat(run.rows()).extracting(io.cpbench.bench.results.HistoryRun.Row::status).containsOnly(Status.OK);
    }

    /** The regression is the run's one verdict: exit 1, ab.json, the history's run and the report all say FAIL. */
    @Test
    void theRegressionIsTheRunsOneVerdict() throws Exception {
        OneVerdict.agree(Status.FAIL, finished, runDir, "ab.json");
        assertThat(io.cpbench.core.result.AbDocument.read(runDir).reason()).startsWith("REGRESSION: 1 of 1 rows slower");
    }

    @Test
    void everyPairIsWrittenInAlternatingOrderAndNothingOutlivesTheRun() throws Exception {
        checkPairsAndLeftovers(runDir, 20);
    }

    @Test
    @NeedsChromium
    void theHtmlReportShowsTheVerdictAndChartsWhatTheTableSays() throws Exception {
        double ratio = opsRatio(Files.readString(runDir.resolve("table.md")));
        Browser.Rendered report = Browser.renderAndCheck(runDir, "ab-it");
        var section = report.data().withArray("runs").get(0);
        assertThat(section.path("kind").asText()).isEqualTo("ab");
        assertThat(section.path("verdicts").get(1).path("ok").asBoolean(true)).isFalse();
        assertThat(section.path("verdicts").get(1).path("detail").asText()).startsWith("REGRESSION: 1 of 1 rows slower");
        var pairs = report.charts("pairs");
        assertThat(pairs).hasSize(1);
        var perPair = pairs.get(0).path("series").get(0).path("y");
        var runningMedian = pairs.get(0).path("series").get(1).path("y");
        assertThat(perPair).hasSize(20);
        // the last running median is the median over all pairs: the table's ratio (from the turns' op/s, which
        // slices.csv rounds to 0.1 op/s)
        assertThat(runningMedian.get(19).asDouble()).isCloseTo(ratio, org.assertj.core.api.Assertions.within(0.01));
        var time = report.charts("time");
        assertThat(time).hasSize(1);
        assertThat(time.get(0).path("series").get(0).path("x")).hasSize(20);
        assertThat(time.get(0).path("bands")).hasSize(1); // the second of two process pairs
    }

    static CliProcess.Finished ab(Path work, String... extra) throws Exception {
        return ab(work, 20, extra);
    }

    /** {@code ab} on the shared cluster for {@code pairs} pairs of 200 ms turns, both client processes anew every 10. */
    static CliProcess.Finished ab(Path work, int pairs, String... extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of(SharedCluster.with("ab", "--settle", "2s",
                "--warmup", "2s", "--slice", "200ms", "--until-ci", "0", "--min-pairs", "5", "--max-pairs", String.valueOf(pairs),
                "--restart-every", "10", "--out", "runs")));
        args.addAll(List.of(extra));
        return CliProcess.run(work, 420, args.toArray(String[]::new));
    }

    static Path runDir(Path work) throws Exception {
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            return dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    static double opsRatio(String table) {
        Matcher m = OPS_RATIO.matcher(table);
        assertThat(m.find()).as(table).isTrue();
        assertThat(m.group(1)).isEqualTo(m.group(2));
        return Double.parseDouble(m.group(3));
    }

    static void checkPairsAndLeftovers(Path runDir, int pairs) throws Exception {
        List<String> csv = Files.readAllLines(runDir.resolve("slices.csv"));
        assertThat(csv.get(0)).isEqualTo("pair,processes,first,side,ops,errors,seconds,ops_per_s,p50_us,p99_us");
        assertThat(csv).hasSize(1 + 2 * pairs);
        for (int i = 1; i < csv.size(); i++) {
            String[] f = csv.get(i).split(",");
            int pair = Integer.parseInt(f[0]);
            // --restart-every 10: pairs 1-10 from the first pair of client processes, 11-20 from the second, ...
            assertThat(Integer.parseInt(f[1])).as(csv.get(i)).isEqualTo((pair - 1) / 10 + 1);
            assertThat(f[2]).as(csv.get(i)).isEqualTo(pair % 2 == 1 ? "BASE" : "NEW");
            assertThat(f[3]).isEqualTo(i % 2 == 1 ? "BASE" : "NEW");
            // a turn may measure no op when one op takes longer than the turn (NEW slowed down 200 % on a busy new
            // machine, stop 79: 0 ops in 0.45 s); every side measured some over the run
            assertThat(Long.parseLong(f[4])).as(csv.get(i)).isGreaterThanOrEqualTo(0);
            assertThat(Long.parseLong(f[5])).isZero();
            assertThat(Double.parseDouble(f[6])).as(csv.get(i)).isBetween(0.2, 5.0);
        }
        for (String side : List.of("BASE", "NEW")) {
            assertThat(csv.stream().skip(1).map(l -> l.split(",")).filter(f -> f[3].equals(side)).mapToLong(f -> Long.parseLong(f[4])).sum())
                    .as(side + "'s ops over the run").isGreaterThan(0);
        }
        // the workers' command line names the cluster; the members' names the run directory
        assertThat(runDir.resolve("new-worker-" + ((pairs - 1) / 10 + 1) + ".log")).exists();
        String workerCommand = Files.readAllLines(runDir.resolve("base-worker.log")).get(0);
        Matcher name = Pattern.compile("--cluster-name (\\S+)").matcher(workerCommand);
        assertThat(name.find()).as(workerCommand).isTrue();
        // (the members are the shared cluster's, which outlives the run: only the run's client processes must be gone)
        assertThat(ProcessHandle.allProcesses().filter(p -> {
            String cmd = p.info().commandLine().orElse("");
            return (cmd.contains(name.group(1)) && cmd.contains(" ab-worker")) || cmd.contains(runDir.getFileName().toString());
        }).toList()).isEmpty();
    }
}
