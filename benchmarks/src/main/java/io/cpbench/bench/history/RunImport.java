package io.cpbench.bench.history;

import io.cpbench.bench.results.HistoryRun;
import io.cpbench.bench.results.ResultKinds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds run directories and reads each into a {@link HistoryRun}, whatever kind of run wrote it ({@link ResultKinds}:
 * result files, a sweep's, a chaos run's or an ab run's document). Nothing here writes.
 */
public final class RunImport {

    /** How deep {@link #find} looks for run directories. */
    private static final int MAX_DEPTH = 6;

    private RunImport() {
    }

    /** Whether {@code dir} holds a run of any kind. */
    public static boolean isRun(Path dir) {
        return ResultKinds.holdsRun(dir);
    }

    /** Every directory under {@code root} (itself included) that holds a run ({@link #isRun}), in name order. */
    public static List<Path> find(Path root) {
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException(root + ": no such directory");
        }
        try (Stream<Path> dirs = Files.walk(root, MAX_DEPTH)) {
            return dirs.filter(RunImport::isRun).sorted().toList();
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalArgumentException(root + ": cannot read: " + e.getMessage());
        }
    }

    /**
     * The run whose results are in {@code dir}.
     *
     * @param kind the run kind, or null to take it from the directory's name or its results
     * @throws io.cpbench.core.result.ResultFormatException (one line) when a result file cannot be read
     */
    public static HistoryRun read(Path dir, String kind) {
        return ResultKinds.read(dir).history(kind);
    }
}
