package io.cpbench.bench.service;

import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * cp-bench's exit codes, the same for every command, defined here once: {@code --help} and docs/cli.md list them
 * from {@link #HELP}.
 */
public final class ExitCodes {

    /** Everything ran and every result is OK (or, without {@code --strict}, UNSTABLE/TIMEBOXED). */
    public static final int OK = Status.OK.exitCode(false);
    /** A run FAILed, a check failed, or the cluster could not be started or reached. */
    public static final int FAILED = Status.FAIL.exitCode(false);
    /** Bad input: an option, a file or an address that cannot work. Nothing was started. */
    public static final int BAD_INPUT = 2;
    /** {@code --strict}: some results are UNSTABLE or TIMEBOXED. */
    public static final int NOT_CLEAN = Status.UNSTABLE.exitCode(true);
    /**
     * {@code chaos} and {@code lincheck}: a linearizability verdict is unknown (the check ran over its budget). It
     * shares 3 with {@link #NOT_CLEAN} on purpose: the run ended and nothing failed, but a result cannot be called
     * clean; {@link #worse} ranks them alike.
     */
    public static final int UNKNOWN = Status.UNKNOWN.exitCode(false);
    /** A threshold was crossed (a load or a sweep cell BREACHED or ABORTED). */
    public static final int THRESHOLDS = Status.ABORTED.exitCode(false);
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
     * The worse of two runs' exit codes, for a command that runs several in turn: interrupted first (Ctrl-C ends the
     * whole command), then in the order of the statuses the codes stand for ({@link Status#exitCode}): failed, a
     * threshold crossed, not clean or unknown (3), OK. Bad input ranks with failed.
     */
    public static int worse(int a, int b) {
        return rank(a) >= rank(b) ? a : b;
    }

    private static int rank(int code) {
        if (code == INTERRUPTED) {
            return Integer.MAX_VALUE;
        }
        if (code == BAD_INPUT) {
            return Status.FAIL.ordinal();
        }
        int rank = -1;
        for (Status s : Status.values()) {
            if (s.exitCode(true) == code) {
                rank = s.ordinal();
            }
        }
        return rank;
    }

    /**
     * The exit code for a finished run's results: 130 when interrupted, else the exit code of the worst status
     * ({@link Status#exitCode}).
     */
    public static int of(List<RunResult> results, boolean interrupted, boolean strict) {
        if (interrupted) {
            return INTERRUPTED;
        }
        Status worst = Status.worst(results.stream().map(RunResult::status).toList());
        return worst == null ? OK : worst.exitCode(strict);
    }

    /** A run kind's exit code: 130 when interrupted, else its status's ({@link Status#exitCode}); 1 for none. */
    public static int of(Status status, boolean interrupted, boolean strict) {
        if (interrupted) {
            return INTERRUPTED;
        }
        return status == null ? FAILED : status.exitCode(strict);
    }
}
