package io.cpbench.core.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** chaos.json keeps its flat first fields (kind ... failover) though the code groups them as the run's setup. */
class ChaosDocumentJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theSetupIsWrittenAsTheFilesFirstFieldsAndReadBack() throws Exception {
        ChaosDocument doc = ChaosDocumentBuilder.builder()
                .setup(new ChaosDocument.Setup("chaos", "client-smart", "kill-leader", "8s", "4s", true, "fast"))
                .spec(Map.of("threads", 4)).faults(List.of()).nemesisLog(List.of("killed member 2"))
                .status(Status.FAIL).reason("counter: VIOLATED").checks(List.of()).build();
        JsonNode tree = JSON.valueToTree(doc);
        List<String> names = new ArrayList<>();
        tree.fieldNames().forEachRemaining(names::add);
        assertThat(names.subList(0, 8)).containsExactly("kind", "scenario", "nemesis", "faultFor", "interval", "restart",
                "failover", "spec");
        assertThat(names).doesNotContain("setup");
        ChaosDocument back = JSON.treeToValue(tree, ChaosDocument.class);
        assertThat(back).isEqualTo(doc);
        assertThat(back.setup().nemesis()).isEqualTo("kill-leader");
        assertThat(back.verdict()).isEqualTo(new ChaosDocument.Verdict(Status.FAIL, "counter: VIOLATED"));
    }
}
