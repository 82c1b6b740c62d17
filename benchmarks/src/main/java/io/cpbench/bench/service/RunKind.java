package io.cpbench.bench.service;

import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.core.status.Status;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * One kind of run (a matrix, a load, a sweep, a chaos run, ab, jmh, ...), as {@link RunService} runs it. The kind
 * says what it runs on and how; the service does the rest, the same way for every kind: the run directory, the
 * cluster's start with its progress, Ctrl-C, agents, writing what was measured (also after Ctrl-C or a failure),
 * the clean-up and the exit code.
 *
 * <p>The service calls, in order: {@link #announce}, (the cluster starts), {@link #run}, then always {@link #close}
 * and {@link #write}, then {@link #status}. On Ctrl-C a hook calls {@link #stop} from another thread, waits for
 * {@link #write} to end, then calls {@link #close}. See docs/architecture.md, "Add a run kind".
 */
public interface RunKind {

    /** Names the run directory ({@code <out>/<time>-<name>}), the live view and the lines that speak of the run. */
    String name();

    /**
     * What one of several runs of a command is about ({@code client-smart, on a fresh cluster}), printed above it
     * when a command runs more than one ({@link RunService#runEach}); null for nothing.
     */
    default String subject() {
        return null;
    }

    /**
     * The cluster the service starts (or reaches) before {@link #run} and stops after it; null when the run needs
     * none, or starts its own through {@link RunContext#start} (a sweep's cells, a release axis's rounds).
     */
    default ClusterChoice cluster() {
        return null;
    }

    /** Whether the service starts agents when {@code --agents} asks for them: only kinds that split a load do. */
    default boolean takesAgents() {
        return false;
    }

    /**
     * Prints what will run, before anything starts, ending with where the results go. Nothing has been made yet;
     * {@code runDir} is the directory the run will write.
     */
    void announce(PrintStream console, Path runDir);

    /**
     * Runs, writing each result into {@link RunContext#runDir()} as it ends. An exception here is an error, not an
     * interruption, unless {@link #stop()} was called first (what the stop cut short may throw): the service still
     * calls {@link #close} and {@link #write}, then lets an error go on.
     */
    void run(RunContext context) throws Exception;

    /** Ends the run early, from any thread (a Ctrl-C hook): what is in flight stops with what it measured. */
    void stop();

    /** Whether {@link #stop()} was called. */
    boolean stopped();

    /** What Ctrl-C prints first, on stderr: that what was measured is kept, for a run that measures. */
    default String interruptedLine() {
        return "interrupted; keeping what was measured ...";
    }

    /**
     * Stops what the run itself holds open (worker processes; faults in force are healed). Called on the main thread
     * after {@link #run}, and again from the Ctrl-C hook, so more than once; never throws. The clusters the service
     * started or was given ({@link RunContext#start}, {@link RunContext#own}) are stopped by the service after it.
     */
    default void close() {
    }

    /**
     * Writes what was measured and says on stderr what was not OK; called after {@link #run} ended, normally, by
     * Ctrl-C or by an error, once the clusters are stopped.
     */
    default void write(RunContext context) {
    }

    /**
     * The run's one verdict, once written: what its files, its run in the results history and its report say, and
     * (through {@link RunService}) its exit code: {@link Status#exitCode}, 130 once Ctrl-C ended the run, 1 when
     * there is none (the run broke before it was judged).
     */
    Status status();

    /** Whether UNSTABLE and TIMEBOXED results count as not clean, exit 3 ({@code --strict}). */
    default boolean strict() {
        return false;
    }
}
