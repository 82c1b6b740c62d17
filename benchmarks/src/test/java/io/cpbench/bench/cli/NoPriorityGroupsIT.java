package io.cpbench.bench.cli;

import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --no-priority} on a real 3-member cluster: it becomes ready with whichever member Hazelcast elects, a load
 * over three CP groups runs through leader-aware routing, and each group's leader is named after the warm-up.
 */
class NoPriorityGroupsIT {

    @TempDir
    static Path work;

    @Test
    void aClusterWithNoPriorityRunsALoadOverSeveralGroupsAndNamesTheirLeaders() throws Exception {
        CliProcess.Finished finished = CliProcess.run(work, 300, "load", "--no-priority", "--groups", "g1,g2,g3",
                "--objects", "3", "--mix", "cas,get", "--scenarios", "client-leader-aware", "--threads", "4",
                "--duration", "3s", "--warmup", "1s", "--cluster-warmup", "8s", "--members", "3", "--settle", "2s",
                "--quiet", "--out", "runs");

        assertThat(finished.exitCode()).as(finished.stderr()).isEqualTo(ExitCodes.OK);
        assertThat(finished.stdout()).contains("no leadership priority").doesNotContain(", priority)");
        String leadersLine = finished.stdout().lines().filter(l -> l.startsWith("CP group leaders: ")).findFirst().orElseThrow();
        List<String> leaders = Arrays.stream(leadersLine.substring("CP group leaders: ".length()).split(", ")).toList();
        assertThat(leaders).hasSize(3).allSatisfy(l -> assertThat(l).matches("g[123] -> member-[012]"));
        Path runDir;
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        List<RunResult> results = ResultFiles.readAll(List.of(runDir));
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.status()).as(r.reason()).isEqualTo(Status.OK);
            assertThat(r.ops()).isPositive();
            assertThat(r.load().invariants()).allSatisfy(i -> assertThat(i.holds()).isTrue());
        });
    }
}
