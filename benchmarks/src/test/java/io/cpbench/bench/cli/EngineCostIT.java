package io.cpbench.bench.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code cpbench engine-cost} end to end on 3 local members: every pair measured, the table and CSV written. */
@SharedCluster.Uses
@Tag("long") // in CI's -Plong run: it keeps ./mvnw verify under 15 minutes
// Not "alone": it checks every pair, the order and the table, not what the engine costs on this machine; so it runs
// beside the others.
class EngineCostIT {

    @TempDir
    Path work;

    @Test
    void measuresEveryPairAndWritesTheTable() throws Exception {
        CliProcess.Finished finished = CliProcess.run(work, 300, SharedCluster.with("engine-cost", "--threads", "1,4",
                "--pairs", "2", "--duration", "1s", "--warmup", "500ms", "--cluster-warmup", "1s", "--settle", "1s", "--out", "runs"));

        assertThat(finished.exitCode()).as(finished.stderr()).isZero();
        Path runDir;
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        List<String> pairs = Files.readAllLines(runDir.resolve("pairs.csv"));
        assertThat(pairs.get(0)).isEqualTo("threads,pair,plain_ops_per_s,engine_ops_per_s");
        assertThat(pairs).hasSize(5);
        for (String row : pairs.subList(1, pairs.size())) {
            String[] f = row.split(",");
            assertThat(Double.parseDouble(f[2])).as(row).isGreaterThan(10);
            assertThat(Double.parseDouble(f[3])).as(row).isGreaterThan(10);
        }
        // the order alternates: plain first in pair 1, the engine first in pair 2
        assertThat(finished.stdout()).contains("pair 1 (plain first)").contains("pair 2 (engine first)");
        // A row per thread count, with its number of pairs (the table pads its columns).
        assertThat(Files.readString(runDir.resolve("table.md"))).containsPattern("(?m)^\\|\\s+1 \\|\\s+2 \\|")
                .containsPattern("(?m)^\\|\\s+4 \\|\\s+2 \\|");
        assertThat(CliProcess.leftovers(work, runDir)).isEmpty();
    }
}
