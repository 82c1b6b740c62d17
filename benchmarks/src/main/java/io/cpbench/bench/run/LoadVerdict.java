package io.cpbench.bench.run;

import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.status.Status;

/**
 * What a load run on a cluster comes to, as a result's status: FAIL when an invariant was violated or the run
 * failed, INCOMPLETE when it did not run to its end (stopped, or aborted by a threshold), TIMEBOXED when its time box
 * ended it ({@link Status#of}, as a scenario run's), UNSTABLE when
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
        problems.addAll(load.unsteady());
        Status status = Status.of(load.outcome(), !problems.isEmpty());
        java.util.List<String> why = new java.util.ArrayList<>();
        if (load.outcome() != Status.OK && load.reason() != null) {
            why.add(load.reason());
        }
        if (status == Status.UNSTABLE) {
            why.addAll(problems);
        }
        return new LoadVerdict(status, why.isEmpty() ? null : String.join("; ", why));
    }
}
