package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.bench.service.ExitCodes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cpbench sweep --fresh-clusters}: each repeat on a cluster of its own, started and stopped by the sweep.
 * Two cluster starts, so it is in the "long" group ({@code ./mvnw verify -Plong}); SweepIT checks the sweep itself
 * on the shared cluster.
 */
@Tag("long")
class SweepFreshClustersIT {

    @TempDir
    Path work;

    @Test
    void eachRepeatRunsOnAFreshClusterThatIsGoneAfterwards() throws Exception {
        CliProcess.Finished finished = CliProcess.run(work, 400, "sweep", "--scenario", "client-leader", "--threads", "1,2",
                "--duration", "2s", "--warmup", "1s", "--repeats", "2", "--fresh-clusters", "--slo", "p99<5s",
                "--cluster-warmup", "500ms", "--members", "3", "--settle", "2s", "--out", "runs");

        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.OK);
        assertThat(finished.stdout()).contains("(a fresh cluster per repeat)")
                .contains("[repeat 1/2] a fresh cluster").contains("[repeat 2/2] a fresh cluster").contains("[4/4 repeat 2");
        Path runDir;
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        JsonNode sweep = new ObjectMapper().readTree(runDir.resolve("sweep.json").toFile());
        assertThat(sweep.get("status").asText()).isEqualTo("OK");
        assertThat(sweep.get("grid").get("freshClusters").asBoolean()).isTrue();
        // one cluster per repeat, each with its own member logs
        try (Stream<Path> clusters = Files.list(runDir.resolve("members"))) {
            assertThat(clusters.map(p -> p.getFileName().toString()).sorted().toList()).containsExactly("r1-1", "r2-1");
        }
        // every member of both clusters is gone (their logs name the run directory)
        String dir = runDir.toAbsolutePath().toString();
        assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(dir)).toList())
                .as("member processes still running").isEqualTo(List.of());
    }
}
