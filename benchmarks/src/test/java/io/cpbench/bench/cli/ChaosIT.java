package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cpbench chaos} end to end on 3 local members with the fast-failover preset: one kill -9 of the leader,
 * the member restarted and re-admitted to CP, the history written and checked, nothing left running.
 */
class ChaosIT {

    @TempDir
    Path work;

    @Test
    void killsTheLeaderRestartsItAndChecksTheHistory() throws Exception {
        CliProcess.Finished finished = CliProcess.run(work, 400, "chaos", "--nemesis", "kill-leader", "--restart",
                "--duration", "30s", "--fault-for", "8s", "--interval", "5s", "--faults", "1", "--members", "3",
                "--failover", "fast", "--settle", "2s", "--quiet", "--out", "runs");

        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isZero();
        Path runDir;
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        assertThat(finished.stdout()).contains("kill member").contains("back in CP").contains("linearizability: linearizable");
        JsonNode chaos = new ObjectMapper().readTree(runDir.resolve("chaos.json").toFile());
        assertThat(chaos.get("faults")).hasSize(1);
        assertThat(chaos.get("faults").get(0).get("fault").asText()).isEqualTo("kill");
        assertThat(chaos.get("linearizability").get("verdict").asText()).isEqualTo("linearizable");
        assertThat(chaos.get("linearizability").get("ops").asInt()).isGreaterThan(100);

        // the history stands on its own: lincheck reads it and agrees
        CliProcess.Finished lincheck = CliProcess.run(work, 120, "lincheck", runDir.resolve("history.jsonl").toString());
        assertThat(lincheck.exitCode()).as(lincheck.stderr()).isZero();
        assertThat(lincheck.stdout()).contains("history.jsonl: linearizable");
        try (Stream<Path> logs = Files.list(runDir.resolve("jepsen"))) {
            assertThat(logs.count()).isEqualTo(4);
        }
        assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("")
                .contains(runDir.getFileName().toString())).toList()).isEmpty();

        // the report: the availability timeline with the fault shaded where chaos.json says it was, and the verdicts
        io.cpbench.bench.report.Browser.Rendered report = io.cpbench.bench.report.Browser.renderAndCheck(runDir, "chaos-it");
        JsonNode availability = report.charts("time").get(0);
        assertThat(availability.path("title").asText()).startsWith("Availability");
        JsonNode band = availability.path("bands").get(0);
        assertThat(band.path("kind").asText()).isEqualTo("fault");
        assertThat(band.path("from").asDouble()).isEqualTo(chaos.get("faults").get(0).get("injectedAtS").asDouble());
        assertThat(band.path("to").asDouble() - band.path("from").asDouble())
                .isCloseTo(chaos.get("faults").get(0).get("healedAfterMs").asDouble() / 1000, org.assertj.core.data.Offset.offset(0.01));
        assertThat(report.page().dom()).contains("linearizability").contains("linearizable").contains("Faults: kill-leader");
    }
}
