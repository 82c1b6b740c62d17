package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.bench.results.HistoryRun;
import io.cpbench.bench.report.ReportModel;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One run, one verdict: what a CLI process exited with, the status its document holds ({@code chaos.json},
 * {@code ab.json}), the status its run has in the results history, and the status its report shows, each read by its
 * own consumer (the history through its store, the report through its model), must all be {@code expected}.
 */
final class OneVerdict {

    private OneVerdict() {
    }

    /**
     * @param document the run's document in {@code runDir} ({@code chaos.json}, {@code ab.json}); null for a run whose
     *                 files are its results (the worst of their statuses is its status)
     */
    static void agree(Status expected, CliProcess.Finished finished, Path runDir, String document) throws Exception {
        String seen = finished.stdout() + finished.stderr();
        assertThat(finished.exitCode()).as("exit code; " + seen).isEqualTo(expected.exitCode(false));
        if (document != null) {
            JsonNode doc = new ObjectMapper().readTree(Files.readString(runDir.resolve(document)));
            assertThat(doc.path("status").asText()).as(document + "'s status").isEqualTo(expected.name());
        } else {
            assertThat(Status.worst(ResultFiles.readAll(List.of(runDir)).stream().map(RunResult::status).toList()))
                    .as("the worst of the result files' statuses").isEqualTo(expected);
        }
        HistoryRun recorded = Recorded.run(runDir, finished.stdout());
        assertThat(recorded.status()).as("the history's run").isEqualTo(expected);
        JsonNode report = ReportModel.run(runDir);
        assertThat(report.path("status").asText()).as("the report's status").isEqualTo(expected.name());
        assertThat(report.path("incomplete").asBoolean()).as("the report's 'not all OK'").isEqualTo(expected != Status.OK);
        assertThat(report.path("verdicts").get(0).path("name").asText()).isEqualTo("the run");
        assertThat(report.path("verdicts").get(0).path("verdict").asText()).isEqualTo(expected.name());
        assertThat(report.path("verdicts").get(0).path("ok").asBoolean()).isEqualTo(expected == Status.OK);
    }
}
