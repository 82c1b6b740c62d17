package io.cpbench.core.run;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunPlanTest {

    @Test
    void defaultsAreTheSeeds() {
        RunPlan seed = RunPlan.seed();
        assertThat(seed.warmup()).isEqualTo(Duration.ofSeconds(10));
        assertThat(seed.warmupOps()).isZero();
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
        assertThatThrownBy(() -> RunPlan.builder().warmup(Duration.ofSeconds(-1)).build()).hasMessageContaining("warm-up");
    }

    @Test
    void aWarmupIsATimeOrAnOpCountNeverBoth() {
        RunPlan ops = RunPlan.builder().warmup(Duration.ofSeconds(3)).warmupOps(500).build();
        assertThat(ops.warmupOps()).isEqualTo(500);
        assertThat(ops.warmup()).isZero();
        assertThat(ops.warmupText()).isEqualTo("500 ops");
        RunPlan time = ops.toBuilder().warmup(Duration.ofSeconds(3)).build();
        assertThat(time.warmupOps()).isZero();
        assertThat(time.warmupText()).isEqualTo("3s");
        assertThat(time.toBuilder().build()).isEqualTo(time);
        assertThatThrownBy(() -> new RunPlan(Duration.ofSeconds(1), 5, 10, null, Duration.ofMinutes(1), 1, Duration.ofSeconds(1)))
                .hasMessageContaining("not both");
    }
}
