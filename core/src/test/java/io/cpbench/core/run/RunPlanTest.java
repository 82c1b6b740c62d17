package io.cpbench.core.run;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunPlanTest {

    @Test
    void defaultsAreTheSeeds() {
        RunPlan seed = RunPlan.seed();
        assertThat(seed.warmupOps()).isEqualTo(10_000);
        assertThat(seed.ops()).isEqualTo(500_000);
        assertThat(seed.threads()).isEqualTo(1);
    }

    @Test
    void rejectsZeroOrNegativeOpsWithAReadableMessage() {
        assertThatThrownBy(() -> RunPlan.builder().ops(0).build()).hasMessage("ops must be a positive number, was 0");
        assertThatThrownBy(() -> RunPlan.builder().ops(-5).build()).hasMessageContaining("-5");
        assertThatThrownBy(() -> RunPlan.builder().warmupOps(-1).build()).hasMessageContaining("warm-up");
        assertThatThrownBy(() -> RunPlan.builder().threads(0).build()).hasMessageContaining("threads");
        assertThatThrownBy(() -> RunPlan.builder().timebox(Duration.ZERO).build()).hasMessageContaining("time box");
    }
}
