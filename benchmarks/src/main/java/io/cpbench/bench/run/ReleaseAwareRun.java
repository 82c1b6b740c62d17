package io.cpbench.bench.run;

import io.cpbench.bench.service.RunContext;
import io.cpbench.core.result.RunResult;

import java.io.PrintStream;
import java.util.List;

/**
 * A run of scenario results (matrix, run, load) that runs on one cluster, or across Hazelcast releases instead
 * ({@code --hazelcast-version A,B}, {@link ReleaseAxisRun}): what the two share, so that each says only what runs on a
 * release's cluster.
 */
abstract class ReleaseAwareRun extends ResultRun {

    private volatile ReleaseAxisRun axis;

    ReleaseAwareRun(PrintStream console) {
        super(console);
    }

    /** Runs across the releases of {@code across}, {@code harness} on each round's clusters (the service owns them). */
    final void runAcross(ReleaseAxisRun.Config across, ReleaseAxisRun.Harness harness, RunContext context) {
        ReleaseAxisRun run = new ReleaseAxisRun(across, harness, console);
        axis = run;
        stops.running(run::stop);
        run.run(context);
    }

    /** The run across releases, or null for a run on one cluster. */
    final ReleaseAxisRun axis() {
        return axis;
    }

    /** Every result: of every release with a version axis, else this run's own. */
    final List<RunResult> allResults() {
        ReleaseAxisRun across = axis;
        return across != null ? across.results() : results();
    }

    /** Stops the version axis's clusters that are up; any thread, more than once. */
    public void close() {
        ReleaseAxisRun across = axis;
        if (across != null) {
            across.closeClusters();
        }
    }
}
