package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.bench.report.Browser;
import io.cpbench.bench.report.NeedsChromium;
import org.junit.jupiter.api.BeforeAll;
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
    static Path work;
    static CliProcess.Finished finished;
    static Path runDir;
    static JsonNode chaos;

    @BeforeAll
    static void run() throws Exception {
        finished = CliProcess.run(work, 400, "chaos", "--nemesis", "kill-leader", "--restart",
                "--duration", "22s", "--fault-for", "8s", "--interval", "3s", "--faults", "1", "--members", "3",
                "--failover", "fast", "--settle", "2s", "--cluster-warmup", "1s", "--quiet", "--out", "runs");
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        if (Files.exists(runDir.resolve("chaos.json"))) {
            chaos = new ObjectMapper().readTree(runDir.resolve("chaos.json").toFile());
        }
    }

    @Test
    void killsTheLeaderRestartsItAndChecksTheHistory() throws Exception {
        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isZero();
        assertThat(finished.stdout()).contains("kill member").contains("back in CP").contains("linearizability: linearizable");
        // the one cluster warm-up ran first, with the load's mix, before any fault
        String out = finished.stdout();
        assertThat(out).contains("warming the cluster up until its op/s stops rising, at most 1s: untimed ops through a"
                + " smart client, ");
        // 1 s is too short to judge 10 one-second intervals (SteadyState.DEFAULT): it says so, and how far it got
        assertThat(out.indexOf("cluster warm-up: did not settle within 1s (--cluster-warmup): ")).as(out)
                .isGreaterThan(0).isLessThan(out.indexOf("kill member"));
        assertThat(chaos.get("scenario").asText()).as("the default clients").isEqualTo("client-smart");
        assertThat(chaos.get("faults")).hasSize(1);
        assertThat(chaos.get("faults").get(0).get("fault").asText()).isEqualTo("kill");
        assertThat(chaos.get("linearizability").get("verdict").asText()).isEqualTo("LINEARIZABLE");
        assertThat(chaos.get("linearizability").get("status").asText()).isEqualTo("OK");
        assertThat(chaos.get("linearizability").get("ops").asInt()).isGreaterThan(100);
        try (Stream<Path> logs = Files.list(runDir.resolve("jepsen"))) {
            assertThat(logs.count()).isEqualTo(4);
        }
        assertThat(CliProcess.leftovers(work, runDir)).isEmpty();
    }

    /** chaos.json read back from the results history: one row, the load under the fault, with its nemesis. */
    @Test
    void theResultsHistoryHoldsTheLoadUnderTheFault() {
        io.cpbench.bench.results.HistoryRun run = Recorded.run(runDir, finished.stdout());
        assertThat(run.kind()).isEqualTo("chaos");
        assertThat(run.rows()).singleElement().satisfies(r -> {
            assertThat(r.harness()).isEqualTo("chaos");
            assertThat(r.scenario()).isEqualTo("client-smart");
            assertThat(r.variant()).isEqualTo(chaos.get("nemesis").asText());
            assertThat(r.ops()).isEqualTo(chaos.get("load").get("total").get("all").get("ops").asLong()).isGreaterThan(100);
        });
    }

    /** Linearizable, every invariant held, the load ran to its end: OK in every place that says how it ended. */
    @Test
    void theRunsOneVerdictIsOkEverywhere() throws Exception {
        OneVerdict.agree(io.cpbench.core.status.Status.OK, finished, runDir, "chaos.json");
        assertThat(finished.stdout()).contains("chaos run: OK");
    }

    @Test
    void theHistoryStandsOnItsOwnLincheckReadsItAndAgrees() throws Exception {
        CliProcess.Finished lincheck = CliProcess.run(work, 120, "lincheck", runDir.resolve("history.jsonl").toString());
        assertThat(lincheck.exitCode()).as(lincheck.stderr()).isZero();
        assertThat(lincheck.stdout()).contains("history.jsonl: linearizable");
    }

    @Test
    @NeedsChromium
    void theReportShadesTheFaultWhereChaosJsonSaysItWas() throws Exception {
        // the availability timeline with the fault shaded where chaos.json says it was, and the verdicts
        Browser.Rendered report = Browser.renderAndCheck(runDir, "chaos-it");
        JsonNode availability = report.charts("time").get(0);
        assertThat(availability.path("title").asText()).startsWith("Availability");
        JsonNode band = availability.path("bands").get(0);
        assertThat(band.path("kind").asText()).isEqualTo("fault");
        assertThat(band.path("from").asDouble()).isEqualTo(chaos.get("faults").get(0).get("injectedAtS").asDouble());
        assertThat(band.path("to").asDouble() - band.path("from").asDouble())
                .isCloseTo(chaos.get("faults").get(0).get("healedAfterMs").asDouble() / 1000, org.assertj.core.data.Offset.offset(0.01));
        assertThat(report.page().dom()).contains("linearizability").contains("linearizable").contains("Faults: kill-leader")
                .contains("clients: client-smart");
    }
}
