package io.cpbench.bench.agents;

import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.Stage;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AgentPoolTest {

    @Test
    void clientsSplitBetweenAgentsEachOnObjectsOfItsOwn() {
        LoadSpec spec = LoadSpec.builder().mix("cas=3,get=1").clients(6).threads(2).duration(Duration.ofSeconds(5))
                .threshold("p99<10ms").build();
        List<LoadSpec> slices = AgentPool.split(spec, 3);
        assertThat(slices).hasSize(3).allSatisfy(s -> {
            assertThat(s.clients()).isEqualTo(2);
            assertThat(s.threads()).isEqualTo(2);
            assertThat(s.mix()).isEqualTo(spec.mix());
            assertThat(s.thresholds()).as("judged once, on the merged run").isEmpty();
        });
        assertThat(slices).extracting(LoadSpec::prefix).doesNotHaveDuplicates().allMatch(p -> p.startsWith(spec.prefix()));
        assertThat(slices).extracting(LoadSpec::seed).doesNotHaveDuplicates();
    }

    @Test
    void oneClientsThreadsSplitAndAnOpenLoopsRateStageByStage() {
        LoadSpec spec = LoadSpec.builder().mix("get").clients(1).threads(8).rate(100)
                .stages(List.of(new Stage(Duration.ofSeconds(2), 100), new Stage(Duration.ofSeconds(2), 400))).build();
        List<LoadSpec> slices = AgentPool.split(spec, 4);
        assertThat(slices).allSatisfy(s -> {
            assertThat(s.clients()).isEqualTo(1);
            assertThat(s.threads()).isEqualTo(2);
            assertThat(s.profile().stages()).extracting(Stage::target).containsExactly(25.0, 100.0);
            assertThat(s.profile().totalOps() * 4).isEqualTo(spec.profile().totalOps());
        });
    }

    @Test
    void whatDoesNotSplitIsRefusedWithWhatWould() {
        LoadSpec uneven = LoadSpec.builder().mix("cas").clients(2).threads(3).build();
        assertThatThrownBy(() -> AgentPool.split(uneven, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--agents 3 cannot split 2 clients x 3 threads evenly: give a number of clients that is a"
                        + " multiple of 3, or 1 client with threads a multiple of 3");
        LoadSpec abort = LoadSpec.builder().mix("cas").clients(2).threshold("p99<1ms").abortOnFail(true).build();
        assertThatThrownBy(() -> AgentPool.split(abort, 2)).hasMessageContaining("abortOnFail is not supported");
    }
}
