package io.cpbench.bench.service;

import io.cpbench.bench.agents.AgentPool;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.history.Recorder;
import io.cpbench.bench.report.LiveView;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.topology.MemberTuning;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Runs a {@link RunKind} through the one lifecycle every command shares:
 * <ol>
 *   <li>the run directory is chosen ({@code <out>/<time>-<name>}, made once the cluster is up; removed at the end if empty) and
 *       the kind says what will run;</li>
 *   <li>the live view starts ({@code --live});</li>
 *   <li>the kind's cluster starts, with progress; from then on Ctrl-C stops the run, waits until what was measured
 *       is written, and only then stops the members;</li>
 *   <li>the agents start ({@code --agents}), then the run;</li>
 *   <li>whatever happened (an end, Ctrl-C, an error): the agents, the kind's own processes, the clusters and the live
 *       view stop, what was measured is written and recorded in the results history, an empty run directory is
 *       removed;</li>
 *   <li>the exit code: the kind's, 130 once interrupted.</li>
 * </ol>
 * This is the only place that installs a Ctrl-C hook ({@link Interruption}) or takes a cluster's shutdown over.
 */
public final class RunService {

    /** {@code --live}: a view of the run served while it goes. */
    public interface Live {
        Live NONE = new Live() {
            @Override
            public void start(PrintStream console, Path runDir, String title) {
            }

            @Override
            public LiveView view() {
                return null;
            }

            @Override
            public void close() {
            }
        };

        /** Starts and announces the view, if one was asked for. */
        void start(PrintStream console, Path runDir, String title);

        /** The running view, or null. */
        LiveView view();

        /** Stops the view, if one runs; more than once is fine. */
        void close();
    }

    /** {@code --agents}: the processes a load is split between. */
    public interface Agents {
        Agents NONE = new Agents() {
            @Override
            public int count() {
                return 0;
            }

            @Override
            public AgentPool start(PrintStream console, Path runDir) {
                throw new IllegalStateException("no agents");
            }
        };

        /** How many agents (0: none, the load runs in this process). */
        int count();

        /** Starts (or joins) them, saying so on {@code console}. */
        AgentPool start(PrintStream console, Path runDir);
    }

    /**
     * Where and how a command's runs go: {@code outDir} holds the run directories; {@code progressEvery} paces
     * progress lines; {@code live} and {@code agents} as the command's options say.
     */
    public record Setup(Path outDir, Duration progressEvery, Live live, Agents agents, Recorder history) {

        /** Runs into {@code outDir}, progress every 5 s, no live view, no agents, not recorded in a history. */
        public static Setup into(Path outDir) {
            return new Setup(outDir, Duration.ofSeconds(5), Live.NONE, Agents.NONE, Recorder.OFF);
        }

        public Setup withLive(Live view) {
            return new Setup(outDir, progressEvery, view, agents, history);
        }

        public Setup withAgents(Agents many) {
            return new Setup(outDir, progressEvery, live, many, history);
        }

        public Setup withProgressEvery(Duration every) {
            return new Setup(outDir, every, live, agents, history);
        }

        /** Records each run in the results history as it ends ({@code --history}, {@code --label}). */
        public Setup withHistory(Recorder recorder) {
            return new Setup(outDir, progressEvery, live, agents, recorder);
        }
    }

    private RunService() {
    }

    /** Runs {@code kind} as the class comment says; its exit code. */
    public static int run(RunKind kind, Setup setup) {
        return run(kind, setup, System.out);
    }

    /**
     * Runs each kind in turn, each into a run directory of its own, a heading above each when there are several;
     * stops after one that was interrupted. The worst exit code ({@link ExitCodes#worse}).
     */
    public static int runEach(List<? extends RunKind> kinds, Setup setup) {
        PrintStream console = System.out;
        RunDirectory.checkWritable(setup.outDir());
        int code = ExitCodes.OK;
        for (int i = 0; i < kinds.size() && code != ExitCodes.INTERRUPTED; i++) {
            RunKind kind = kinds.get(i);
            if (kinds.size() > 1) {
                console.printf(Locale.ROOT, "%n== %s %d of %d%s%n", kind.name(), i + 1, kinds.size(),
                        kind.subject() == null ? "" : ": " + kind.subject());
            }
            code = ExitCodes.worse(code, run(kind, setup, console));
        }
        return code;
    }

    static int run(RunKind kind, Setup setup, PrintStream console) {
        RunDirectory.checkWritable(setup.outDir());
        // the store is readied while the cluster starts: the run's end only opens it, reads its results and writes
        // one transaction
        return run(kind, setup, console, setup.history().begin());
    }

    private static int run(RunKind kind, Setup setup, PrintStream console, Recorder.Pending recording) {
        Path runDir = RunDirectory.choose(setup.outDir(), kind.name());
        RunContext context = new RunContext(console, runDir, setup.progressEvery());
        kind.announce(console, runDir);
        setup.live().start(console, runDir, "cp-bench " + kind.name() + " (live)");
        context.live(setup.live().view());
        ClusterChoice cluster = kind.cluster();
        if (cluster != null) {
            try {
                context.topology(context.start(cluster, runDir.resolve("members"), MemberTuning.NONE));
            } catch (RuntimeException | Error e) {
                setup.live().close();
                RunDirectory.removeIfEmpty(runDir);
                throw e;
            }
        }
        Interruption interruption = new Interruption(kind.interruptedLine(), kind::stop, () -> {
            kind.close();
            context.closeClusters();
        });
        AgentPool pool = null;
        try {
            RunDirectory.create(runDir);
            if (kind.takesAgents() && setup.agents().count() > 0) {
                pool = setup.agents().start(console, runDir);
                context.agents(pool);
            }
            kind.run(context);
        } catch (Exception e) {
            if (!kind.stopped()) { // what a stop cut short ends as an interruption, below; anything else is an error
                interruption.disarm(); // an error (agents that did not come, say) is not an interruption
                throw e instanceof RuntimeException r ? r : new IllegalStateException(e.getMessage(), e);
            }
        } finally {
            if (pool != null) {
                pool.close();
            }
            kind.close();
            context.closeClusters();
            setup.live().close();
            try {
                kind.write(context);
                recording.record(runDir, kind.name(), kind.stopped(), console); // a Ctrl-C'd run's too: before the hook returns
                RunDirectory.removeIfEmpty(runDir);
            } finally {
                interruption.written(); // on Ctrl-C the JVM ends as soon as the hook returns: after this
            }
        }
        boolean interrupted = !interruption.disarm() || kind.stopped();
        return ExitCodes.of(kind.status(), interrupted, kind.strict());
    }
}
