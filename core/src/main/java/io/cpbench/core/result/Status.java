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
