package io.cpbench.core.status;

import com.fasterxml.jackson.annotation.JsonCreator;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * cp-bench's one status vocabulary: how a run, a load generator's share of one, a sweep's cell run, a chaos check or an
 * ab run ended. Every result type holds one; result files write it by name. The constants are declared from best to
 * worst, and that is the one severity order ({@link #worse}); {@link #exitCode} is the one mapping to exit codes.
 */
public enum Status {
    /** Ran to the end; leadership held; a check passed. */
    OK,
    /** Hit its time box; the op/s shown is what it measured until then. */
    TIMEBOXED,
    /** Leader or term changed during the run (or the client moved), so the numbers mix two situations. */
    UNSTABLE,
    /**
     * A check could not decide within its budget (a linearizability verdict that ran out of time), or a chaos run did
     * not inject every fault that came due (no member to aim it at); nothing failed.
     */
    UNKNOWN,
    /**
     * A threshold was crossed; the load ran to its end (it was not asked to abort on it) and what it measured stands.
     * The same exit code as ABORTED, 99.
     */
    BREACHED,
    /** A threshold was crossed and the load was asked to abort on that; what was measured until then stands. */
    ABORTED,
    /**
     * Stopped before its end: interrupted (Ctrl-C), or a load generator was lost; what was measured until then is
     * kept, and is not counted in an analysis.
     */
    INCOMPLETE,
    /** Broke (ops kept failing, an invariant or a check failed); the reason says why. */
    FAIL;

    /** 0: done. */
    static final int EXIT_OK = 0;
    /** 1: a run failed or a check failed. */
    static final int EXIT_FAILED = 1;
    /** 3: a result that cannot be called clean (UNKNOWN; UNSTABLE and TIMEBOXED under {@code --strict}). */
    static final int EXIT_NOT_CLEAN = 3;
    /** 99: a threshold was crossed. */
    static final int EXIT_THRESHOLDS = 99;

    /**
     * The exit code a command ends with when this is its worst result (and it was not interrupted: Ctrl-C ends every
     * command with 130 whatever its results). {@code strict}: UNSTABLE and TIMEBOXED count as not clean.
     */
    public int exitCode(boolean strict) {
        return switch (this) {
            case OK -> EXIT_OK;
            case TIMEBOXED, UNSTABLE -> strict ? EXIT_NOT_CLEAN : EXIT_OK;
            case UNKNOWN -> EXIT_NOT_CLEAN;
            case BREACHED, ABORTED -> EXIT_THRESHOLDS;
            case INCOMPLETE, FAIL -> EXIT_FAILED;
        };
    }

    /** The worse of two statuses (null counts as none). */
    public static Status worse(Status a, Status b) {
        if (a == null) {
            return b;
        }
        return b != null && b.ordinal() > a.ordinal() ? b : a;
    }

    /** The worst of several, or null for none. */
    public static Status worst(Collection<Status> statuses) {
        Status worst = null;
        for (Status s : statuses) {
            worst = worse(worst, s);
        }
        return worst;
    }

    /**
     * A run's status from how the load engine ended it: the same, except that a run that ended OK or TIMEBOXED while
     * it was unsteady (leadership or routing moved under it, or its load generators did not run side by side) is
     * UNSTABLE.
     */
    public static Status of(Status ending, boolean unstable) {
        return unstable && (ending == OK || ending == TIMEBOXED) ? UNSTABLE : ending;
    }

    /** Counted in an analysis: measured to its end (or its time box), the numbers standing. */
    public boolean usable() {
        return this == OK || this == UNSTABLE || this == TIMEBOXED || this == BREACHED;
    }

    /**
     * The words files written before there was one vocabulary used, and the status each reads as: a load's
     * {@code COMPLETED}, {@code INTERRUPTED} and {@code FAILED}, and a sweep's {@code COMPLETE}. The result schemas
     * accept them too.
     */
    public static final Map<String, Status> FORMER_WORDS = Map.of("COMPLETED", OK, "COMPLETE", OK,
            "INTERRUPTED", INCOMPLETE, "FAILED", FAIL);

    /**
     * Reads a status by name, or by one of the {@link #FORMER_WORDS}.
     *
     * @throws IllegalArgumentException naming the word when it is none of these
     */
    @JsonCreator
    public static Status read(String word) {
        String w = word == null ? "" : word.strip().toUpperCase(Locale.ROOT);
        Status former = FORMER_WORDS.get(w);
        if (former != null) {
            return former;
        }
        for (Status s : values()) {
            if (s.name().equals(w)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown status '" + word + "' (one of OK, TIMEBOXED, UNSTABLE, UNKNOWN,"
                + " BREACHED, ABORTED, INCOMPLETE, FAIL)");
    }
}
