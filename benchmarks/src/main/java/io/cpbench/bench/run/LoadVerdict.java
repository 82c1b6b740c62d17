package io.cpbench.bench.run;

import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.status.Status;

/**
 * What a load run on a cluster comes to, as a result's status: FAIL when an invariant was violated or the run
 * failed, INCOMPLETE when it did not run to its end (stopped), ABORTED when a threshold stopped it, BREACHED when it
 * ran to its end (or its time box) but a threshold was crossed (the exit code, 99, is this status's), TIMEBOXED when
 * its time box ended it ({@link Status#of}, as a scenario run's), UNSTABLE when
 * leadership or routing moved under it or its load generators did not run side by side ({@link LoadResult#unsteady}),
 * else OK.
 *
 * @param reason why, when not OK
 */
public record LoadVerdict(Status status, String reason) {

    public static LoadVerdict of(LoadResult load, ScenarioSession.Report report) {
        if (!load.invariantsHold()) {
            return new LoadVerdict(Status.FAIL, "invariant violated: " + load.invariants().stream().filter(i -> !i.holds())
                    .map(i -> i.name() + ": " + i.evidence()).findFirst().orElse(""));
        }
        java.util.List<String> problems = new java.util.ArrayList<>(report.problems());
        problems.addAll(load.caveats().unsteady());
        Status status = Status.of(load.outcome(), !problems.isEmpty());
        java.util.List<String> why = new java.util.ArrayList<>();
        if (load.outcome() != Status.OK && load.reason() != null) {
            why.add(load.reason());
        }
        if (status == Status.UNSTABLE) {
            why.addAll(problems);
        }
        if (status.usable() && !load.thresholdsPassed()) {
            status = Status.BREACHED;
            why.add(0, crossed(load));
        }
        return new LoadVerdict(status, why.isEmpty() ? null : String.join("; ", why));
    }

    /**
     * The load's own verdict when it ran with no cluster (engine alone): how it ended, BREACHED when it ran to its end
     * and a threshold was crossed; FAIL when there is no load (it broke).
     */
    public static Status ofEngineAlone(LoadResult load) {
        if (load == null) {
            return Status.FAIL;
        }
        Status ending = Status.of(load.outcome(), false);
        return ending.usable() && !load.thresholdsPassed() ? Status.BREACHED : ending;
    }

    private static String crossed(LoadResult load) {
        return "threshold crossed: " + String.join(", ", load.crossedThresholds());
    }
}
