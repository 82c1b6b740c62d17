package io.cpbench.bench.cli;

import io.cpbench.bench.run.AbProtocol;
import io.cpbench.bench.run.AbProtocol.Pair;
import io.cpbench.bench.run.AbProtocol.Slice;
import io.cpbench.bench.run.AbProtocol.Worker;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.bench.scenario.Network;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.core.load.Durations;
import io.cpbench.core.result.Comparison;
import io.cpbench.core.result.Environment;
import io.cpbench.core.stats.Bootstrap;
import io.cpbench.core.stats.Percent;
import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code cpbench ab}: BASE and NEW builds measured side by side on one cluster. Each side is a client process of its
 * own build ({@link AbWorkerCommand}); they take turns in short slices, BASE-NEW then NEW-BASE, so both see the same
 * cluster and the same machine at nearly the same moment. Each pair of slices gives new ÷ base; the verdict comes
 * from the median of those ratios and its bootstrap interval, with {@code compare}'s rule.
 *
 * <p>Why: on a small shared machine the throughput of one unchanged client wanders by 6-8 % between 20-second
 * blocks (README, Reports), so two runs made minutes apart differ by more than a regression worth catching.
 * Alternating every second cancels most of that wander; what is left shrinks with the number of pairs.
 */
@Command(name = "ab", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compares two builds (or JVM settings) side by side: a client process of BASE and one of NEW on"
                + " one cluster, taking turns in short slices (BASE-NEW, then NEW-BASE), until the new ÷ base ratios"
                + " of the gated metrics are known to --until-ci. Per pair of slices: new ÷ base of op/s, p50 and p99;"
                + " the verdict is the median ratio with a 95 %% bootstrap interval over pairs, by compare's rule."
                + " Exits 1 when NEW is slower.",
                "Separate runs cannot do this on a shared machine: one client's op/s wanders by several percent"
                        + " from minute to minute, more than a regression worth catching."},
        footer = {"", "Examples:",
                "  cpbench ab --new benchmarks/target/cpbench.jar --base baseline/cpbench.jar",
                "  cpbench ab --new-jvm-arg=-Dcpbench.plant.slowdown=10%%        (this build against itself, slowed)",
                "  cpbench ab --topology attach --cluster-name prod --connect 10.0.0.1:5701 --scenario client-leader-aware"})
