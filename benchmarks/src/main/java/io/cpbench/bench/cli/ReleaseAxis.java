package io.cpbench.bench.cli;

import io.cpbench.bench.run.Interruption;
import io.cpbench.bench.run.ReleaseAxisRun;
import io.cpbench.bench.run.RunLines;
import io.cpbench.core.result.RunResult;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * How {@code matrix}, {@code run} and {@code load} run with a version axis ({@code --hazelcast-version 5.3.8,5.4.0}):
 * the rounds ({@link ReleaseAxisRun}), then, whatever happened (an end, Ctrl-C, a cluster that did not start), what
 * was measured written and the clusters stopped.
 */
final class ReleaseAxis {

    private ReleaseAxis() {
    }

    /**
     * Runs {@code run} into {@code runDir} and writes its summaries ({@code more} adds to each release's).
     *
     * @return whether the run was interrupted (Ctrl-C)
     */
    static boolean run(ReleaseAxisRun run, Path runDir, Duration progressEvery, String commandName, LiveOptions live,
                       BiConsumer<String, List<RunResult>> more) {
        Interruption interruption = new Interruption(run::stop, run::closeClusters);
        try {
            run.run(runDir, progressEvery);
        } finally {
            run.closeClusters();
            live.close();
            try {
                run.writeSummaries(runDir, commandName, more);
                String summary = RunLines.notOk(commandName, run.results());
                if (summary != null) {
                    System.err.println(summary);
                }
            } finally {
                interruption.written();
            }
        }
        return !interruption.disarm() || run.stopped();
    }
}
