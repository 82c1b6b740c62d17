package io.cpbench.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.cpbench.bench.history.RunImport;
import io.cpbench.bench.report.ReportModel;
import io.cpbench.bench.results.ResultKind;
import io.cpbench.bench.results.ResultKinds;
import io.cpbench.core.result.ResultFormatException;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each kind of result is read once, by its own class, and the history and the report both take the run's verdict
 * from it: over every run kept under results/reference (scenario runs, load runs, JMH trials, sweeps, ab runs, some
 * written before ab.json) and over planted ones whose verdict is known from their text.
 */
class ResultKindsTest {

    private static final Path REFERENCE = Path.of("../results/reference");

    @TempDir
    Path dir;

    @Test
    void everyReferenceRunHasOneVerdictInItsHistoryRunAndItsReport() throws IOException {
        List<Path> runs = RunImport.find(REFERENCE);
        assertThat(runs).hasSizeGreaterThanOrEqualTo(15);
        int abRuns = 0;
        int abRunsBeforeAbJson = 0;
        for (Path run : runs) {
            ResultKind kind = ResultKinds.read(run);
            assertThat(RunImport.read(run, null).status()).as(run + ": history").isEqualTo(kind.status());
            JsonNode report = ReportModel.run(run);
            assertThat(report.path("status").asText()).as(run + ": report").isEqualTo(kind.status().name());
            assertThat(report.path("verdicts").get(0).path("name").asText()).isEqualTo("the run");
            assertThat(report.path("incomplete").asBoolean()).isEqualTo(kind.status() != Status.OK);
            if (report.path("kind").asText().equals("ab")) {
                abRuns++;
                abRunsBeforeAbJson += Files.exists(run.resolve("ab.json")) ? 0 : 1;
                // the oracle: the verdict line of the table the run printed, read here on its own
                assertThat(kind.status()).as(run.toString()).isEqualTo(statusOfVerdictLine(run.resolve("table.md")));
            }
        }
        assertThat(abRunsBeforeAbJson).as("ab runs written before ab.json").isEqualTo(5);
        assertThat(abRuns).as("ab runs, with ab.json too").isGreaterThan(abRunsBeforeAbJson);
    }

    /** An ab run's table whose verdict line says REGRESSION: FAIL in the history and the report (its exit code was 1). */
    @Test
    void anAbRunWrittenBeforeAbJsonWithARegressionFailsEverywhere() throws IOException {
        Path ab = copy(REFERENCE.resolve("local-2core-ab-same-build-200ms"), dir.resolve("ab"));
        Path table = ab.resolve("table.md");
        Files.writeString(table, Files.readString(table).replaceFirst("(?m)^verdict: NO CHANGE: 0 of 1 rows slower",
                "verdict: REGRESSION: 1 of 1 rows slower"));
        assertThat(statusOfVerdictLine(table)).isEqualTo(Status.FAIL);
        assertThat(ResultKinds.read(ab).status()).isEqualTo(Status.FAIL);
        assertThat(RunImport.read(ab, null).status()).isEqualTo(Status.FAIL);
        assertThat(RunImport.read(ab, null).rows()).hasSize(2)
                .allSatisfy(r -> assertThat(r.status()).as("the sides' numbers stand").isEqualTo(Status.OK));
        JsonNode report = ReportModel.run(ab);
        assertThat(report.path("status").asText()).isEqualTo("FAIL");
        assertThat(report.path("verdicts").get(1).path("verdict").asText()).isEqualTo("regression");
    }

    /** A sweep whose document says INCOMPLETE is INCOMPLETE in its history run and its report. */
    @Test
    void anIncompleteSweepIsIncompleteEverywhere() throws IOException {
        Path sweep = Files.createDirectories(dir.resolve("sweep"));
        Files.writeString(sweep.resolve("sweep.json"), """
                {"format":"cpbench-sweep/1","status":"INCOMPLETE","startedAt":"2026-11-20T10:00:00Z","topology":"client-leader",
                 "cells":[{"repeat":1,"cell":{"routing":"leader","clients":1,"threads":4},"status":"OK","ops":1000,"errors":0,
                           "opsPerSecond":500.0,"p50Us":800,"p90Us":900,"p99Us":1200,"p999Us":2000,"maxUs":3000}]}
                """);
        assertThat(ResultKinds.read(sweep).status()).isEqualTo(Status.INCOMPLETE);
        assertThat(RunImport.read(sweep, null).status()).isEqualTo(Status.INCOMPLETE);
        assertThat(RunImport.read(sweep, null).rows()).singleElement().satisfies(r -> {
            assertThat(r.variant()).isEqualTo("1x4");
            assertThat(r.opsPerSecond()).isEqualTo(500.0);
        });
        assertThat(ReportModel.run(sweep).path("status").asText()).isEqualTo("INCOMPLETE");
    }

    /** A document that is not what its name says is one line naming the file, for the history and the report alike. */
    @Test
    void aCorruptDocumentIsOneLineForBoth() throws IOException {
        Path chaos = Files.createDirectories(dir.resolve("chaos"));
        Files.writeString(chaos.resolve("chaos.json"), "{\"faults\": 7}");
        for (Runnable read : List.<Runnable>of(() -> RunImport.read(chaos, null), () -> ReportModel.run(chaos))) {
            assertThatThrownBy(read::run).isInstanceOf(ResultFormatException.class)
                    .hasMessageStartingWith(chaos.resolve("chaos.json") + ": not a chaos run's chaos.json (")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
    }

    private static Status statusOfVerdictLine(Path table) throws IOException {
        Matcher m = Pattern.compile("(?m)^verdict: (\\S+)").matcher(Files.readString(table));
        assertThat(m.find()).as(table + " has a verdict line").isTrue();
        return m.group(1).startsWith("REGRESSION") ? Status.FAIL : Status.OK;
    }

    private static Path copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        return to;
    }
}
