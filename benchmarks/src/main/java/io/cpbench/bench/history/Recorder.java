package io.cpbench.bench.history;

import io.cpbench.bench.results.HistoryRun;
import io.cpbench.core.status.Status;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Records a run in the history as it ends: its run directory's results, with the run's kind, labels and options. A
 * run never fails for it: a store that cannot be written gets one line, and {@code cpbench history import} adds the
 * run later.
 *
 * <p>A run {@link #begin begins} its recording as it starts: the store is readied (SQLite's native library loaded, the
 * schema checked or migrated, a PostgreSQL server reached) and the result reader too, on a background thread while the
 * cluster starts, so that what the run waits for at its end is opening the store, reading its results and one
 * transaction.
 *
 * @param store   where ({@link HistoryStore#open}); null when recording is off ({@code --no-history})
 * @param labels  {@code --label key=value}s
 * @param options the command line that started the run
 */
public record Recorder(String store, Map<String, String> labels, String options) {

    /** Recording off. */
    public static final Recorder OFF = new Recorder(null, Map.of(), null);

    /** The most a run's end waits for its store to open: PostgreSQL's connect timeout and then some. */
    private static final long OPEN_WAIT_S = 30;

    public Recorder {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /**
     * Readies the store in the background: opens it once (SQLite's native library loaded, the schema checked or
     * migrated, a PostgreSQL server reached) and closes it again, and readies the result reader; {@link Pending#record}
     * at the run's end then opens it anew, which costs milliseconds. The store is not held open through the run: a
     * connection held for an hour-long run may be gone at its end (a PostgreSQL server's idle timeout, a firewall).
     */
    public Pending begin() {
        return new Pending(this, store == null ? null : CompletableFuture.runAsync(() -> {
            HistoryStore.open(store).close();
            io.cpbench.core.result.ResultFiles.prepare(); // the result reader's first use costs ~0.2 s: not at the end
        }));
    }

    /** Opens the store and records the run in {@code runDir} at once: {@link #begin} and {@link Pending#record}. */
    public void record(Path runDir, String kind, boolean interrupted, PrintStream console) {
        begin().record(runDir, kind, interrupted, console);
    }

    /** A recording begun: the store being readied, or ready. */
    public static final class Pending {

        private final Recorder recorder;
        private final CompletableFuture<Void> readying;

        private Pending(Recorder recorder, CompletableFuture<Void> readying) {
            this.recorder = recorder;
            this.readying = readying;
        }

        /**
         * Records the run in {@code runDir}, if it wrote results; says so on {@code console}, with what it added to the
         * run's end.
         *
         * @param interrupted whether it was stopped (its run is then INCOMPLETE at best)
         */
        public void record(Path runDir, String kind, boolean interrupted, PrintStream console) {
            if (readying == null || !RunImport.isRun(runDir)) {
                return;
            }
            long start = System.nanoTime();
            try {
                ready();
                HistoryRun run = RunImport.read(runDir, kind);
                Status status = interrupted ? Status.worse(run.status(), Status.INCOMPLETE) : run.status();
                run = run.with(recorder.labels(), recorder.options(), status);
                try (HistoryStore history = HistoryStore.open(recorder.store())) {
                    boolean added = history.add(run);
                    console.printf(Locale.ROOT, "history: %s run %s (%s, %d rows) in %s, %d ms%n", added ? "recorded" : "already had",
                            History.shortId(run.id()), run.status(), run.rows().size(), history.shown(),
                            (System.nanoTime() - start) / 1_000_000);
                }
            } catch (RuntimeException e) {
                console.printf(Locale.ROOT, "history: not recorded (%s); its results are in %s, and 'cpbench history import"
                        + " %s' adds them later%n", e.getMessage(), runDir, runDir);
            }
        }

        /** Whether the background readying has ended (well or not): for tests that wait for that state. */
        boolean readied() {
            return readying == null || readying.isDone();
        }

        /** Waits for the readying; its failure is the store's problem, said as the run ends. */
        private void ready() {
            try {
                readying.get(OPEN_WAIT_S, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } catch (TimeoutException e) {
                throw new IllegalStateException("the store did not open within " + OPEN_WAIT_S + " s");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the store opened");
            }
        }
    }
}
