package io.cpbench.bench.service;

import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.Status;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * cp-bench's exit codes, the same for every command, defined here once: {@code --help} and docs/cli.md list them
 * from {@link #HELP}.
 */
public final class ExitCodes {

    /** Everything ran and every result is OK (or, without {@code --strict}, UNSTABLE/TIMEBOXED). */
    public static final int OK = 0;
    /** A run FAILed, a check failed, or the cluster could not be started or reached. */
    public static final int FAILED = 1;
    /** Bad input: an option, a file or an address that cannot work. Nothing was started. */
    public static final int BAD_INPUT = 2;
    /** {@code --strict}: some results are UNSTABLE or TIMEBOXED. */
    public static final int NOT_CLEAN = 3;
    /**
     * {@code chaos} and {@code lincheck}: a linearizability verdict is unknown (the check ran over its budget). It
     * shares 3 with {@link #NOT_CLEAN} on purpose: the run ended and nothing failed, but a result cannot be called
     * clean; {@link #worse} ranks them alike.
     */
    public static final int UNKNOWN = 3;
    /** Reserved for load runs whose thresholds were crossed. */
    public static final int THRESHOLDS = 99;
    /** Interrupted (Ctrl-C); what was measured is kept, marked INCOMPLETE. SIGTERM ends with the JVM's 143. */
    public static final int INTERRUPTED = 130;

    public static final Map<String, String> HELP = help();

    private ExitCodes() {
    }

    private static Map<String, String> help() {
        Map<String, String> codes = new LinkedHashMap<>();
        codes.put(" " + OK, "done; every result OK (UNSTABLE and TIMEBOXED too, unless --strict)");
        codes.put(" " + FAILED, "a run FAILed or a check failed (compare, ab: a regression), or the cluster could not be"
                + " started or reached, or a load agent was lost mid-run");
        codes.put(" " + BAD_INPUT, "bad input (options, files, addresses); nothing was started");
        codes.put(" " + NOT_CLEAN, "with --strict: some results are UNSTABLE or TIMEBOXED");
        codes.put(String.valueOf(THRESHOLDS), "a threshold was crossed (load runs)");
        codes.put(String.valueOf(INTERRUPTED), "interrupted (Ctrl-C); what was measured is kept, INCOMPLETE");
        return codes;
    }

    /**
     * The worse of two runs' exit codes, for a command that runs several in turn: interrupted, then failed, then a
     * threshold crossed, then not clean or unknown (3), then OK.
     */
    public static int worse(int a, int b) {
        return rank(a) >= rank(b) ? a : b;
    }

    private static int rank(int code) {
        return switch (code) {
            case INTERRUPTED -> 5;
            case FAILED -> 4;
            case BAD_INPUT -> 3;
            case THRESHOLDS -> 2;
            case NOT_CLEAN -> 1;
            default -> 0;
        };
    }

    /** The exit code for a finished run's results. */
    public static int of(List<RunResult> results, boolean interrupted, boolean strict) {
        if (interrupted) {
            return INTERRUPTED;
        }
        if (results.stream().anyMatch(r -> r.status() == Status.FAIL)) {
            return FAILED;
        }
        if (strict && results.stream().anyMatch(r -> r.status() == Status.UNSTABLE || r.status() == Status.TIMEBOXED)) {
            return NOT_CLEAN;
        }
        return OK;
    }

    /** The exit code of a load run: 130 interrupted, 1 a run FAILed (an invariant broke), 99 a threshold failed, else 0. */
    public static int ofLoad(List<RunResult> results, boolean interrupted) {
        int code = of(results, interrupted, false);
        if (code == OK && results.stream().anyMatch(r -> r.load() != null
                && r.load().agents().stream().anyMatch(a -> a.outcome() == null))) {
            return FAILED; // an agent was lost: the run is INCOMPLETE, the others' numbers kept
        }
        if (code == OK && results.stream().anyMatch(r -> r.load() != null && !r.load().thresholdsPassed())) {
            return THRESHOLDS;
        }
        return code;
    }
}
