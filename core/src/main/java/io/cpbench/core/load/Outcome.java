package io.cpbench.core.load;

/**
 * How a run on the load engine ended: a scenario run's ({@code Measurement}) and a load run's ({@code LoadResult}).
 * Written to result files by name.
 */
public enum Outcome {
    /** Every op asked for ran, or the duration ran out. */
    COMPLETED,
    /** The time box ended the run first; what was measured until then stands. */
    TIMEBOXED,
    /** Stopped from outside (Ctrl-C); what was measured until then stands. */
    INTERRUPTED,
    /** Ops kept failing; the run was abandoned. */
    FAILED,
    /** A threshold was crossed and the load asked to abort on that; what was measured until then stands. */
    ABORTED
}
