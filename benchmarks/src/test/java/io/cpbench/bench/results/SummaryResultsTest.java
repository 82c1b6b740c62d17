package io.cpbench.bench.results;

import io.cpbench.bench.history.RunImport;
import io.cpbench.core.result.ResultFormatException;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A reference run that kept only its summary.csv and table.md is read again: the 37-round run behind
 * local-2core-until-ci-5pct, whose 111 result files were not kept.
 */
class SummaryResultsTest {

    private static final Path UNTIL_CI = Path.of("../results/reference/local-2core-until-ci-5pct");

    @TempDir
    Path dir;

    /**
     * The oracle is the table the run printed when it ended, from its result files: each scenario's Op/s there is the
     * median over its rounds, which the rows read from summary.csv must give again.
     */
    @Test
    void theThirtySevenRoundRunIsReadAgainAndItsMediansAreTheTablesOwn() throws IOException {
        assertThat(RunImport.isRun(UNTIL_CI)).isTrue();
        HistoryRun run = RunImport.read(UNTIL_CI, null);
        assertThat(run.kind()).isEqualTo("matrix");
        assertThat(run.status()).isEqualTo(Status.OK);
        assertThat(run.rows()).hasSize(111).allSatisfy(r -> {
            assertThat(r.harness()).isEqualTo("driver");
            assertThat(r.network()).isEqualTo("a");
            assertThat(r.ops()).isPositive();
            assertThat(r.latency().p50()).isNotNull();
        });
        Map<String, Long> printed = tableOpsPerSecond(Files.readString(UNTIL_CI.resolve("table.md")));
        assertThat(printed).containsOnlyKeys("client-leader", "client-follower", "client-leader-aware");
        for (Map.Entry<String, Long> scenario : printed.entrySet()) {
            double[] opsPerSecond = run.rows().stream().filter(r -> r.scenario().equals(scenario.getKey()))
                    .mapToDouble(HistoryRun.Row::opsPerSecond).sorted().toArray();
            assertThat(opsPerSecond).as(scenario.getKey() + ": its rounds").hasSize(37);
            assertThat(Math.round(opsPerSecond[18])).as(scenario.getKey() + ": the median the run printed")
                    .isEqualTo(scenario.getValue());
        }
        assertThat(run.rows().stream().filter(r -> r.scenario().equals("client-leader")).findFirst().orElseThrow()
                .leaders().before()).isEqualTo("member-0");
    }

    @Test
    void itsReportSaysWhatWasNotKept() throws IOException {
        com.fasterxml.jackson.databind.JsonNode report = io.cpbench.bench.report.ReportModel.run(UNTIL_CI);
        assertThat(report.path("status").asText()).isEqualTo("OK");
        assertThat(report.path("kind").asText()).isEqualTo("matrix");
        assertThat(report.toString()).contains("only summary.csv (111 lines: 3 scenarios x 37 rounds)",
                "client-leader-aware").doesNotContain("# cp-bench matrix");
    }

    /** A folder with result files is read from them, not from its summary.csv. */
    @Test
    void resultFilesComeFirst() {
        Path withFiles = Path.of("../results/reference/local-2core-quick-20261128");
        assertThat(withFiles.resolve("summary.csv")).exists();
        assertThat(ResultKinds.read(withFiles)).isInstanceOf(ScenarioResults.class);
    }

    @Test
    void aBrokenSummaryIsOneLineNamingItsLine() throws IOException {
        List<String> lines = Files.readAllLines(UNTIL_CI.resolve("summary.csv"));
        Files.writeString(dir.resolve("table.md"), "# cp-bench matrix\n");

        write(lines.get(0), lines.get(1), lines.get(2).replace(",OK,", ",FINE,"));
        assertOneLine(dir.resolve("summary.csv") + ":3: status 'FINE' is not one of cp-bench's");

        write(lines.get(0), lines.get(1), String.join(",", Arrays.copyOf(lines.get(2).split(","), 6)));
        assertOneLine(dir.resolve("summary.csv") + ":3: a line cut short (6 of 20 values)");

        write(lines.get(0), lines.get(1).replaceFirst("^1,", "one,"));
        assertOneLine(dir.resolve("summary.csv") + ":2: round must be a whole number, was 'one'");

        write("a,b,c", "1,2,3");
        assertThatThrownBy(() -> SummaryResults.read(dir)).isInstanceOf(ResultFormatException.class)
                .hasMessageStartingWith(dir.resolve("summary.csv") + ": not a matrix run's summary.csv (")
                .hasMessageContaining("missing: round, scenario, network");

        write(lines.get(0));
        assertOneLine(dir.resolve("summary.csv") + ": no line after the header");
    }

    @Test
    void theWorstRowIsTheRunsStatus() throws IOException {
        List<String> lines = Files.readAllLines(UNTIL_CI.resolve("summary.csv"));
        Files.writeString(dir.resolve("table.md"), "# cp-bench matrix\n");
        write(lines.get(0), lines.get(1), lines.get(2).replace(",OK,", ",TIMEBOXED,"));
        SummaryResults summary = SummaryResults.read(dir);
        assertThat(summary.status()).isEqualTo(Status.TIMEBOXED);
        assertThat(summary.why()).isEqualTo("client-follower round 1: TIMEBOXED");
        assertThat(RunImport.read(dir, null).status()).isEqualTo(Status.TIMEBOXED);
    }

    private void write(String... lines) throws IOException {
        Files.writeString(dir.resolve("summary.csv"), String.join("\n", lines) + "\n");
    }

    private void assertOneLine(String message) {
        assertThatThrownBy(() -> SummaryResults.read(dir)).isInstanceOf(ResultFormatException.class)
                .hasMessage(message);
    }

    /** Each scenario's Op/s in the table's first block, read here on its own. */
    private static Map<String, Long> tableOpsPerSecond(String table) {
        Map<String, Long> ops = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^\\| (client-[a-z-]+) +\\| \\(a\\) +\\| [0-9.]+ +\\| ([0-9]+) +\\|").matcher(table);
        while (m.find()) {
            ops.putIfAbsent(m.group(1), Long.parseLong(m.group(2)));
        }
        return ops;
    }
}
