package io.cpbench.core.result;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Results of the first, flat format are read into the sections of the current one, field for field; the current
 * format reads back what it wrote; anything else is refused with one line.
 */
class ResultFormatTest {

    static final Path V1 = Path.of("../results/reference/local-2core-quick-a/01-client-leader.json");

    @TempDir
    Path dir;

    @Test
    void aFirstFormatFileLandsFieldForFieldInTheSections() throws Exception {
        JsonNode flat = new ObjectMapper().readTree(V1.toFile());
        assertThat(flat.path("format").asText()).isEqualTo(RunResult.FORMAT_1);

        RunResult r = ResultFiles.read(V1);

        assertThat(r.format()).isEqualTo(RunResult.FORMAT);
        assertThat(r.scenario()).isEqualTo(flat.path("scenario").asText());
        assertThat(r.run().network()).isEqualTo(flat.path("network").asText());
        assertThat(r.run().description()).isEqualTo(flat.path("description").asText());
        assertThat(r.round()).isEqualTo(flat.path("round").asInt());
        assertThat(r.status().name()).isEqualTo(flat.path("status").asText());
        assertThat(r.cluster().topology()).isEqualTo(flat.path("topology").asText());
        assertThat(r.cluster().name()).isEqualTo(flat.path("clusterName").asText());
        assertThat(r.cluster().clientTarget()).isEqualTo(flat.path("clientTarget").asText());
        assertThat(r.cluster().members()).hasSize(flat.path("members").size());
        assertThat(r.cluster().members().get(0).address()).isEqualTo(flat.path("members").get(0).path("address").asText());
        assertThat(r.measured().startedAt()).isEqualTo(flat.path("startedAt").asText());
        assertThat(r.measured().durationSeconds()).isEqualTo(flat.path("durationSeconds").asDouble());
        assertThat(r.measured().warmupOps()).isEqualTo(flat.path("warmupOps").asLong());
        assertThat(r.measured().ops()).isEqualTo(flat.path("ops").asLong());
        assertThat(r.measured().errors()).isEqualTo(flat.path("errors").asLong());
        assertThat(r.measured().opsPerSecond()).isEqualTo(flat.path("opsPerSecond").asDouble());
        assertThat(r.latencyMicros().p99()).isEqualTo(flat.path("latencyMicros").path("p99").asLong());
        assertThat(r.leader().before().term()).isEqualTo(flat.path("leaderBefore").path("term").asInt());
        assertThat(r.leader().after().name()).isEqualTo(flat.path("leaderAfter").path("name").asText());
        assertThat(r.plan().warmupOps()).isEqualTo(flat.path("plan").path("warmupOps").asLong());
        assertThat(r.hlog()).isEqualTo(flat.path("hlog").asText());
        assertThat(r.decodeHistogram().getTotalCount()).isEqualTo(flat.path("ops").asLong());
    }

    @Test
    void whatTheCurrentFormatWritesReadsBackEqual() throws Exception {
        RunResult old = ResultFiles.read(V1);
        Path file = ResultFiles.write(dir, old);

        JsonNode written = new ObjectMapper().readTree(file.toFile());
        assertThat(written.path("format").asText()).isEqualTo(RunResult.FORMAT);
        assertThat(written.path("run").path("scenario").asText()).isEqualTo("client-leader");
        assertThat(written.fieldNames()).toIterable().as("the sections, no flat fields").containsExactly("format", "run",
                "status", "reason", "firstError", "cluster", "plan", "environment", "measured", "latencyMicros", "leader",
                "hlog", "histogram", "load");
        assertThat(ResultFiles.read(file)).isEqualTo(old);
    }

    @Test
    void anotherFormatIsRefusedNamingBoth() throws Exception {
        Path file = dir.resolve("01-x.json");
        Files.writeString(file, "{\"format\": \"cpbench-result/3\", \"run\": {}}");
        assertThatThrownBy(() -> ResultFiles.read(file)).isInstanceOf(ResultFormatException.class)
                .hasMessage(file + ": not a cp-bench result (format is 'cpbench-result/3', expected 'cpbench-result/2'"
                        + " or 'cpbench-result/1')");
        Files.writeString(file, "{\"format\": \"cpbench-result/2\", \"status\": \"OK\"}");
        assertThatThrownBy(() -> ResultFiles.read(file)).isInstanceOf(ResultFormatException.class)
                .hasMessageContaining("missing its scenario, status, measured or latencyMicros");
    }
}
