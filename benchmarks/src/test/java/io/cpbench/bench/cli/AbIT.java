package io.cpbench.bench.cli;

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
 * {@code cpbench ab} end to end on 3 local members, with the packaged jar on both sides: a NEW side slowed down on
 * purpose is called slower (exit 1), the same build against itself is not; every pair is written, the order
 * alternates, and no client process or member outlives the run.
 */
class AbIT {

    private static final Pattern OPS_RATIO = Pattern.compile("\\| ab +\\| all +\\| (\\d+)/(\\d+) +\\| [\\d,]+ +\\| [\\d,]+ +\\| ([\\d.]+) \\[");

    @TempDir
    Path work;

    @Test
    void callsAPlantedSlowdownSlower() throws Exception {
        CliProcess.Finished finished = ab("--new-jvm-arg=-Dcpbench.plant.slowdown=50%");

        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(1);
        assertThat(finished.stdout()).contains("NEW ready:").contains("PLANTED SLOWDOWN 50 %");
        assertThat(finished.stderr().strip().lines().reduce((a, b) -> b).orElse(""))
                .startsWith("cpbench: verdict: REGRESSION: 1 of 1 rows slower");
        Path runDir = runDir();
        double ratio = opsRatio(Files.readString(runDir.resolve("table.md")));
        // every op spins half its own time more: at most about 1/1.5 of the op/s (less here, where the spinning
        // client also takes CPU from the members on the same 2 cores; 0.43 was seen), far beyond the 5 % tolerance
        assertThat(ratio).isBetween(0.2, 0.8);
        checkPairsAndLeftovers(runDir, 20);

        // the HTML report of the run: its verdict, and charts that draw what the table says
        io.cpbench.bench.report.Browser.Rendered report = io.cpbench.bench.report.Browser.renderAndCheck(runDir, "ab-it");
        var section = report.data().withArray("runs").get(0);
        assertThat(section.path("kind").asText()).isEqualTo("ab");
        assertThat(section.path("verdicts").get(0).path("ok").asBoolean(true)).isFalse();
        assertThat(section.path("verdicts").get(0).path("detail").asText()).startsWith("REGRESSION: 1 of 1 rows slower");
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

    @Test
    void callsTheSameBuildNoSlower() throws Exception {
        CliProcess.Finished finished = ab("--tolerance", "10%");

        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isZero();
        assertThat(finished.stdout()).doesNotContain("PLANTED").contains("stopped after 20 pairs");
        Path runDir = runDir();
        String table = Files.readString(runDir.resolve("table.md"));
        assertThat(table).doesNotContain("**slower**").contains("pairs base/new");
        // No bias between the sides beyond what 20 pairs of 200 ms slices on 2 shared cores can show: the verdict
        // above is the statistical check; this only catches a gross one (one side always first, say). 0.746 was
        // seen once in CI with the verdict "no change", between 0.8 and 1.25 in every other run.
        assertThat(opsRatio(table)).isBetween(0.67, 1.5);
        checkPairsAndLeftovers(runDir, 20);
    }

    private CliProcess.Finished ab(String... extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("ab", "--members", "3", "--network", "direct", "--settle", "2s",
                "--warmup", "2s", "--slice", "200ms", "--until-ci", "0", "--min-pairs", "5", "--max-pairs", "20", "--restart-every", "10", "--out", "runs"));
        args.addAll(List.of(extra));
        return CliProcess.run(work, 420, args.toArray(String[]::new));
    }

    private Path runDir() throws Exception {
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            return dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    private static double opsRatio(String table) {
        Matcher m = OPS_RATIO.matcher(table);
        assertThat(m.find()).as(table).isTrue();
        assertThat(m.group(1)).isEqualTo(m.group(2));
        return Double.parseDouble(m.group(3));
    }

    private static void checkPairsAndLeftovers(Path runDir, int pairs) throws Exception {
        List<String> csv = Files.readAllLines(runDir.resolve("slices.csv"));
        assertThat(csv.get(0)).isEqualTo("pair,processes,first,side,ops,errors,seconds,ops_per_s,p50_us,p99_us");
        assertThat(csv).hasSize(1 + 2 * pairs);
        for (int i = 1; i < csv.size(); i++) {
            String[] f = csv.get(i).split(",");
            int pair = Integer.parseInt(f[0]);
            // --restart-every 10: pairs 1-10 from the first pair of client processes, 11-20 from the second
            assertThat(Integer.parseInt(f[1])).as(csv.get(i)).isEqualTo(pair <= 10 ? 1 : 2);
            assertThat(f[2]).as(csv.get(i)).isEqualTo(pair % 2 == 1 ? "BASE" : "NEW");
            assertThat(f[3]).isEqualTo(i % 2 == 1 ? "BASE" : "NEW");
            assertThat(Long.parseLong(f[4])).as(csv.get(i)).isGreaterThan(0);
            assertThat(Long.parseLong(f[5])).isZero();
            assertThat(Double.parseDouble(f[6])).as(csv.get(i)).isBetween(0.2, 5.0);
        }
        // the workers' command line names the cluster; the members' names the run directory
        assertThat(runDir.resolve("new-worker-2.log")).exists();
        String workerCommand = Files.readAllLines(runDir.resolve("base-worker.log")).get(0);
        Matcher name = Pattern.compile("--cluster-name (\\S+)").matcher(workerCommand);
        assertThat(name.find()).as(workerCommand).isTrue();
        assertThat(ProcessHandle.allProcesses().filter(p -> {
            String cmd = p.info().commandLine().orElse("");
            return cmd.contains(name.group(1)) || cmd.contains(runDir.getFileName().toString());
        }).toList()).isEmpty();
    }
}
