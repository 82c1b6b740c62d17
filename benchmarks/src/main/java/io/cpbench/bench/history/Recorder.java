package io.cpbench.bench.history;

import io.cpbench.core.status.Status;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Records a run in the history as it ends: its run directory's results, with the run's kind, labels and options. A
 * run never fails for it: a store that cannot be written gets one line, and {@code cpbench history import} adds the
 * run later.
 *
 * @param store   where ({@link HistoryStore#open}); null when recording is off ({@code --no-history})
 * @param labels  {@code --label key=value}s
 * @param options the command line that started the run
 */
public record Recorder(String store, Map<String, String> labels, String options) {

    /** Recording off. */
    public static final Recorder OFF = new Recorder(null, Map.of(), null);

    public Recorder {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /**
     * Records the run in {@code runDir}, if it wrote results; says so on {@code console}.
     *
     * @param interrupted whether it was stopped (its run is then INCOMPLETE at best)
     */
    public void record(Path runDir, String kind, boolean interrupted, PrintStream console) {
        if (store == null || !RunImport.isRun(runDir)) {
            return;
        }
        long start = System.nanoTime();
        try (HistoryStore history = HistoryStore.open(store)) {
            HistoryRun run = RunImport.read(runDir, kind);
            Status status = interrupted ? Status.worse(run.status(), Status.INCOMPLETE) : run.status();
            run = run.with(labels, options, status);
            boolean added = history.add(run);
            console.printf(Locale.ROOT, "history: %s run %s (%s, %d rows) in %s, %d ms%n", added ? "recorded" : "already had",
                    History.shortId(run.id()), run.status(), run.rows().size(), history.shown(),
                    (System.nanoTime() - start) / 1_000_000);
        } catch (RuntimeException e) {
            console.printf(Locale.ROOT, "history: not recorded (%s); its results are in %s, and 'cpbench history import"
                    + " %s' adds them later%n", e.getMessage(), runDir, runDir);
        }
    }
}
