package io.cpbench.bench.results;

import io.cpbench.core.status.Status;

/**
 * One run's results as read from its directory, whatever kind of run wrote them: its one verdict, the run the results
 * history keeps of it, and its section of an HTML report. Each kind of result is one class ({@link ResultKinds} lists
 * them), so the history and the report ask the run, not its kind.
 */
public interface ResultKind {

    /** The run's one verdict: the status its exit code was. */
    Status status();

    /** Why {@link #status} is not OK, in one line; null when it is OK or nothing says. */
    String why();

    /**
     * The run as the results history keeps it, with a row per scenario (or op, cell, side) and round.
     *
     * @param kind the run kind to record, or null for the one its directory's name or files say
     */
    HistoryRun history(String kind);

    /**
     * Adds the run's own part to its report section: its kind, tables, charts, notes and checks. The run's one verdict
     * ({@link #status}) is already the section's first check.
     */
    void report(Section section);
}
