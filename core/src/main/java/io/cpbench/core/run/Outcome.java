package io.cpbench.core.run;

/** How a driver run ended. */
public enum Outcome {
    /** Every op asked for ran, or the duration ran out. */
    COMPLETED,
    /** The time box ended the run first; what was measured until then stands. */
    TIMEBOXED,
    /** Stopped from outside (Ctrl-C); what was measured until then stands. */
    INTERRUPTED,
    /** Ops kept failing; the run was abandoned. */
    FAILED
}
