package io.cpbench.bench.cli;

import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.load.Durations;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.result.MarkdownTable;
import io.cpbench.core.stats.Bootstrap;
import io.cpbench.core.workload.CasWorkload;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code cpbench engine-cost}: does the load engine cost throughput? Per thread count, a plain loop of the seed's
 * op (threads calling it back to back, nothing else) and the engine's closed loop of the same op, through the same
 * leader-routed client on one cluster, alternating which goes first, repeated; the engine ÷ plain ratio per pair,
 * with a bootstrap CI over pairs.
 */
@Command(name = "engine-cost", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Measures what the load engine costs: engine ÷ a plain loop of the same op (get + compareAndSet),"
                + " per thread count, interleaved on one cluster through one leader-routed client.",
        footer = {"", "Example:", "  cpbench engine-cost --threads 1,4,16,64 --pairs 3 --duration 10s --network direct"})
final class EngineCostCommand implements Callable<Integer> {

    /**
     * Op/s by thread count that an independent leader-routed client reached on a 2-core, 24 GiB Linux VM
     * (docs/hazelcast-facts.md, fact 14): the figures engine-cost's table sets beside its own.
     */
    static final Map<Integer, Double> REFERENCE = Map.of(1, 1246.0, 4, 3165.0, 16, 8825.0, 64, 18690.0);

    @Option(names = "--threads", paramLabel = "N,...", split = ",", defaultValue = "1,4,16,64",
            description = "Thread counts (default: ${DEFAULT-VALUE}).")
    List<Integer> threads;

    @Option(names = "--pairs", paramLabel = "N", defaultValue = "3", description = "Plain/engine pairs per thread count, 2-50 (default: ${DEFAULT-VALUE}).")
    int pairs;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "10s",
            description = "Measured time of each run (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "3s",
            description = "Untimed ops before each run (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    /** A plain loop with 16 threads, before the first pair. */
    @Mixin
    ClusterWarmupOption clusterWarmupOption;

    @Mixin
    ClusterOptions clusterOptions;

    @Mixin
    OutOption out;

    private volatile boolean interrupted;
    /** Why a run's numbers cannot be trusted (an op failed), first one only; the exit is then 1. */
    private final java.util.concurrent.atomic.AtomicReference<String> failure = new java.util.concurrent.atomic.AtomicReference<>();

    @Override
    public Integer call() throws Exception {
        PrintStream console = System.out;
        if (pairs < 2 || pairs > 50) {
            throw new IllegalArgumentException("--pairs must be 2-50, was " + pairs);
        }
        for (int t : threads) {
            if (t < 1 || t > 1024) {
                throw new IllegalArgumentException("--threads must each be 1-1024, was " + t);
            }
        }
        if (duration.toMillis() < 1000 || warmup.isNegative()) {
            throw new IllegalArgumentException("--duration must be at least 1s and --warmup 0 or more");
        }
        clusterOptions.validate(-1);
        RunDirectory.checkWritable(out.dir);
        Path runDir = RunDirectory.choose(out.dir, "engine-cost");
        console.printf(Locale.ROOT, "cp-bench engine-cost: threads %s, %d pairs each, %s measured after %s warm-up per run"
                        + " (about %s in all)%nresults -> %s%n", threads, pairs, Durations.human(duration),
                Durations.human(warmup), Durations.human((duration.toSeconds() + warmup.toSeconds() + 1) * 2 * pairs
                        * threads.size()), runDir);
        console.println("starting " + clusterOptions.describe() + " ...");
        Topology topology = clusterOptions.start(runDir.resolve("members"));
        topology.takeOverShutdown();
        Interruption interruption = new Interruption(() -> interrupted = true, topology::close);
        Map<Integer, List<double[]>> measured = new LinkedHashMap<>();
        try {
            SuiteOptions options = clusterOptions.suiteOptions(-1, SuiteOptions.SEED_DELAY, ProbeSettings.defaults());
            try (ScenarioSession session = ScenarioSession.open(Scenarios.byName("client-leader"), topology, options, null, 1)) {
                var client = session.clients().get(0);
                CasWorkload plain = new CasWorkload(client.getCPSubsystem().getAtomicReference("cpbench-engine-cost")).initialise();
                Duration clusterWarmup = clusterWarmupOption.length(false);
                if (!clusterWarmup.isZero()) {
                    console.printf(Locale.ROOT, "warming the cluster up for %s (plain loop, 16 threads): %,.0f op/s%n",
                            Durations.human(clusterWarmup), timed(plain, 16, Duration.ZERO, clusterWarmup));
                }
                for (int t : threads) {
                    List<double[]> rows = new ArrayList<>();
                    for (int pair = 1; pair <= pairs && !interrupted && failure.get() == null; pair++) {
                        boolean plainFirst = pair % 2 == 1;
                        double a = plainFirst ? plainLoop(plain, t) : engine(client, t);
                        double b = plainFirst ? engine(client, t) : plainLoop(plain, t);
                        double plainRate = plainFirst ? a : b;
                        double engineRate = plainFirst ? b : a;
                        rows.add(new double[]{plainRate, engineRate});
                        console.printf(Locale.ROOT, "  %2d thread%s, pair %d (%s first): plain %,8.0f op/s, engine %,8.0f op/s, ratio %.3f%n",
                                t, t == 1 ? " " : "s", pair, plainFirst ? "plain" : "engine", plainRate, engineRate,
                                engineRate / plainRate);
                    }
                    measured.put(t, rows);
                }
            }
        } finally {
            topology.close();
            try {
                String table = table(measured);
                console.println();
                console.print(table);
                RunDirectory.create(runDir);
                Files.writeString(runDir.resolve("table.md"), "# cp-bench engine-cost\n\n" + table);
                StringBuilder csv = new StringBuilder("threads,pair,plain_ops_per_s,engine_ops_per_s\n");
                measured.forEach((t, rows) -> {
                    for (int i = 0; i < rows.size(); i++) {
                        csv.append(String.format(Locale.ROOT, "%d,%d,%.1f,%.1f%n", t, i + 1, rows.get(i)[0], rows.get(i)[1]));
                    }
                });
                Files.writeString(runDir.resolve("pairs.csv"), csv);
                console.println("wrote table.md and pairs.csv to " + runDir);
                if (failure.get() != null) {
                    System.err.println("cpbench engine-cost: stopped, ops failed: " + failure.get());
                }
            } finally {
                interruption.written();
            }
        }
        if (!interruption.disarm() || interrupted) {
            return ExitCodes.INTERRUPTED;
        }
        return failure.get() == null ? ExitCodes.OK : ExitCodes.FAILED;
    }

