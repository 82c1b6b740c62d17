package io.cpbench.core.result;

/** The verdict on one scenario run, as shown in the table. */
public enum Status {
    /** Ran to the end; leadership held. */
    OK,
    /** Hit its time box; the op/s shown is what it measured until then. */
    TIMEBOXED,
    /** Leader or term changed during the run (or the client moved), so the numbers mix two situations. */
    UNSTABLE,
    /** Broke; the reason says why. */
    FAIL,
    /** Interrupted (Ctrl-C); what was measured until then is kept. */
    INCOMPLETE;

    /**
     * The one mapping from how a run ended to its status, for every run kind: FAILED is FAIL; ABORTED (a threshold
     * crossed with abort-on-fail) and INTERRUPTED are INCOMPLETE; TIMEBOXED stays TIMEBOXED, and COMPLETED is OK,
     * unless the run was unsteady (leadership or routing moved under it, or its load generators did not run side by
     * side): then UNSTABLE.
     */
    public static Status of(io.cpbench.core.load.Outcome outcome, boolean unstable) {
        return switch (outcome) {
            case FAILED -> FAIL;
            case ABORTED, INTERRUPTED -> INCOMPLETE;
            case TIMEBOXED -> unstable ? UNSTABLE : TIMEBOXED;
            case COMPLETED -> unstable ? UNSTABLE : OK;
        };
    }

    /** Counted in an analysis: measured to its end (or its time box), the numbers standing. */
    public boolean usable() {
        return this == OK || this == UNSTABLE || this == TIMEBOXED;
    }

    /** How bad, for picking the worst status of several rounds. */
    int severity() {
        return switch (this) {
            case OK -> 0;
            case TIMEBOXED -> 1;
            case UNSTABLE -> 2;
            case INCOMPLETE -> 3;
            case FAIL -> 4;
        };
    }
}
