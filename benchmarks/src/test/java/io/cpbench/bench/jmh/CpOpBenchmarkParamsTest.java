package io.cpbench.bench.jmh;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** JMH's @Param list must be the suite's catalogue, name for name and in order: a plain JMH run covers every scenario. */
class CpOpBenchmarkParamsTest {

    @Test
    void theParamListIsTheScenarioCatalogue() throws NoSuchFieldException {
        Param param = CpOpBenchmark.class.getField("scenario").getAnnotation(Param.class);

        assertThat(param).isNotNull();
        assertThat(List.of(param.value())).containsExactlyElementsOf(Scenarios.all().stream().map(Scenario::name).toList());
    }
}