    static String table(Map<Integer, List<double[]>> measured) {
        MarkdownTable table = MarkdownTable.of("threads", "pairs", "plain op/s (median)", "engine op/s (median)",
                "engine ÷ plain, median [95% CI]", "reference op/s", "engine ÷ reference").right(0, 1, 2, 3, 5, 6);
        measured.forEach((t, rows) -> {
            if (rows.isEmpty()) {
                return;
            }
            double[] plain = rows.stream().mapToDouble(r -> r[0]).sorted().toArray();
            double[] engine = rows.stream().mapToDouble(r -> r[1]).sorted().toArray();
            double[] ratios = rows.stream().mapToDouble(r -> r[1] / r[0]).toArray();
            Bootstrap.Interval ci = Bootstrap.median95(ratios);
            Double reference = REFERENCE.get(t);
            double engineMedian = Bootstrap.median(engine);
            table.row(Integer.toString(t), Integer.toString(rows.size()), String.format(Locale.ROOT, "%,.0f", Bootstrap.median(plain)),
                    String.format(Locale.ROOT, "%,.0f", engineMedian),
                    String.format(Locale.ROOT, "%.3f [%.3f-%.3f]", ci.median(), ci.low(), ci.high()),
                    reference == null ? "-" : String.format(Locale.ROOT, "%,.0f", reference),
                    reference == null ? "-" : String.format(Locale.ROOT, "%.2f", engineMedian / reference));
        });
        return table.render();
    }

    /** {@code threads} threads calling the op back to back for the duration, after the warm-up; op/s measured. */
    private double plainLoop(CasWorkload op, int threads) throws InterruptedException {
        return timed(op, threads, warmup, duration);
    }

    private double timed(CasWorkload op, int threads, Duration warmup, Duration duration) throws InterruptedException {
        LongAdder done = new LongAdder();
        long start = System.nanoTime();
        long measureFrom = start + warmup.toNanos();
        long end = measureFrom + duration.toNanos();
        CountDownLatch finished = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            Thread worker = new Thread(() -> {
                try {
                    long now;
                    while ((now = System.nanoTime()) < end && !interrupted) {
                        op.execute();
                        if (now >= measureFrom) {
                            done.increment();
                        }
                    }
                } catch (Exception e) {
                    failure.compareAndSet(null, "plain loop, " + threads + " threads: " + io.cpbench.core.run.Driver.describe(e));
                } finally {
                    finished.countDown();
                }
            }, "cpbench-plain-" + i);
            worker.setDaemon(true);
            worker.start();
        }
        finished.await();
        return done.sum() / ((Math.max(System.nanoTime(), end) - measureFrom) / 1e9);
    }

    private double engine(com.hazelcast.core.HazelcastInstance client, int threads) {
        LoadSpec spec = LoadSpec.builder().mix("cas").clients(1).threads(threads).duration(duration).warmup(warmup).build();
        LoadResult r = new LoadEngine(spec, List.of(client), null, null).run();
        if (r.total().all().errors() > 0) {
            failure.compareAndSet(null, "engine, " + threads + " threads: " + r.total().all().errors() + " ops failed: "
                    + r.total().all().errorTypes());
        } else if (r.outcome() != io.cpbench.core.run.Outcome.COMPLETED && !interrupted) {
            failure.compareAndSet(null, "engine, " + threads + " threads: " + r.outcome() + " (" + r.reason() + ")");
        }
        return r.total().all().opsPerSecond();
    }
}