final class AbCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Untimed turns per side after a restart of the client processes (the cluster is warm by then). */
    private static final Duration REWARM = Duration.ofSeconds(5);

    @Option(names = "--base", paramLabel = "JAR", description = "BASE: a cp-bench jar (cpbench.jar of that build)"
            + " (default: this cp-bench).")
    Path baseJar;

    @Option(names = "--new", paramLabel = "JAR", description = "NEW: a cp-bench jar (default: this cp-bench).")
    Path newJar;

    @Option(names = "--base-jvm-arg", paramLabel = "ARG", description = "A JVM argument for BASE's client process"
            + " (repeatable), e.g. --base-jvm-arg=-Xmx512m.")
    List<String> baseJvmArgs = new ArrayList<>();

    @Option(names = "--new-jvm-arg", paramLabel = "ARG", description = "A JVM argument for NEW's client process"
            + " (repeatable), e.g. --new-jvm-arg=-Dcpbench.plant.slowdown=10%%.")
    List<String> newJvmArgs = new ArrayList<>();

    @Option(names = "--scenario", paramLabel = "NAME", defaultValue = "client-leader", completionCandidates = Completions.ScenarioNames.class,
            description = "The scenario both sides run: its routing and op; network (a) only (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "Threads calling the op back to back in each client, 1-256 (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--slice", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "1s",
            description = "How long each side runs per turn, 100ms-60s (default: ${DEFAULT-VALUE}).")
    Duration slice;

    @Option(names = "--warmup", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "30s",
            description = "Untimed turns per side before the first pair (default: ${DEFAULT-VALUE}; 0 for none).")
    Duration warmup;

    @Option(names = "--until-ci", paramLabel = "PCT", defaultValue = "3%",
            description = "Stop once the 95 %% interval of every gated ratio is within this of its median, after"
                    + " --min-pairs; 0 to run --max-pairs (default: ${DEFAULT-VALUE}).")
    String untilCi;

    @Option(names = "--restart-every", paramLabel = "N", defaultValue = "50",
            description = "Start both client processes anew after every N pairs (warmed up again for up to 5s a"
                    + " side), so that a lasting difference between two JVMs of one build varies as pairs do and the"
                    + " interval holds it (it resamples the process pairs, then the pairs in them); --until-ci then"
                    + " stops only after 2 or more whole process pairs. 0 for never (default: ${DEFAULT-VALUE}).")
    int restartEvery;

    @Option(names = "--min-pairs", paramLabel = "N", defaultValue = "30",
            description = "Pairs before --until-ci may stop, 5 or more (default: ${DEFAULT-VALUE}).")
    int minPairs;

    @Option(names = "--max-pairs", paramLabel = "N", defaultValue = "600",
            description = "Pairs at most (default: ${DEFAULT-VALUE}).")
    int maxPairs;

    @Option(names = "--max-time", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "15m",
            description = "Time for the pairs at most, warm-up excluded (default: ${DEFAULT-VALUE}).")
    Duration maxTime;

    @Mixin
    GateOptions gateOptions;

    @Mixin
    ClusterOptions clusterOptions;

    @picocli.CommandLine.Mixin
    OutOption out;

    private volatile boolean interrupted;

    @Override
    public Integer call() throws Exception {
        PrintStream console = System.out;
        Scenario chosen = Scenarios.byName(scenario);
        if (chosen.network() != Network.PLAIN) {
            throw new IllegalArgumentException("ab runs network (a) scenarios; " + scenario + " runs on network (b),"
                    + " which only the process holding the network emulator can switch");
        }
        double tol = gateOptions.tolerance();
        double target = Percent.parse(untilCi, "--until-ci");
        if (!(target >= 0 && target < 1)) {
            throw new IllegalArgumentException("--until-ci must be from 0% to below 100%, was " + untilCi);
        }
        Set<Comparison.Metric> gated = gateOptions.gated();
        if (threads < 1 || threads > 256) {
            throw new IllegalArgumentException("--threads must be 1-256, was " + threads);
        }
        if (slice.toMillis() < 100 || slice.toMillis() > 60_000) {
            throw new IllegalArgumentException("--slice must be 100ms-60s, was " + Durations.human(slice));
        }
        if (warmup.isNegative() || maxTime.toMillis() < 1000) {
            throw new IllegalArgumentException("--warmup must be 0 or more and --max-time at least 1s");
        }
        if (restartEvery < 0) {
            throw new IllegalArgumentException("--restart-every must be 0 (never) or more, was " + restartEvery);
        }
        if (minPairs < 5 || maxPairs < minPairs || maxPairs > 100_000) {
            throw new IllegalArgumentException("--min-pairs must be 5 or more and --max-pairs from --min-pairs to"
                    + " 100,000; were " + minPairs + " and " + maxPairs);
        }
        if (!(clusterOptions.startsMembers() && !clusterOptions.containers()) && !clusterOptions.attachTopology()) {
            throw new IllegalArgumentException("ab runs on --topology local or attach, not " + clusterOptions.topology);
        }
        List<String> baseCommand = workerCommand(baseJar, "--base", baseJvmArgs);
        List<String> newCommand = workerCommand(newJar, "--new", newJvmArgs);
        clusterOptions.validate(-1);
        RunDirectory.checkWritable(out.dir);
        Path runDir = RunDirectory.choose(out.dir, "ab");

        console.printf(Locale.ROOT, "cp-bench ab: %s, %d thread%s per side, turns of %s, BASE-NEW then NEW-BASE,"
                        + " %s; until the 95%% interval of %s new÷base is within ±%s (at least %d, at most %d pairs and"
                        + " %s), after %s warm-up per side%n",
                scenario, threads, threads == 1 ? "" : "s", Durations.human(slice),
                restartEvery == 0 ? "the same two client processes throughout"
                        : "both client processes anew every " + restartEvery + " pairs",
                gated.stream().map(Comparison.Metric::label).collect(Collectors.joining(" and ")),
                target == 0 ? "- (off: every pair)" : String.format(Locale.ROOT, "%.1f%%", target * 100), minPairs,
                maxPairs, Durations.human(maxTime), Durations.human(warmup));
        console.println("  BASE: " + describe(baseJar, baseJvmArgs));
        console.println("  NEW:  " + describe(newJar, newJvmArgs));
        console.println("results -> " + runDir);
        RunDirectory.create(runDir);
        console.println((clusterOptions.attachTopology() ? "attaching to " : "starting ") + clusterOptions.describe() + " ...");
        Topology topology = clusterOptions.start(runDir.resolve("members"));
        topology.takeOverShutdown();
        List<Worker> workers = new java.util.concurrent.CopyOnWriteArrayList<>();
        Interruption interruption = new Interruption(() -> interrupted = true, () -> {
            workers.forEach(Worker::close);
            topology.close();
        });
        List<Pair> pairs = new ArrayList<>();
        String failure = null;
        Comparison.Result result = null;
        long pairsStarted = 0;
        try {
            List<String> attach = new ArrayList<>(attachArgs(topology));
            attach.addAll(List.of("--scenario", scenario, "--threads", Integer.toString(threads)));
            int fork = 1;
            startWorkers(workers, baseCommand, newCommand, attach, runDir, fork, console);
            warm(workers, warmup, console);
            long start = System.nanoTime();
            long deadline = start + maxTime.toNanos();
            long lastProgress = start;
            String stop = "--max-pairs reached";
            while (!interrupted) {
                if (pairs.size() >= maxPairs) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    stop = "--max-time reached";
                    break;
                }
                int index = pairs.size() + 1;
                if (restartEvery > 0 && index > 1 && (index - 1) % restartEvery == 0) {
                    workers.forEach(Worker::close);
                    workers.clear();
                    fork++;
                    console.printf(Locale.ROOT, "  after %d pairs: both client processes anew (process pair %d)%n",
                            index - 1, fork);
                    startWorkers(workers, baseCommand, newCommand, attach, runDir, fork, console);
                    warm(workers, warmup.compareTo(REWARM) < 0 ? warmup : REWARM, console);
                    if (interrupted) {
                        break;
                    }
                }
                Worker base = workers.get(0);
                Worker next = workers.get(1);
                pairsStarted = index;
                boolean baseFirst = index % 2 == 1;
                Slice first = (baseFirst ? base : next).slice(slice);
                Slice second = (baseFirst ? next : base).slice(slice);
                Pair pair = new Pair(index, fork, baseFirst, baseFirst ? first : second, baseFirst ? second : first);
                pairs.add(pair);
                if (pair.base().errors() + pair.next().errors() > 0) {
                    failure = "ops failed in pair " + index + ": " + (pair.base().error() != null ? "BASE " + pair.base().error()
                            : "NEW " + pair.next().error());
                    break;
                }
                boolean enough = mayStop(pairs.size()) && widest(analyse(pairs, tol, gated), gated) <= target;
                if (enough || System.nanoTime() - lastProgress > TimeUnit.SECONDS.toNanos(10)) {
                    lastProgress = System.nanoTime();
                    console.println("  " + progress(analyse(pairs, tol, gated), gated, pairs.size(),
                            Duration.ofNanos(System.nanoTime() - start)));
                }
                if (enough) {
                    stop = String.format(Locale.ROOT, "every gated interval within ±%.1f%%", target * 100);
                    break;
                }
            }
            if (!interrupted && failure == null) {
                console.printf(Locale.ROOT, "stopped after %d pairs in %s: %s%n", pairs.size(),
                        Durations.human(Duration.ofNanos(System.nanoTime() - start)), stop);
            }
        } catch (IllegalStateException | UncheckedIOException e) {
            failure = e.getMessage();
        } finally {
            workers.forEach(Worker::close);
            topology.close();
            try {
                if (pairs.size() >= 2) {
                    result = analyse(pairs, tol, gated);
                }
                String md = table(result, pairs, pairsStarted, interrupted, failure);
                console.println();
                console.print(md);
                Files.writeString(runDir.resolve("table.md"), "# cp-bench ab: " + scenario + "\n\n"
                        + "- BASE: " + describe(baseJar, baseJvmArgs) + "\n- NEW: " + describe(newJar, newJvmArgs)
                        + "\n- " + clusterOptions.describe() + "; turns of " + Durations.human(slice) + ", "
                        + threads + " thread(s) per side\n- " + environment() + "\n\n" + md);
                Files.writeString(runDir.resolve("slices.csv"), csv(pairs));
                console.println("wrote table.md and slices.csv to " + runDir);
            } finally {
                interruption.written();
            }
        }
        if (!interruption.disarm() || interrupted) {
            return ExitCodes.INTERRUPTED;
        }
        if (failure != null) {
            System.err.println("cpbench ab: " + failure);
            return ExitCodes.FAILED;
        }
        if (result == null) {
            System.err.println("cpbench ab: fewer than 2 pairs measured; no verdict");
            return ExitCodes.FAILED;
        }
        if (result.regression()) {
            System.err.println("cpbench: " + Comparison.summary(result, "BASE", "NEW"));
            return ExitCodes.FAILED;
        }
        return ExitCodes.OK;
    }

    /**
     * Whether --until-ci may end the run after {@code n} pairs: at least --min-pairs, every 5th pair; with restarts,
     * at the end of a process pair and after 2 or more of them, so the interval has seen the processes vary.
     */
    boolean mayStop(int n) {
        if (untilCiTarget() == 0 || n < minPairs) {
            return false;
        }
        if (restartEvery > 0) {
            return n % restartEvery == 0 && n >= 2 * restartEvery;
        }
        return n % 5 == 0 || n == minPairs;
    }

    private double untilCiTarget() {
        return Percent.parse(untilCi, "--until-ci");
    }

    /** Starts BASE's and NEW's client processes (the {@code fork}-th pair of them) and waits until both are ready. */
    private void startWorkers(List<Worker> workers, List<String> baseCommand, List<String> newCommand, List<String> attach,
                              Path runDir, int fork, PrintStream console) {
        String suffix = fork == 1 ? "" : "-" + fork;
        workers.add(Worker.start("BASE", baseCommand, attach, runDir.resolve("base-worker" + suffix + ".log")));
        workers.add(Worker.start("NEW", newCommand, attach, runDir.resolve("new-worker" + suffix + ".log")));
        long readyBy = System.nanoTime() + clusterOptions.startupTimeout.toNanos();
        for (Worker w : workers) {
            JsonNode ready = w.await("ready", readyBy);
            if (ready.path("protocol").asInt() != AbProtocol.VERSION) {
                throw new IllegalStateException(w.side + "'s cp-bench speaks ab protocol " + ready.path("protocol").asInt()
                        + ", this one " + AbProtocol.VERSION);
            }
            if (fork == 1) {
                console.printf(Locale.ROOT, "  %s ready: %s, pid %d%s%n", w.side, ready.path("version").asText(),
                        ready.path("pid").asLong(), ready.path("planted").asDouble() > 0 ? String.format(Locale.ROOT,
                                ", PLANTED SLOWDOWN %.0f %%", ready.path("planted").asDouble() * 100) : "");
            }
        }
    }

    /** Untimed turns, alternately, for {@code time} per side. */
    private void warm(List<Worker> workers, Duration time, PrintStream console) {
        if (time.isZero()) {
            return;
        }
        long turns = Math.max(1, time.toMillis() / slice.toMillis());
        double[] rates = new double[2];
        for (long i = 0; i < turns && !interrupted; i++) {
            rates[0] = workers.get(0).slice(slice).opsPerSecond();
            rates[1] = workers.get(1).slice(slice).opsPerSecond();
        }
        console.printf(Locale.ROOT, "  warm-up: %d turns each; last: BASE %,.0f op/s, NEW %,.0f op/s%n", turns, rates[0], rates[1]);
    }

    static Comparison.Result analyse(List<Pair> pairs, double tolerance, Set<Comparison.Metric> gate) {
        Map<Comparison.Metric, double[][]> values = new EnumMap<>(Comparison.Metric.class);
        values.put(Comparison.Metric.OPS, sides(pairs, Slice::opsPerSecond));
        values.put(Comparison.Metric.P50, sides(pairs, Slice::p50));
        values.put(Comparison.Metric.P99, sides(pairs, Slice::p99));
        return Comparison.paired(pairs.isEmpty() ? "-" : "ab", values, pairs.stream().mapToInt(p -> p.fork() - 1).toArray(),
                tolerance, gate);
    }

    private static double[][] sides(List<Pair> pairs, java.util.function.ToDoubleFunction<Slice> f) {
        return new double[][]{pairs.stream().mapToDouble(p -> f.applyAsDouble(p.base())).toArray(),
                pairs.stream().mapToDouble(p -> f.applyAsDouble(p.next())).toArray()};
    }

    /** The widest relative half-width among the gated metrics' intervals (infinite when one has none). */
    static double widest(Comparison.Result result, Set<Comparison.Metric> gate) {
        double widest = 0;
        for (Comparison.MetricChange m : result.rows().get(0).metrics().values()) {
            if (gate.contains(m.metric())) {
                widest = Math.max(widest, m.ratio() == null ? Double.POSITIVE_INFINITY : m.ratio().relativeHalfWidth());
            }
        }
        return widest;
    }

    private static String progress(Comparison.Result result, Set<Comparison.Metric> gate, int pairs, Duration elapsed) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%d pairs, %s:", pairs, Durations.human(elapsed)));
        for (Comparison.MetricChange m : result.rows().get(0).metrics().values()) {
            Bootstrap.Interval i = m.ratio();
            if (i != null) {
                b.append(String.format(Locale.ROOT, " %s new÷base %.3f [%.3f-%.3f] ±%.1f%%%s;", m.metric().label(),
                        i.median(), i.low(), i.high(), i.relativeHalfWidth() * 100, gate.contains(m.metric()) ? "" : " (not gated)"));
            }
        }
        return b.substring(0, b.length() - 1);
    }

    static String table(Comparison.Result result, List<Pair> pairs, long started, boolean interrupted, String failure) {
        StringBuilder b = new StringBuilder();
        if (interrupted || failure != null) {
            b.append(String.format(Locale.ROOT, "INCOMPLETE: %s after %d pairs%n%n",
                    interrupted ? "interrupted" : "stopped (" + failure + ")", pairs.size()));
        }
        if (result == null) {
            b.append("No verdict: fewer than 2 pairs measured (").append(started).append(" started).\n");
            return b.toString();
        }
        b.append(Comparison.markdown(result, "BASE", "NEW", "pairs"));
        long baseFirst = pairs.stream().filter(Pair::baseFirst).count();
        long forks = pairs.stream().mapToInt(Pair::fork).distinct().count();
        b.append(String.format(Locale.ROOT, "%nEach pair: a turn of each side on the same cluster, BASE first in %d"
                + " pairs, NEW first in %d, from %d pair%s of client processes; a ratio is the median over pairs of"
                + " new ÷ base in the pair, its interval a bootstrap over %s. op/s base and new are the medians of the"
                + " turns.%n", baseFirst, pairs.size() - baseFirst, forks, forks == 1 ? "" : "s",
                forks == 1 ? "pairs" : "process pairs, then the pairs in them"));
        return b.toString();
    }

    static String csv(List<Pair> pairs) {
        StringBuilder b = new StringBuilder("pair,processes,first,side,ops,errors,seconds,ops_per_s,p50_us,p99_us\n");
        for (Pair p : pairs) {
            for (int s = 0; s < 2; s++) {
                Slice x = s == 0 ? p.base() : p.next();
                b.append(String.format(Locale.ROOT, "%d,%d,%s,%s,%d,%d,%.4f,%.1f,%.0f,%.0f%n", p.index(), p.fork(),
                        p.baseFirst() ? "BASE" : "NEW", s == 0 ? "BASE" : "NEW", x.ops(), x.errors(), x.seconds(),
                        x.opsPerSecond(), x.p50(), x.p99()));
            }
        }
        return b.toString();
    }

    /** How a worker reaches the cluster: the user's attach options, or the members this run started. */
    private List<String> attachArgs(Topology topology) {
        if (clusterOptions.attachTopology()) {
            return clusterOptions.toArgs();
        }
        return List.of("--topology", "attach", "--cluster-name", topology.clusterName(), "--connect",
                topology.members().stream().map(MemberRef::address).collect(Collectors.joining(",")),
                "--settle", "1s", "--connect-timeout", clusterOptions.connectTimeout.toMillis() + "ms");
    }

    private static String environment() {
        Environment e = Environment.current();
        return String.format(Locale.ROOT, "cp-bench %s, Hazelcast %s, Java %s (%s), %s %s, %d cores, host %s",
                e.cpbenchVersion(), e.hazelcastVersion(), e.javaVersion(), e.javaVendor(), e.os(), e.arch(), e.cores(), e.host());
    }

    private static String describe(Path jar, List<String> jvmArgs) {
        return (jar == null ? "this build (" + new CpBench.Version().getVersion()[0] + ")" : jar.toString())
                + (jvmArgs.isEmpty() ? "" : " with " + String.join(" ", jvmArgs));
    }

    /** The command that starts a worker of {@code jar} (null: this cp-bench), its JVM arguments first. */
    static List<String> workerCommand(Path jar, String option, List<String> jvmArgs) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.addAll(List.of("--add-modules", "java.se"));
        if (jar != null) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException(option + " " + jar + ": no such file (a cp-bench jar, such as"
                        + " benchmarks/target/cpbench.jar)");
            }
            if (!hasWorker(jar, option)) {
                throw new IllegalArgumentException(option + " " + jar + " is not a cp-bench jar with 'ab' (it has no "
                        + AbWorkerCommand.class.getName().replace('.', '/') + ".class)");
            }
            command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
            return command;
        }
        try {
            Path self = Path.of(CpBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(self)) {
                command.addAll(List.of("-jar", self.toString()));
            } else {
                command.addAll(List.of("-cp", System.getProperty("java.class.path"), CpBench.class.getName()));
            }
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate this cp-bench: " + e.getMessage(), e);
        }
        return command;
    }

    private static boolean hasWorker(Path jar, String option) {
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
            return zip.getEntry(AbWorkerCommand.class.getName().replace('.', '/') + ".class") != null;
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + jar + " is not a jar (" + e.getMessage() + ")");
        }
    }
}
