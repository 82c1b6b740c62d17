package io.cpbench.core.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cell run's latencies are one group in the code and five fields of its JSON, as they were before the grouping: the
 * file's fields, their order, and the run read back are checked against a run built here.
 */
class CellRunJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theLatenciesAreWrittenAsTheRunsOwnFieldsAndReadBack() throws Exception {
        CellRun run = CellRunBuilder.builder().repeat(2).cell(new SweepCell("client-smart", 1, 4, null)).status(Status.OK)
                .seconds(10).ops(12_345).errors(1).opsPerSecond(1234.5)
                .latency(new CellRun.Latencies(310, 420, 990, 1500, 2700)).sloActual(990).build();
        JsonNode tree = JSON.valueToTree(run);
        List<String> names = new ArrayList<>();
        tree.fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactly("repeat", "cell", "status", "reason", "seconds", "ops", "errors", "opsPerSecond",
                "p50Us", "p90Us", "p99Us", "p999Us", "maxUs", "sloActual");
        assertThat(tree.get("p999Us").asLong()).isEqualTo(1500);
        CellRun back = JSON.treeToValue(tree, CellRun.class);
        assertThat(back).isEqualTo(run);
        assertThat(back.latency().maxUs()).isEqualTo(2700);
    }

    @Test
    void aRunThatMeasuredNothingHasNoLatencies() throws Exception {
        String failed = "{\"repeat\":1,\"cell\":{\"routing\":\"client-smart\",\"clients\":1,\"threads\":1},\"status\":\"FAIL\","
                + "\"reason\":\"cluster gone\",\"seconds\":0,\"ops\":0,\"errors\":0,\"opsPerSecond\":0,\"sloActual\":\"NaN\"}";
        CellRun back = JSON.readValue(failed, CellRun.class);
        assertThat(back.latency()).isEqualTo(CellRun.Latencies.NONE);
        assertThat(back.reason()).isEqualTo("cluster gone");
    }
}
