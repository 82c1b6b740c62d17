package io.cpbench.bench.suite;

import io.cpbench.core.load.LoadSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The warm-up round's plan, from each shape of scenario plan the CLI makes. */
class WarmupPlanTest {

    /** --quick's plan measures for a time (a flat one-stage schedule), which the warm-up's own length replaces. */
    @Test
    void aTimedPlanIsMeasuredForTheWarmUpsLengthWithoutAWarmUpOfItsOwn() {
        LoadSpec quick = LoadSpec.scenario().warmup(Duration.ofSeconds(2)).duration(Duration.ofSeconds(8))
                .timebox(Duration.ofSeconds(45)).build();
        assertThat(quick.measuredFor()).isEqualTo(Duration.ofSeconds(8));

        LoadSpec warm = ScenarioRunner.warmupPlan(quick, Duration.ofSeconds(5));

        assertThat(warm.measuredFor()).isEqualTo(Duration.ofSeconds(5));
        assertThat(warm.warmup()).isZero();
        assertThat(warm.bounds().warmupOps()).isZero();
        assertThat(warm.bounds().timebox()).isEqualTo(Duration.ofSeconds(15));
        assertThat(warm.mix()).isEqualTo(quick.mix());
        assertThat(warm.workers()).isEqualTo(quick.workers());
    }

    /** The default plan counts ops (500,000 after 10 s): the warm-up round measures for a time instead. */
    @Test
    void anOpCountPlanIsMeasuredForTheWarmUpsLengthInstead() {
        LoadSpec counted = LoadSpec.scenario().build();
        assertThat(counted.bounds().ops()).isEqualTo(LoadSpec.SEED_OPS);

        LoadSpec warm = ScenarioRunner.warmupPlan(counted, Duration.ofMillis(500));

        assertThat(warm.bounds().ops()).isZero();
        assertThat(warm.measuredFor()).isEqualTo(Duration.ofMillis(500));
        assertThat(warm.warmup()).isZero();
        assertThat(warm.bounds().timebox()).isEqualTo(Duration.ofMillis(10_500));
    }
}
