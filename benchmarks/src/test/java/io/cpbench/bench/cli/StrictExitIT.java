package io.cpbench.bench.cli;

import io.cpbench.bench.service.ExitCodes;
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

/**
 * Exit code 3: with --strict, a run whose result is TIMEBOXED ends non-zero, and standard error names the row. On
 * a real (embedded) cluster: the time box is reached because 100 million ops cannot finish in 3 s.
 */
@SharedCluster.Uses
class StrictExitIT {

    @TempDir
    Path work;

    @Test
    void aTimeboxedResultExitsThreeWithStrictAndNamesTheRow() throws Exception {
        CliProcess.Finished finished = CliProcess.run(work, 300, SharedCluster.with("run", "--scenario", "client-leader",
                "--ops", "100000000", "--warmup", "0", "--timebox", "3s", "--cluster-warmup", "500ms",
                "--settle", "2s", "--strict", "--out", "runs"));

        assertThat(finished.exitCode()).as(finished.stderr()).isEqualTo(ExitCodes.NOT_CLEAN);
        assertThat(finished.stderr().strip().lines().reduce((a, b) -> b).orElseThrow())
                .isEqualTo("cpbench run: 1 TIMEBOXED of 1 result: client-leader round 1 TIMEBOXED");
        List<RunResult> results;
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            results = ResultFiles.readAll(dirs.toList());
        }
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(Status.TIMEBOXED);
            assertThat(r.measured().ops()).isPositive().isLessThan(100_000_000);
        });
        assertThat(finished.stdout()).contains("[round 1/1, scenario 1 of 1");
    }
}
