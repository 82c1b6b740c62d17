package io.cpbench.bench.cli;

import io.cpbench.bench.history.Recorder;
import io.cpbench.bench.service.RunService;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --out DIR}: where a command creates its run directory, and where the run is recorded as it ends
 * ({@code --history}, {@code --no-history}, {@code --label}): the same in every command that writes one.
 */
final class OutOption {

    /** The command line of this process's command, for the history's record of a run. */
    static volatile String commandLine;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/runs",
            description = "Where the run directory is created (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--history", paramLabel = "PATH|JDBC-URL", defaultValue = "${env:CPBENCH_HISTORY:-results/history.db}",
            description = "The results history each run is recorded in as it ends: a SQLite file, or a JDBC URL such as"
                    + " jdbc:postgresql://host/db?user=me (its password from PGPASSWORD or ~/.pgpass, never the URL)"
                    + " (default: results/history.db, or CPBENCH_HISTORY when set). See docs/history.md.")
    String history;

    @Option(names = "--no-history", description = "Do not record the run in the results history.")
    boolean noHistory;

    @Option(names = "--label", paramLabel = "KEY=VALUE",
            description = "A label the history keeps with the run, to tell series apart (env=lab, branch=main); repeatable.")
    Map<String, String> labels = new LinkedHashMap<>();

    /** Runs into {@link #dir}, recorded as the history options say. */
    RunService.Setup setup() {
        return RunService.Setup.into(dir).withHistory(recorder());
    }

    Recorder recorder() {
        Labels.check(labels);
        return noHistory ? Recorder.OFF : new Recorder(history, labels, commandLine);
    }

    /** The rule for labels, checked before anything runs. */
    static final class Labels {
        private Labels() {
        }

        static void check(Map<String, String> labels) {
            labels.forEach((k, v) -> {
                if (!k.matches("[A-Za-z0-9_.-]{1,64}") || v == null || !v.matches("[A-Za-z0-9_.:/@+-]{1,255}")) {
                    throw new IllegalArgumentException("--label " + k + "=" + v + ": a key is 1-64 letters, digits, '_',"
                            + " '.' or '-', and a value 1-255 of those or ':', '/', '@', '+'");
                }
            });
        }
    }
}
