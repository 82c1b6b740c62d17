package io.cpbench.bench.run;

import com.hazelcast.core.HazelcastInstance;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.service.RunContext;
import io.cpbench.bench.service.RunKind;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.csv.Csv;
import io.cpbench.core.load.Durations;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.status.Status;
import io.cpbench.core.result.MarkdownTable;
import io.cpbench.core.run.Driver;
import io.cpbench.core.stats.Bootstrap;
import io.cpbench.core.workload.CasWorkload;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.Topology;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Does the load engine cost throughput? Per thread count, a plain loop of the seed's op (get + compareAndSet on one
 * AtomicReference; threads calling it back to back, nothing else) and the engine's closed loop of the same op,
 * through the same leader-routed client on one cluster, alternating which goes first, repeated: engine ÷ plain per
 * pair, with a bootstrap interval over pairs.
 *
 * <p>A run runs once. {@link #stop()} may be called from any thread (a Ctrl-C hook): the plain loop in flight ends at
 * once, an engine run at its end, and no other pair starts.
 */
public final class EngineCostRun extends StoppableRun implements RunKind {

    /**
     * Op/s by thread count that an independent leader-routed client reached on a 2-core, 24 GiB Linux VM
     * (docs/hazelcast-facts.md, fact 14): the figures the table sets beside its own.
     */
    static final Map<Integer, Double> REFERENCE = Map.of(1, 1246.0, 4, 3165.0, 16, 8825.0, 64, 18690.0);

    /** Threads of the plain loop that warms the cluster up. */
    private static final int WARMUP_THREADS = 16;

    /**
     * @param threads       thread counts, each 1-1024
     * @param pairs         plain/engine pairs per thread count, 2-50
     * @param duration      measured time of each run, 1 s or more
     * @param warmup        untimed ops before each run, in time
     * @param clusterWarmup a plain loop of {@value #WARMUP_THREADS} threads before the first pair (zero: none)
     * @param cluster       the cluster it runs on
     */
    public record Config(List<Integer> threads, int pairs, Duration duration, Duration warmup, Duration clusterWarmup,
                         ClusterChoice cluster) {
        public Config {
            threads = List.copyOf(threads);
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
        }

        /** About how long the pairs take, in seconds, the cluster's start and warm-up excluded. */
        public long estimateSeconds() {
            return (duration.toSeconds() + warmup.toSeconds() + 1) * 2 * pairs * threads.size();
        }
    }

    private final Config config;
    /** Per thread count, the pairs measured: {plain op/s, engine op/s}. */
    private final Map<Integer, List<double[]>> measured = new ConcurrentHashMap<>();
    /** Why a run's numbers cannot be trusted (an op failed), first one only. */
    private final AtomicReference<String> failure = new AtomicReference<>();

    public EngineCostRun(Config config, PrintStream console) {
        super(console);
        this.config = config;
    }

    @Override
    public String name() {
        return "engine-cost";
    }

    @Override
    public ClusterChoice cluster() {
        return config.cluster();
    }

    @Override
    public void announce(PrintStream out, Path runDir) {
        out.printf(Locale.ROOT, "cp-bench engine-cost: threads %s, %d pairs each, %s measured after %s warm-up per run"
                        + " (about %s in all)%nresults -> %s%n", config.threads(), config.pairs(),
                Durations.human(config.duration()), Durations.human(config.warmup()),
                Durations.human(config.estimateSeconds()), runDir);
    }

    @Override
    public void run(RunContext context) throws InterruptedException {
        run(context.topology(), config.cluster().suiteOptions(-1, SuiteOptions.SEED_DELAY, ProbeSettings.defaults()));
    }

    @Override
    public void write(RunContext context) {
        write(context.runDir());
        if (failure() != null) {
            System.err.println("cpbench engine-cost: stopped, ops failed: " + failure());
        }
    }

    /** FAIL when ops failed and the run stopped early ({@link #failure}), else OK. */
    @Override
    public Status status() {
        return failure() == null ? Status.OK : Status.FAIL;
    }

    /** Why the run stopped early because ops failed, or null. */
    public String failure() {
        return failure.get();
    }

    /** Warms {@code topology} up, then measures every pair through one leader-routed client. */
    private void run(Topology topology, SuiteOptions options) throws InterruptedException {
        try (ScenarioSession session = ScenarioSession.open(Scenarios.byName("client-leader"), topology, options, null, 1)) {
            HazelcastInstance client = session.clients().get(0);
            CasWorkload plain = new CasWorkload(client.getCPSubsystem().getAtomicReference("cpbench-engine-cost")).initialise();
            if (!config.clusterWarmup().isZero()) {
                console.printf(Locale.ROOT, "warming the cluster up for %s (plain loop, %d threads): %,.0f op/s%n",
                        Durations.human(config.clusterWarmup()), WARMUP_THREADS,
                        timed(plain, WARMUP_THREADS, Duration.ZERO, config.clusterWarmup()));
            }
            for (int t : config.threads()) {
                List<double[]> rows = new ArrayList<>();
                measured.put(t, rows);
                for (int pair = 1; pair <= config.pairs() && !stops.stopped() && failure.get() == null; pair++) {
                    boolean plainFirst = pair % 2 == 1;
                    double a = plainFirst ? timed(plain, t, config.warmup(), config.duration()) : engine(client, t);
                    double b = plainFirst ? engine(client, t) : timed(plain, t, config.warmup(), config.duration());
                    double plainRate = plainFirst ? a : b;
                    double engineRate = plainFirst ? b : a;
                    rows.add(new double[]{plainRate, engineRate});
                    console.printf(Locale.ROOT, "  %2d thread%s, pair %d (%s first): plain %,8.0f op/s, engine %,8.0f op/s, ratio %.3f%n",
                            t, t == 1 ? " " : "s", pair, plainFirst ? "plain" : "engine", plainRate, engineRate,
                            engineRate / plainRate);
                }
            }
        }
    }

    /** Prints the table of what was measured and writes it to {@code table.md}, every pair to {@code pairs.csv}. */
    private void write(Path runDir) {
        Map<Integer, List<double[]>> inOrder = new LinkedHashMap<>();
        config.threads().forEach(t -> {
            if (measured.containsKey(t)) {
                inOrder.put(t, List.copyOf(measured.get(t)));
            }
        });
        String table = table(inOrder);
        console.println();
        console.print(table);
        StringBuilder csv = new StringBuilder("threads,pair,plain_ops_per_s,engine_ops_per_s\n");
        inOrder.forEach((t, rows) -> {
            for (int i = 0; i < rows.size(); i++) {
                csv.append(Csv.row(t, i + 1, String.format(Locale.ROOT, "%.1f", rows.get(i)[0]),
                        String.format(Locale.ROOT, "%.1f", rows.get(i)[1]))).append('\n');
            }
        });
        RunDirectory.writeText(runDir, "table.md", "# cp-bench engine-cost\n\n" + table);
        RunDirectory.writeText(runDir, "pairs.csv", csv.toString());
        console.println("wrote table.md and pairs.csv to " + runDir);
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

    /** {@code threads} threads calling the op back to back for {@code duration}, after {@code warmup}; op/s measured. */
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
                    while ((now = System.nanoTime()) < end && !stops.stopped()) {
                        op.execute();
                        if (now >= measureFrom) {
                            done.increment();
                        }
                    }
                } catch (Exception e) {
                    failure.compareAndSet(null, "plain loop, " + threads + " threads: " + Driver.describe(e));
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

    private double engine(HazelcastInstance client, int threads) {
        LoadSpec spec = LoadSpec.builder().mix("cas").clients(1).threads(threads).duration(config.duration())
                .warmup(config.warmup()).build();
        LoadEngine engine = new LoadEngine(spec, List.of(client), null, null);
        stops.running(engine::stop);
        LoadResult r = engine.run();
        stops.running(null);
        if (r.total().all().errors() > 0) {
            failure.compareAndSet(null, "engine, " + threads + " threads: " + r.total().all().errors() + " ops failed: "
                    + r.total().all().errorTypes());
        } else if (r.outcome() != Status.OK && !stops.stopped()) {
            failure.compareAndSet(null, "engine, " + threads + " threads: " + r.outcome() + " (" + r.reason() + ")");
        }
        return r.total().all().opsPerSecond();
    }
}
