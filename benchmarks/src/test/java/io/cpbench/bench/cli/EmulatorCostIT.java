package io.cpbench.bench.cli;

import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** emulator-cost as a user runs it: fresh clusters each way, a pair at a time, the ratio table at the end. */
// Four fresh clusters, and the emulator-cost figure is a study: the long group (./mvnw verify -Plong).
@org.junit.jupiter.api.Tag("long")
// Not "alone": it checks how the pairs ran and what was written, and that each ratio is its own runs' op/s, not what the
// ratio is on this machine; so it runs beside the others (with the tests' C1 members too).
class EmulatorCostIT {

    @TempDir
    Path work;

    @Test
    void twoPairsOnFreshClustersGiveTheRatioAndLeaveNoMemberBehind() throws Exception {
        CliProcess.Finished run = CliProcess.run(work, 600, "emulator-cost", "--pairs", "2", "--members", "3", "--settle", "1s", "--ops", "200",
                "--warmup", "100ms", "--cluster-warmup", "500ms", "--out", "runs");

        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        Path runDir;
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        // Pair 1 runs direct first, pair 2 emulated first.
        List<String> order = run.stdout().lines().filter(l -> l.startsWith("[pair ")).toList();
        assertThat(order).containsExactly("[pair 1/2] direct: starting a fresh cluster ...",
                "[pair 1/2] emulated: starting a fresh cluster ...", "[pair 2/2] emulated: starting a fresh cluster ...",
                "[pair 2/2] direct: starting a fresh cluster ...");
        List<RunResult> direct = ResultFiles.readAll(List.of(runDir.resolve("direct")));
        List<RunResult> emulated = ResultFiles.readAll(List.of(runDir.resolve("emulated")));
        assertThat(direct).hasSize(2).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(Status.OK);
            assertThat(r.measured().ops()).isEqualTo(200);
            assertThat(r.cluster().networkPath().method()).isEqualTo("direct");
        });
        assertThat(emulated).hasSize(2).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(Status.OK);
            assertThat(r.cluster().networkPath().method()).isEqualTo("user-space TCP proxy per member, for member-2's links only"); // the last of 3
            assertThat(r.cluster().networkPath().clientBytesToMember()).isNotEmpty();
        });
        // Each pair's ratio is its own two runs' op/s, and the summary is their median.
        double ratio1 = emulated.stream().filter(r -> r.round() == 1).findFirst().orElseThrow().measured().opsPerSecond()
                / direct.stream().filter(r -> r.round() == 1).findFirst().orElseThrow().measured().opsPerSecond();
        assertThat(run.stdout()).contains(String.format(java.util.Locale.ROOT, "pair 1: emulated ÷ direct = %.3f", ratio1))
                .contains("client-leader, emulated ÷ direct op/s: median").contains("(2 pairs)");
        assertThat(Files.readString(runDir.resolve("emulator-cost.md"))).contains("| emulated ÷ direct |");
        // Every member of every cluster it started is gone (their GC logs name the run directory).
        String dir = runDir.toAbsolutePath().toString();
        assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(dir)).toList())
                .as("member processes still running").isEmpty();
    }
}
