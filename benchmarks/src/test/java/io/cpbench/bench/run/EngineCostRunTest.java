package io.cpbench.bench.run;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What engine-cost reports from its pairs, and the settings it refuses, without a cluster. */
class EngineCostRunTest {

    @Test
    void aRowPerThreadCountWithTheMedianRatioAndTheReferenceBesideIt() {
        Map<Integer, List<double[]>> measured = new LinkedHashMap<>();
        measured.put(4, List.of(new double[]{3000, 2900}, new double[]{3100, 3100}, new double[]{2900, 2610}));
        measured.put(3, List.of(new double[]{2000, 2000}, new double[]{2000, 1900}));
        measured.put(16, List.of());

        String table = EngineCostRun.table(measured);

        // ratios 0.967, 1.000, 0.900: median 0.967; the engine's median op/s 2,900 against the reference 3,165
        assertThat(table).containsPattern("\\|\\s+4 \\|\\s+3 \\|\\s+3,000 \\|\\s+2,900 \\|\\s+0\\.967 \\[0\\.900-1\\.000\\]\\s+\\|\\s+3,165 \\|\\s+0\\.92 \\|");
        assertThat(table).as("no reference for 3 threads").containsPattern("\\|\\s+3 \\|\\s+2 \\|.*\\|\\s+- \\|\\s+- \\|");
        assertThat(table).as("a thread count with no pair has no row").doesNotContainPattern("\\|\\s+16 \\|");
    }

    @Test
    void settingsOutOfRangeNameTheOption() {
        Duration s = Duration.ofSeconds(1);
        assertThatThrownBy(() -> new EngineCostRun.Config(List.of(1), 1, s, s, s, null)).hasMessage("--pairs must be 2-50, was 1");
        assertThatThrownBy(() -> new EngineCostRun.Config(List.of(1, 2000), 2, s, s, s, null))
                .hasMessage("--threads must each be 1-1024, was 2000");
        assertThat(new EngineCostRun.Config(List.of(1, 4), 3, Duration.ofSeconds(10), Duration.ofSeconds(3), s, null).estimateSeconds())
                .as("(10 + 3 + 1) s x 2 sides x 3 pairs x 2 thread counts").isEqualTo(168);
    }
}
