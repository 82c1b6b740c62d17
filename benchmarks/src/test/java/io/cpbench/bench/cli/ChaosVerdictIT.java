package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A chaos run whose counter invariant is broken (a planted lost increment: the counter check counts one acknowledged
 * increment more than the run made) while its history is linearizable and its load ran to its end: the run is FAIL
 * everywhere, its exit code, chaos.json, its row in the results history and its report. Before the run had one
 * verdict, it exited 1 while the history recorded it OK.
 */
@Tag("long")
class ChaosVerdictIT {

    @TempDir
    Path work;

    @Test
    void aBrokenInvariantFailsTheRunInEveryPlaceThatSaysHowItEnded() throws Exception {
        CliProcess.Finished finished = CliProcess.start(work, List.of("-Dcpbench.plant.lost-increment=1"), "chaos",
                "--nemesis", "pause-leader", "--duration", "8s", "--fault-for", "2s", "--interval", "2s", "--faults", "1",
                "--members", "3", "--failover", "fast", "--settle", "1s", "--cluster-warmup", "0s",
                "--mix", "read=2,write=1,cmpset=1,increment=2", "--quiet", "--out", "runs").finish(300);
        Path runDir;
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        String out = finished.stdout();
        assertThat(out).as(out + finished.stderr()).contains("linearizability: linearizable")
                .contains("counter: VIOLATED (PLANTED LOST INCREMENT (-Dcpbench.plant.lost-increment=1): ")
                .contains("chaos run: FAIL (counter: VIOLATED: PLANTED LOST INCREMENT");
        JsonNode chaos = new ObjectMapper().readTree(runDir.resolve("chaos.json").toFile());
        assertThat(chaos.path("load").path("outcome").asText()).as("the load itself ran to its end").isEqualTo("OK");
        assertThat(chaos.path("reason").asText()).startsWith("counter: VIOLATED: PLANTED LOST INCREMENT");
        // every checker's verdict is kept: the load ran to its end, the counter broke, the history is linearizable,
        // and every fault that came due was injected
        assertThat(chaos.path("checks").findValuesAsText("name")).containsExactly("load", "counter", "linearizability",
                "availability", "nemesis");
        assertThat(chaos.path("checks").findValuesAsText("status")).containsExactly("OK", "FAIL", "OK", "OK", "OK");
        OneVerdict.agree(Status.FAIL, finished, runDir, "chaos.json");
        assertThat(CliProcess.leftovers(work, runDir)).isEmpty();
    }
}
