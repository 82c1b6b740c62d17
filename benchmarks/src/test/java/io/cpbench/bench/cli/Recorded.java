package io.cpbench.bench.cli;

import io.cpbench.bench.results.HistoryRun;
import io.cpbench.bench.history.HistoryStore;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The run an IT's CLI process recorded in the results history as it ended: the ITs' processes record into the store
 * that failsafe names in {@code CPBENCH_HISTORY} (target/it-history.db), as a user's runs record into theirs.
 */
final class Recorded {

    private Recorded() {
    }

    /** The history's record of the run in {@code runDir}, read back from the store; it must be there. */
    static HistoryRun run(Path runDir, String output) {
        String store = System.getenv("CPBENCH_HISTORY");
        assumeTrue(store != null, "CPBENCH_HISTORY names the store the ITs' runs record in (failsafe sets it)");
        assertThat(output).contains("history: recorded run ");
        String dir = runDir.toAbsolutePath().normalize().toString();
        try (HistoryStore history = HistoryStore.open(store)) {
            return history.runs(Integer.MAX_VALUE).stream().filter(r -> dir.equals(r.directory())).findFirst()
                    .map(r -> history.run(r.id())).orElseThrow(() -> new AssertionError("no run of " + dir + " in " + store));
        }
    }
}
