package io.cpbench.bench.run;

import io.cpbench.bench.jmh.JmhResults;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The harness-cost line under a jmh run's table (also the one {@code jmh --fold} prints). */
class HarnessCostLineTest {

    @Test
    void givesJmhsErrorWhenThereIsOne() {
        assertThat(JmhRun.harnessCostLine(new JmhResults.HarnessCostFigure(412.4, 18.6), List.of()))
                .isEqualTo("Harness cost (HarnessCost: cp-bench's driver around a no-op): 412 ± 19 ns/op; "
                        + "no SampleTime p50 in this run to compare it with");
    }

    @Test
    void saysThereIsNoErrorBarAfterOneIterationInsteadOfPrintingNaN() {
        // JMH's scoreError for a single measurement iteration is NaN
        assertThat(JmhRun.harnessCostLine(new JmhResults.HarnessCostFigure(412.4, Double.NaN), List.of()))
                .isEqualTo("Harness cost (HarnessCost: cp-bench's driver around a no-op): 412 ns/op (one iteration: "
                        + "no error bar); no SampleTime p50 in this run to compare it with")
                .doesNotContain("NaN");
    }
}
