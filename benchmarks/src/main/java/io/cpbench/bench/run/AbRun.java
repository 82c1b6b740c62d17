package io.cpbench.bench.run;

import io.cpbench.core.result.ComparisonTable;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.run.AbProtocol.Pair;
import io.cpbench.bench.run.AbProtocol.Slice;
import io.cpbench.bench.run.AbProtocol.Worker;
import io.cpbench.bench.service.RunContext;
import io.cpbench.bench.service.RunKind;
import io.cpbench.core.load.Durations;
import io.cpbench.core.result.AbDocument;
import io.cpbench.core.result.Comparison;
import io.cpbench.core.result.Environment;
import io.cpbench.core.status.Status;
import io.cpbench.topology.TopologyException;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * An A/B run: a client process of BASE and one of NEW ({@link AbProtocol}) take turns on one cluster, BASE-NEW then
 * NEW-BASE, until the new ÷ base ratios of the gated metrics are known well enough ({@link AbConfig.Stopping}), a pair fails, or
 * the run is stopped. Each pair of turns gives new ÷ base; the verdict is the median of those ratios with a bootstrap
 * interval ({@link Comparison#paired}), over process pairs first when the client processes are restarted.
 *
 * <p>Why turns: on a small shared machine one unchanged client's op/s wanders by several percent from minute to
 * minute, more than a regression worth catching; alternating every second cancels most of that.
 *
 * <p>A run runs once. {@link #stop()} may be called from any thread (a Ctrl-C hook): no other turn starts, and
 * {@link #outcome()} holds the pairs measured.
 */
public final class AbRun extends StoppableRun implements RunKind {

    /** Untimed turns per side after a restart of the client processes (the cluster is warm by then). */
    private static final Duration REWARM = Duration.ofSeconds(5);

    /**
     * What a run measured.
     *
     * @param pairs   the pairs, in order
     * @param started pairs started (one more than measured when a pair failed)
     * @param result  the verdict over the pairs; null with fewer than 2
     * @param failure why the run ended early (ops failed, a client process broke), or null
     * @param stopped whether {@link #stop()} ended it
     * @param ownClusters whether each side ran on a cluster of its own (a comparison of releases), not both on one
     */
    public record Findings(List<Pair> pairs, long started, Comparison.Result result, String failure, boolean stopped,
                          boolean ownClusters) {
        /** The table of the verdict (with a line saying the run is incomplete, if it is) and how the pairs ran. */
        public String table() {
            return AbAnalysis.table(result, pairs, started, stopped, failure, ownClusters);
        }
    }

    private final AbConfig config;
    private final List<Worker> workers = new CopyOnWriteArrayList<>();
    private final List<Pair> pairs = new CopyOnWriteArrayList<>();
    /** Per side, the members' releases its client processes reported ("?" from a cp-bench that does not say). */
    private final Map<String, Set<String>> membersSeen = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile long started;
    private volatile String failure;
    private volatile boolean ownClusters;
    private volatile ReleaseClusters fresh;

    public AbRun(AbConfig config, PrintStream console) {
        super(console);
        this.config = config;
    }

    @Override
    public String name() {
        return "ab";
    }

    @Override
    public String subject() {
        return config.turns().scenario();
    }

    @Override
    public ClusterChoice cluster() {
        return config.where().releases() == null ? config.where().cluster() : null;
    }

    @Override
    public void announce(PrintStream out, Path runDir) {
        AbConfig.Turns turns = config.turns();
        AbConfig.Stopping stopping = config.stopping();
        out.printf(Locale.ROOT, "cp-bench ab: %s, %d thread%s per side, turns of %s, BASE-NEW then NEW-BASE,"
                        + " %s; until the 95%% interval of %s new÷base is within ±%s (at least %d, at most %d pairs and"
                        + " %s), after %s warm-up per side%n",
                turns.scenario(), turns.threads(), turns.threads() == 1 ? "" : "s", Durations.human(turns.slice()),
                stopping.restartEvery() == 0 ? "the same two client processes throughout"
                        : "both client processes anew every " + stopping.restartEvery() + " pairs",
                config.gated().stream().sorted().map(Comparison.Metric::label).collect(Collectors.joining(" and ")),
                stopping.untilCi() == 0 ? "- (off: every pair)" : String.format(Locale.ROOT, "%.1f%%", stopping.untilCi() * 100),
                stopping.minPairs(), stopping.maxPairs(), Durations.human(stopping.maxTime()), Durations.human(turns.warmup()));
        config.where().sides().forEach(line -> out.println("  " + line));
        out.println("results -> " + runDir);
    }

    @Override
    public void run(RunContext context) {
        AbConfig.Where where = config.where();
        Clusters clusters;
        if (where.releases() == null) {
            clusters = Clusters.same(where.cluster().attachTopology() ? where.attachArgs()
                    : where.cluster().attachArgs(context.topology()));
        } else {
            fresh = new ReleaseClusters(where.releases().base(), where.releases().next(), context);
            clusters = fresh;
        }
        run(clusters, context.runDir());
    }

    /** Stops both client processes and the clusters started for them; any thread, more than once. */
    @Override
    public void close() {
        closeWorkers();
        ReleaseClusters started = fresh;
        if (started != null) {
            started.close();
        }
    }

    @Override
    public void write(RunContext context) {
        AbConfig.Where where = config.where();
        AbConfig.Turns turns = config.turns();
        List<String> about = new ArrayList<>(where.sides());
        if (where.releases() == null) {
            about.add(where.cluster().describe() + "; turns of " + Durations.human(turns.slice()) + ", " + turns.threads()
                    + " thread(s) per side");
        } else {
            about.add("turns of " + Durations.human(turns.slice()) + ", " + turns.threads() + " thread(s) per side; both"
                    + " clients Hazelcast " + io.cpbench.topology.HazelcastRelease.build());
        }
        about.add("members as the clients saw them: BASE Hazelcast " + orNone(membersSeen("BASE"))
                + ", NEW Hazelcast " + orNone(membersSeen("NEW")));
        Findings outcome = write(context.runDir(), about);
        if (outcome.stopped()) {
            return;
        }
        if (outcome.failure() != null) {
            System.err.println("cpbench ab: " + outcome.failure());
        } else if (outcome.result() == null) {
            System.err.println("cpbench ab: fewer than 2 pairs measured; no verdict");
        } else if (outcome.result().regression()) {
            System.err.println("cpbench: " + ComparisonTable.summary(outcome.result(), "BASE", "NEW"));
        }
    }

    /** The status {@code ab.json} holds ({@link #ending}). */
    @Override
    public Status status() {
        return ending(outcome()).status();
    }

    private static String orNone(String seen) {
        return seen.isEmpty() ? "- (no client process became ready)" : seen;
    }

    /** Stops both client processes (also when the run is in a turn: the turn then fails). */
    public void closeWorkers() {
        workers.forEach(Worker::close);
    }

    /**
     * Where each pair of client processes connects: cp-bench's cluster options for BASE's and for NEW's. A pair may
     * come with clusters of its own, started for it ({@link Sides#fresh()}): a comparison of Hazelcast releases runs
     * each side on members of its release, anew for every pair of client processes.
     */
    @FunctionalInterface
    public interface Clusters {
        /**
         * The clusters of the {@code fork}-th pair of client processes (1 first); it may start them.
         *
         * @throws RuntimeException with a message saying why the clusters cannot be had (it ends the run)
         */
        Sides sides(int fork);

        /** Both sides on one cluster, reached with {@code attach} throughout. */
        static Clusters same(List<String> attach) {
            Sides sides = new Sides(attach, attach, false);
            return fork -> sides;
        }
    }

    /**
     * @param base  how BASE's client process reaches its cluster (cp-bench's cluster options)
     * @param next  how NEW's does
     * @param fresh whether the clusters were started for this pair of client processes (then warmed up in full)
     */
    public record Sides(List<String> base, List<String> next, boolean fresh) {
        public Sides {
            base = List.copyOf(base);
            next = List.copyOf(next);
        }
    }

    /**
     * Runs the pairs; the client processes reach their clusters as {@code clusters} says and log to {@code runDir}.
     * A client process that breaks, ops that fail, or clusters that cannot be started end the run with a
     * {@link Findings#failure()}. Both client processes are stopped when it returns.
     */
    private void run(Clusters clusters, Path runDir) {
        AbConfig.Turns turns = config.turns();
        AbConfig.Stopping stopping = config.stopping();
        List<String> args = List.of("--scenario", turns.scenario(), "--threads", Integer.toString(turns.threads()));
        try {
            int fork = 1;
            startWorkers(clusters.sides(fork), args, runDir, fork);
            warm(turns.warmup());
            long start = System.nanoTime();
            long deadline = start + stopping.maxTime().toNanos();
            long lastProgress = start;
            String stop = "--max-pairs reached";
            while (!stopped() && pairs.size() < stopping.maxPairs()) {
                if (System.nanoTime() > deadline) {
                    stop = "--max-time reached";
                    break;
                }
                int index = pairs.size() + 1;
                if (stopping.restartEvery() > 0 && index > 1 && (index - 1) % stopping.restartEvery() == 0) {
                    fork++;
                    if (!restartWorkers(clusters, args, runDir, fork, index - 1)) {
                        break;
                    }
                }
                started = index;
                Pair pair = pair(index, fork);
                pairs.add(pair);
                AbAnalysis.appendSlices(runDir, pair);
                if (pair.base().errors() + pair.next().errors() > 0) {
                    failure = "ops failed in pair " + index + ": " + (pair.base().error() != null ? "BASE " + pair.base().error()
                            : "NEW " + pair.next().error());
                    break;
                }
                // The bootstrap is analysed at most once a pair: when the interval may end the run, or for progress.
                boolean progressDue = System.nanoTime() - lastProgress > TimeUnit.SECONDS.toNanos(10);
                Comparison.Result sofar = stopping.mayStop(pairs.size()) || progressDue ? analysed() : null;
                boolean enough = stopping.mayStop(pairs.size()) && AbAnalysis.widest(sofar, config.gated()) <= stopping.untilCi();
                if (enough || progressDue) {
                    lastProgress = System.nanoTime();
                    console.println("  " + AbAnalysis.progress(sofar, config.gated(), pairs.size(), Duration.ofNanos(System.nanoTime() - start)));
                }
                if (enough) {
                    stop = String.format(Locale.ROOT, "every gated interval within ±%.1f%%", stopping.untilCi() * 100);
                    break;
                }
            }
            if (!stopped() && failure == null) {
                console.printf(Locale.ROOT, "stopped after %d pairs in %s: %s%n", pairs.size(),
                        Durations.human(Duration.ofNanos(System.nanoTime() - start)), stop);
            }
        } catch (IllegalStateException | UncheckedIOException | TopologyException e) {
            // a client process that broke, or clusters that could not be started (their message says which)
            failure = e.getMessage();
        } finally {
            closeWorkers();
        }
    }

    /** Both client processes anew, as process pair {@code fork}, after {@code done} pairs; false when stopped meanwhile. */
    private boolean restartWorkers(Clusters clusters, List<String> args, Path runDir, int fork, int done) {
        closeWorkers();
        workers.clear();
        Sides sides = clusters.sides(fork);
        console.printf(Locale.ROOT, "  after %d pairs: both client processes anew%s (process pair %d)%n",
                done, sides.fresh() ? ", on fresh clusters" : "", fork);
        if (stopped()) {
            return false;
        }
        startWorkers(sides, args, runDir, fork);
        Duration warmup = config.turns().warmup();
        warm(sides.fresh() || warmup.compareTo(REWARM) < 0 ? warmup : REWARM);
        return !stopped();
    }

    /** BASE then NEW in odd pairs, NEW then BASE in even ones. */
    private Pair pair(int index, int fork) {
        Duration slice = config.turns().slice();
        Worker base = workers.get(0);
        Worker next = workers.get(1);
        boolean baseFirst = index % 2 == 1;
        Slice first = (baseFirst ? base : next).slice(slice);
        Slice second = (baseFirst ? next : base).slice(slice);
        return new Pair(index, fork, baseFirst, baseFirst ? first : second, baseFirst ? second : first);
    }

    /** What was measured so far: all of it once {@link #run} returned. */
    public Findings outcome() {
        List<Pair> measured = List.copyOf(pairs);
        return new Findings(measured, started, measured.size() >= 2 ? AbAnalysis.analyse(measured, config.tolerance(), config.gated()) : null,
                failure, stopped(), ownClusters);
    }

    /**
     * Prints the outcome's table and writes it to {@code table.md} (under a heading of the scenario, {@code about}'s
     * lines and the environment), and every turn to {@code slices.csv}.
     */
    public Findings write(Path runDir, List<String> about) {
        Findings outcome = outcome();
        String md = outcome.table();
        console.println();
        console.print(md);
        StringBuilder heading = new StringBuilder("# cp-bench ab: " + config.turns().scenario() + "\n\n");
        about.forEach(line -> heading.append("- ").append(line).append('\n'));
        heading.append("- ").append(environment()).append("\n\n");
        RunDirectory.writeText(runDir, "table.md", heading + md);
        RunDirectory.writeText(runDir, "slices.csv", AbAnalysis.csv(outcome.pairs()));
        RunDirectory.writeJson(runDir, AbDocument.FILE, document(outcome, about));
        console.println("wrote table.md, slices.csv and " + AbDocument.FILE + " to " + runDir);
        return outcome;
    }

    /** What {@code ab.json} holds of an outcome: the verdict and how the run ended. */
    private AbDocument document(Findings outcome, List<String> about) {
        Ending ending = ending(outcome);
        return new AbDocument(AbDocument.FORMAT, config.turns().scenario(), ending.status(), ending.reason(),
                outcome.pairs().size(), outcome.started(), outcome.ownClusters(), about, Environment.current(),
                outcome.result());
    }

    /** The run's one verdict, with why it is not OK. */
    private record Ending(Status status, String reason) {
    }

    private static Ending ending(Findings outcome) {
        if (outcome.stopped()) {
            return new Ending(Status.INCOMPLETE, "interrupted after " + outcome.pairs().size() + " pairs");
        } else if (outcome.failure() != null) {
            return new Ending(Status.FAIL, outcome.failure());
        } else if (outcome.result() == null) {
            return new Ending(Status.FAIL, "fewer than 2 pairs measured (" + outcome.started() + " started)");
        } else if (outcome.result().regression()) {
            return new Ending(Status.FAIL, ComparisonTable.summary(outcome.result(), "BASE", "NEW").replaceFirst("^verdict: ", ""));
        }
        return new Ending(Status.OK, null);
    }

    /**
     * The members' release each side's client processes saw: {@code 5.3.8}, several comma-separated if they differed,
     * {@code ?} where a client process did not say (an older cp-bench), empty before any was ready.
     */
    public String membersSeen(String side) {
        Set<String> seen = membersSeen.get(side);
        return seen == null ? "" : String.join(", ", seen);
    }

    private Comparison.Result analysed() {
        return AbAnalysis.analyse(pairs, config.tolerance(), config.gated());
    }

    /**
     * Starts BASE's and NEW's client processes (the {@code fork}-th pair of them) on their clusters and waits until
     * both are ready; the members' release each reports is kept for the table.
     */
    private void startWorkers(Sides sides, List<String> args, Path runDir, int fork) {
        String suffix = fork == 1 ? "" : "-" + fork;
        ownClusters = !sides.base().equals(sides.next());
        workers.add(Worker.start("BASE", config.baseCommand(), concat(sides.base(), args), runDir.resolve("base-worker" + suffix + ".log")));
        workers.add(Worker.start("NEW", config.newCommand(), concat(sides.next(), args), runDir.resolve("new-worker" + suffix + ".log")));
        long readyBy = System.nanoTime() + config.startupTimeout().toNanos();
        for (Worker w : workers) {
            AbProtocol.Ready ready = w.await("ready", AbProtocol.Ready.class, readyBy);
            if (ready.protocol() != AbProtocol.VERSION) {
                throw new IllegalStateException(w.side + "'s cp-bench speaks ab protocol " + ready.protocol()
                        + ", this one " + AbProtocol.VERSION);
            }
            String members = ready.members() == null ? "" : ready.members();
            membersSeen.computeIfAbsent(w.side, k -> new java.util.concurrent.ConcurrentSkipListSet<>())
                    .add(members.isEmpty() ? "?" : members);
            if (fork == 1 || sides.fresh()) {
                console.printf(Locale.ROOT, "  %s ready: %s, pid %d%s%s%n", w.side, ready.version(), ready.pid(),
                        members.isEmpty() ? "" : ", members Hazelcast " + members, ready.planted() > 0
                                ? String.format(Locale.ROOT, ", PLANTED SLOWDOWN %.0f %%", ready.planted() * 100) : "");
            }
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Untimed turns, alternately, for {@code time} per side. */
    private void warm(Duration time) {
        if (time.isZero()) {
            return;
        }
        Duration slice = config.turns().slice();
        long turns = Math.max(1, time.toMillis() / slice.toMillis());
        double[] rates = new double[2];
        for (long i = 0; i < turns && !stopped(); i++) {
            rates[0] = workers.get(0).slice(slice).opsPerSecond();
            rates[1] = workers.get(1).slice(slice).opsPerSecond();
        }
        console.printf(Locale.ROOT, "  warm-up: %d turns each; last: BASE %,.0f op/s, NEW %,.0f op/s%n", turns, rates[0], rates[1]);
    }

    private static String environment() {
        Environment e = Environment.current();
        return String.format(Locale.ROOT, "cp-bench %s, Hazelcast %s, Java %s (%s), %s %s, %d cores, host %s",
                e.cpbenchVersion(), e.hazelcastVersion(), e.javaVersion(), e.javaVendor(), e.os(), e.arch(), e.cores(), e.host());
    }
}
