package io.cpbench.bench.run;

import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.result.Status;

/**
 * What a load run on a cluster comes to, as a result's status: FAIL when an invariant was violated or the run
 * failed, INCOMPLETE when it did not run to its end (stopped, aborted by a threshold, or time-boxed), UNSTABLE when
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
        return switch (load.outcome()) {
            case FAILED -> new LoadVerdict(Status.FAIL, load.reason());
            case INTERRUPTED, ABORTED, TIMEBOXED -> new LoadVerdict(Status.INCOMPLETE, load.reason());
            case COMPLETED -> {
                java.util.List<String> problems = new java.util.ArrayList<>(report.problems());
                problems.addAll(load.unsteady());
                yield problems.isEmpty() ? new LoadVerdict(Status.OK, null)
                        : new LoadVerdict(Status.UNSTABLE, String.join("; ", problems));
            }
        };
    }
}
