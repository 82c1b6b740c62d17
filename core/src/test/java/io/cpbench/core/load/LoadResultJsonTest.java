package io.cpbench.core.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A load result's caveats are one group in the code and the file's own {@code unsteady} and {@code firstError}
 * fields, each left out when it has nothing to say, as before they were grouped.
 */
class LoadResultJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theCaveatsAreTheFilesOwnFieldsAndReadBack() throws Exception {
        LoadResult said = LoadResultBuilder.builder().outcome(Status.UNSTABLE).reason("late").spec(Map.of("threads", 2))
                .startedAt("2026-11-30T02:00:00Z").seconds(10).warmupOps(500L)
                .caveats(new LoadResult.Caveats(List.of("late began measuring 900 ms after the first"),
                        "TimeoutException: no answer")).build();
        JsonNode tree = JSON.valueToTree(said);
        assertThat(tree.has("caveats")).isFalse();
        assertThat(tree.get("unsteady").get(0).asText()).isEqualTo("late began measuring 900 ms after the first");
        assertThat(tree.get("firstError").asText()).isEqualTo("TimeoutException: no answer");
        assertThat(JSON.treeToValue(tree, LoadResult.class)).isEqualTo(said);

        LoadResult quiet = LoadResultBuilder.builder().outcome(Status.OK).seconds(10).build();
        JsonNode plain = JSON.valueToTree(quiet);
        assertThat(plain.has("unsteady") || plain.has("firstError") || plain.has("caveats")).as(plain.toString()).isFalse();
        LoadResult back = JSON.treeToValue(plain, LoadResult.class);
        assertThat(back.caveats()).isEqualTo(LoadResult.Caveats.NONE);
        assertThat(back).isEqualTo(quiet);
    }
}
