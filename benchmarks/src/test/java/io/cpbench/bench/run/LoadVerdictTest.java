package io.cpbench.bench.run;

import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadResultBuilder;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A load result's one status: a crossed threshold is BREACHED (exit 99), below a failure and above an unsteady run. */
class LoadVerdictTest {

    static final LoadResult.ThresholdResult CROSSED = new LoadResult.ThresholdResult("cas:p99<1ms", false, "8.76ms");
    static final LoadResult.ThresholdResult HELD = new LoadResult.ThresholdResult("get:p50<5ms", true, "0.9ms");
    static final LoadResult.InvariantResult BROKEN = new LoadResult.InvariantResult("counter", false, "1 lost");

    static LoadResult load(Status outcome, List<LoadResult.ThresholdResult> thresholds,
                           List<LoadResult.InvariantResult> invariants, List<String> unsteady) {
        return LoadResultBuilder.builder().outcome(outcome).reason(outcome == Status.OK ? null : "why " + outcome)
                .thresholds(thresholds).invariants(invariants)
                .caveats(new LoadResult.Caveats(unsteady, null)).build();
    }

    static ScenarioSession.Report report(List<String> problems) {
        return new ScenarioSession.Report("client-leader", "a", null, null, null, problems, null, null);
    }

    @Test
    void aCrossedThresholdIsBreachedWithWhatWasSeen() {
        LoadVerdict v = LoadVerdict.of(load(Status.OK, List.of(HELD, CROSSED), List.of(), List.of()), report(List.of()));
        assertThat(v).isEqualTo(new LoadVerdict(Status.BREACHED, "threshold crossed: cas:p99<1ms (was 8.76ms)"));
        assertThat(v.status().exitCode(false)).isEqualTo(99);
        assertThat(v.status().usable()).as("its numbers stand").isTrue();
        assertThat(LoadVerdict.of(load(Status.OK, List.of(HELD), List.of(), List.of()), report(List.of())))
                .isEqualTo(new LoadVerdict(Status.OK, null));
    }

    @Test
    void breachedOutranksUnsteadyAndTimeboxedButNotAFailureOrAnAbort() {
        LoadVerdict unsteady = LoadVerdict.of(load(Status.OK, List.of(CROSSED), List.of(), List.of("leader moved")),
                report(List.of()));
        assertThat(unsteady).isEqualTo(new LoadVerdict(Status.BREACHED, "threshold crossed: cas:p99<1ms (was 8.76ms); leader moved"));
        assertThat(LoadVerdict.of(load(Status.TIMEBOXED, List.of(CROSSED), List.of(), List.of()), report(List.of())).status())
                .isEqualTo(Status.BREACHED);
        assertThat(LoadVerdict.of(load(Status.ABORTED, List.of(CROSSED), List.of(), List.of()), report(List.of())).status())
                .isEqualTo(Status.ABORTED);
        assertThat(LoadVerdict.of(load(Status.INCOMPLETE, List.of(CROSSED), List.of(), List.of()), report(List.of())).status())
                .isEqualTo(Status.INCOMPLETE);
        assertThat(LoadVerdict.of(load(Status.OK, List.of(CROSSED), List.of(BROKEN), List.of()), report(List.of())).status())
                .isEqualTo(Status.FAIL);
    }

    @Test
    void theEngineAloneHasTheSameRule() {
        assertThat(LoadVerdict.ofEngineAlone(load(Status.OK, List.of(CROSSED), List.of(), List.of()))).isEqualTo(Status.BREACHED);
        assertThat(LoadVerdict.ofEngineAlone(load(Status.OK, List.of(HELD), List.of(), List.of()))).isEqualTo(Status.OK);
        assertThat(LoadVerdict.ofEngineAlone(load(Status.ABORTED, List.of(CROSSED), List.of(), List.of()))).isEqualTo(Status.ABORTED);
        assertThat(LoadVerdict.ofEngineAlone(null)).isEqualTo(Status.FAIL);
    }
}
