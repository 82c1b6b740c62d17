package io.cpbench.bench.cli;

import io.cpbench.bench.run.EmulatorCostRun;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What emulator-cost reports from its pairs: each pair's ratio, and their median with its bootstrap CI. */
class EmulatorCostTableTest {

    static final RunResult LEADER = UntilCiTest.LEADER;

    static RunResult at(double opsPerSecond, Status status) {
        RunResult r = UntilCiTest.at(LEADER, 1, opsPerSecond);
        return status == Status.OK ? r : ExitCodesTest.with(r, status, "why");
    }

    @Test
    void pairsAreRatiosAndTheSummaryIsTheirMedianWithItsInterval() {
        List<EmulatorCostRun.Pair> pairs = new ArrayList<>();
        double[] ratios = {0.80, 0.90, 0.85, 0.70, 0.95};
        for (int i = 0; i < ratios.length; i++) {
            pairs.add(new EmulatorCostRun.Pair(i + 1, at(1000, Status.OK), at(1000 * ratios[i], Status.OK)));
        }

        String table = EmulatorCostRun.table(Scenarios.byName("client-leader"), pairs, false);

        assertThat(table).containsPattern("\\| 4 +\\| 1,000 +\\| 700 +\\| 0\\.700 +\\|");
        assertThat(table).contains("emulated ÷ direct op/s: median 0.850, 95% CI 0.");
        assertThat(table).contains("(5 pairs)").doesNotContain("INCOMPLETE");
    }

    @Test
    void aPairWithAFailedSideIsShownButLeftOutOfTheSummary() {
        List<EmulatorCostRun.Pair> pairs = List.of(
                new EmulatorCostRun.Pair(1, at(1000, Status.OK), at(800, Status.OK)),
                new EmulatorCostRun.Pair(2, at(1000, Status.OK), at(500, Status.FAIL)),
                new EmulatorCostRun.Pair(3, at(1000, Status.OK), at(900, Status.OK)),
                new EmulatorCostRun.Pair(4, at(1000, Status.OK), null));

        String table = EmulatorCostRun.table(Scenarios.byName("client-leader"), pairs, true);

        assertThat(table).containsPattern("\\| 2 +\\| OK 1,000 +\\| FAIL 500 +\\| - +\\|")
                .containsPattern("\\| 4 +\\| OK 1,000 +\\| not run \\(or interrupted\\) +\\| - +\\|");
        assertThat(table).contains("median 0.850").contains("(2 pairs)").contains("INCOMPLETE: interrupted after 4 pair(s).");
    }

    @Test
    void onlyAllPairsMeasuredExitsZero() {
        EmulatorCostRun.Pair good = new EmulatorCostRun.Pair(1, at(1000, Status.OK), at(800, Status.OK));
        EmulatorCostRun.Pair timeboxed = new EmulatorCostRun.Pair(2, at(1000, Status.OK), at(800, Status.TIMEBOXED));

        assertThat(ExitCodes.of(EmulatorCostRun.status(List.of(good, good)), false, false)).isEqualTo(ExitCodes.OK);
        assertThat(ExitCodes.of(EmulatorCostRun.status(List.of(good, timeboxed)), false, false)).isEqualTo(ExitCodes.FAILED);
        assertThat(ExitCodes.of(EmulatorCostRun.status(List.of()), false, false)).isEqualTo(ExitCodes.FAILED);
        assertThat(ExitCodes.of(EmulatorCostRun.status(List.of(good, good)), true, false)).isEqualTo(ExitCodes.INTERRUPTED);
    }
}
