package io.cpbench.bench.cli;

import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cluster slow at the start (a planted slow start: every op waits up to 4 ms more, less and less for 20 s; 10 ms for
 * 14 s in the second test) on real members:
 * the cluster warm-up waits for it, so round 1's baseline runs as fast as the later rounds'; with the old fixed 5 s
 * warm-up round 1 runs inside the slow start, is seen as disturbed, left out of the ratios and run again.
 *
 * <p>Both compare rounds' op/s, so they run in the long group's last execution, with no other test's clusters beside
 * them: in {@code ./mvnw verify}, beside the other tests, a later round once ran at half the others' op/s (CI, stop
 * 69), which the matrix rightly left out and ran again.
 */
@Tag("long") // in CI's -Plong run
@Tag("alone") // a verdict measured on this machine: run with no other test beside it
class WarmUntilSteadyIT {

    private static final String PLANT = "-Dcpbench.plant.slow-start=20s";
    private static final Pattern STEADY = Pattern.compile(
            "cluster warm-up: steady after (\\d+) s: ([\\d,]+) op/s in its first second, ([\\d,]+) in its last 10");

    @TempDir
    Path work;

    /**
     * Rounds shorter than --quick's (4 s after 1 s, not 8 after 2): what it checks happens before round 1, and the long
     * group's time on a new machine is what CI waits for (issue 71).
     */
    @Test
    void theWarmUpWaitsForASlowStartAndRoundOneRunsAsFastAsTheOthers() throws Exception {
        CliProcess.Finished run = CliProcess.start(work, List.of(PLANT), "run", "--scenario", "client-leader,client-follower",
                "--rounds", "3", "--duration", "4s", "--warmup", "1s", "--warmup-round", "2s", "--settle", "2s", "--no-history",
                "--out", "runs").finish(400);
        String out = run.stdout();
        assertThat(run.exitCode()).as(out + run.stderr()).isZero();
        assertThat(out).contains("PLANTED SLOW START").contains("warming the cluster up until its op/s stops rising, at most 1m");
        Matcher m = STEADY.matcher(out);
        if (m.find()) {
            int seconds = Integer.parseInt(m.group(1));
            double first = number(m.group(2));
            double last = number(m.group(3));
            // it waited out the 20 s and then steady seconds, and saw the cluster get faster
            assertThat(seconds).as(out).isBetween(22, 60);
            assertThat(last).as(out).isGreaterThan(1.5 * first);
        } else {
            // a machine slow enough that the cluster was still getting faster after a minute (seen in a CI rehearsal: 48
            // op/s climbing to 119 in the first 18 s): the warm-up ran its whole minute, past the slow start, and says so
            assertThat(out).as(out).contains("cluster warm-up: did not settle within 1m (--cluster-warmup): ");
        }
        // round 1 ran after the slow start: it is not the disturbed one (a later round may be, on a busy machine, and
        // is then run again)
        assertThat(out).contains("op/s each second:").doesNotContain("round 1 left out of the ratios");

        double[] baseline = baselines(work);
        assertThat(baseline).as("client-leader's op/s in rounds 1-3 (and a round run again)").hasSizeBetween(3, 5);
        double others = io.cpbench.core.stats.Bootstrap.medianOf(Arrays.copyOfRange(baseline, 1, baseline.length));
        assertThat(baseline[0]).as(Arrays.toString(baseline) + "\n" + out).isGreaterThan(0.6 * others);
    }

    /**
     * The old fixed warm-up, too short for this cluster, and no warm-up round (which would run inside the slow start
     * and end it before round 1): round 1 measures the slow start, and the matrix says so.
     *
     * <p>Rounds of 4 s after 1 s (not --quick's 8 after 2: the long group's time on a new machine is what CI waits for,
     * issue 71), so the slow start is 14 s, over by round 2 (about 19 s in), and begins at 10 ms, not 4: round 1's
     * baseline (about 5-9 s in, 4-6.4 ms added) must run under half the later rounds' op/s on any machine. On a slow
     * one (2.7 ms per op) 4 ms over 20 s made it 0.58 of them (210 against 365 op/s, a fresh-machine rehearsal, R11),
     * so it was rightly not called disturbed; here it is about 0.35 there, and under 0.2 on a fast machine.
     */
    @Test
    void aWarmUpTooShortLeavesRoundOneDisturbedAndItIsRunAgain() throws Exception {
        CliProcess.Finished run = CliProcess.start(work, List.of("-Dcpbench.plant.slow-start=14s",
                        "-D" + io.cpbench.core.load.PlantedSlowStart.DELAY_PROPERTY + "=10ms"), "run",
                "--scenario", "client-leader,client-follower", "--rounds", "3", "--duration", "4s", "--warmup", "1s",
                "--settle", "2s", "--cluster-warmup", "3s", "--warmup-round", "0", "--no-history", "--out", "runs")
                .finish(400);
        String out = run.stdout();
        assertThat(run.exitCode()).as(out + run.stderr()).isZero();
        assertThat(out).contains("cluster warm-up: did not settle within 3s (--cluster-warmup): ")
                .contains("round 1 left out of the ratios: its baseline client-leader ran at ")
                .contains("running the round again, as round 4").contains("[round 4, again for round 1] client-leader");
        assertThat(baselines(work)).as("rounds 1-4").hasSize(4);
        assertThat(Files.readString(runDir(work).resolve("table.md"))).contains("round 1 left out of the ratios")
                .containsPattern("client-follower +\\| client-leader +\\| [0-9.]+ +\\| [0-9.]+–[0-9.]+ +\\| ±[0-9.]+% +\\| [0-9.]+–[0-9.]+ +\\| 3 ");
    }

    private static double[] baselines(Path work) throws Exception {
        List<RunResult> results = ResultFiles.readAll(List.of(runDir(work)));
        return results.stream().filter(r -> r.scenario().equals("client-leader"))
                .sorted(java.util.Comparator.comparingInt(RunResult::round))
                .mapToDouble(r -> r.measured().opsPerSecond()).toArray();
    }

    private static Path runDir(Path work) throws Exception {
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            return dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    private static double number(String text) {
        return Double.parseDouble(text.replace(",", ""));
    }
}
