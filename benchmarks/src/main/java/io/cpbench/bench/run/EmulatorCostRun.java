package io.cpbench.bench.run;

import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.results.RunLines;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.service.RunContext;
import io.cpbench.bench.service.RunKind;
import io.cpbench.bench.suite.ClusterWarmup;
import io.cpbench.bench.suite.ScenarioRunner;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.result.MarkdownTable;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.stats.Bootstrap;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyKind;
import io.cpbench.topology.TopologySpec;
import io.cpbench.topology.net.EmulatedLinks;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the network emulator costs: the same network (a) scenario on fresh local clusters, alternately on plain
 * loopback ("direct") and through the emulator's proxies ("emulated", nothing delayed), in pairs whose order
 * alternates; the paired ratio of op/s with its bootstrap interval, and the difference of p50s.
 *
 * <p>A run runs once. {@link #stop()} may be called from any thread (a Ctrl-C hook): the scenario run in flight ends,
 * its cluster is stopped, and no other run starts; a side cut short is not counted as a measurement of either path.
 */
public final class EmulatorCostRun extends StoppableRun implements RunKind {

    static final String[] PATHS = {"direct", "emulated"};

    /**
     * @param scenario      the network (a) scenario each run runs
     * @param pairs         direct/emulated pairs, 2-50
     * @param plan          what each run does
     * @param clusterWarmup on each fresh cluster, before its run
     * @param emulatedAll   whether the emulated side sends every connection through the proxies (else the clients'
     *                      connections and the last member's links, as matrix and run have it)
     * @param members       CP members of each cluster, 3-9
     */
    public record Config(Scenario scenario, int pairs, LoadSpec plan, ClusterWarmup clusterWarmup, boolean emulatedAll,
                         int members, java.time.Duration settle) {
        public Config {
            if (settle.isNegative()) {
                throw new IllegalArgumentException("--settle must be 0 or more");
            }
            if (pairs < 2 || pairs > 50) {
                throw new IllegalArgumentException("--pairs must be 2-50, was " + pairs);
            }
            if (scenario.slowNetwork()) {
                throw new IllegalArgumentException("--scenario " + scenario.name() + " is a network (b) scenario; --network"
                        + " direct cannot slow a member down: choose a network (a) scenario (see 'cpbench list')");
            }
            if (members < 3 || members > 9) {
                throw new IllegalArgumentException("--members must be 3-9 (a CP group), was " + members);
            }
        }
    }

    /** One pair's outcome; either side may be missing when interrupted or failed. */
    public record Pair(int number, RunResult direct, RunResult emulated) {
        public boolean complete() {
            return usable(direct) && usable(emulated);
        }

        double ratio() {
            return emulated.measured().opsPerSecond() / direct.measured().opsPerSecond();
        }

        double p50Difference() {
            return emulated.latencyMicros().p50() - direct.latencyMicros().p50();
        }

        private static boolean usable(RunResult r) {
            return r != null && r.status() == Status.OK && r.measured().opsPerSecond() > 0;
        }
    }

    private final Config config;
    private final List<Pair> done = new CopyOnWriteArrayList<>();

    public EmulatorCostRun(Config config, PrintStream console) {
        super(console);
        this.config = config;
    }

    @Override
    public String name() {
        return "emulator-cost";
    }

    @Override
    public String subject() {
        return config.scenario().name();
    }

    @Override
    public void announce(PrintStream out, Path runDir) {
        out.printf(Locale.ROOT, "cp-bench emulator-cost: %s, %d pairs of fresh %d-member local clusters (direct, %s;"
                        + " order alternating); each run %s%n", config.scenario().name(), config.pairs(), config.members(),
                config.emulatedAll() ? "emulated-all" : "emulated", RunLines.describe(config.plan()));
        out.println("results -> " + runDir);
    }

    @Override
    public void run(RunContext context) {
        run(context.runDir(), context);
    }

    @Override
    public void write(RunContext context) {
        write(context.runDir());
    }

    @Override
    public Status status() {
        return status(pairs());
    }

    /** FAIL when a pair has no ratio (a run failed, or ended TIMEBOXED or UNSTABLE) or none ran, else OK. */
    public static Status status(List<Pair> pairs) {
        return !pairs.isEmpty() && pairs.stream().allMatch(Pair::complete) ? Status.OK : Status.FAIL;
    }

    /** The pairs so far; all of them once {@link #run} returned. */
    public List<Pair> pairs() {
        return List.copyOf(done);
    }

    /** Runs every pair, each side on a fresh cluster whose members log under {@code runDir}/direct or /emulated. */
    private List<Pair> run(Path runDir, RunContext context) {
        int pairs = config.pairs();
        for (int pair = 1; pair <= pairs && !stops.stopped(); pair++) {
            RunResult[] byPath = new RunResult[2];
            for (int k = 0; k < 2 && !stops.stopped(); k++) {
                int path = (pair % 2 == 1) ? k : 1 - k; // odd pairs direct first, even pairs emulated first
                console.printf(Locale.ROOT, "[pair %d/%d] %s: starting a fresh cluster ...%n", pair, pairs, PATHS[path]);
                byPath[path] = runOnce(runDir.resolve(PATHS[path]), PATHS[path].equals("emulated"), pair, context);
                if (stops.stopped() && byPath[path] != null && byPath[path].status() != Status.OK) {
                    byPath[path] = null; // cut short by Ctrl-C: not a measurement of either path
                }
                if (byPath[path] != null) {
                    console.println("    " + RunLines.oneLine(byPath[path]));
                }
            }
            Pair result = new Pair(pair, byPath[0], byPath[1]);
            done.add(result);
            if (result.complete()) {
                console.printf(Locale.ROOT, "    pair %d: emulated ÷ direct = %.3f, p50 %+,.0f µs%n", pair, result.ratio(),
                        result.p50Difference());
            }
        }
        return pairs();
    }

    /** Prints the table of the pairs so far and writes it to {@code emulator-cost.md}. */
    private void write(Path runDir) {
        String table = table(config.scenario(), pairs(), stops.stopped());
        console.println();
        console.print(table);
        RunDirectory.writeText(runDir, "emulator-cost.md", table);
    }

    private RunResult runOnce(Path dir, boolean emulated, int pair, RunContext context) {
        RunDirectory.create(dir);
        int members = config.members();
        TopologySpec spec = TopologySpec.builder(dir.resolve("members-" + pair)).members(members).emulateNetwork(emulated)
                .settle(config.settle()).links(config.emulatedAll() ? EmulatedLinks.ALL : EmulatedLinks.slowMember(members - 1)).build();
        // owned by the run's context: on Ctrl-C the members stop after the pairs so far are written, not before
        try (Topology topology = context.own(TopologyKind.LOCAL.start(spec))) {
            ScenarioRunner runner = new ScenarioRunner(topology, config.plan(), dir, SuiteOptions.defaults(), ScenarioRunner.ProgressSink.NONE);
            stops.running(runner::stop);
            if (stops.stopped()) {
                return null;
            }
            runner.warmCluster(config.clusterWarmup(), null);
            return runner.run(config.scenario(), pair);
        } finally {
            stops.running(null);
        }
    }

    /** The pairs and the ratio's median with its 95 % bootstrap CI, as markdown. */
    public static String table(Scenario chosen, List<Pair> pairs, boolean interrupted) {
        List<List<String>> rows = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Double> differences = new ArrayList<>();
        for (Pair pair : pairs) {
            if (!pair.complete()) {
                rows.add(List.of(Integer.toString(pair.number()), describe(pair.direct()), describe(pair.emulated()), "-", "", "", ""));
                continue;
            }
            ratios.add(pair.ratio());
            differences.add(pair.p50Difference());
            rows.add(List.of(Integer.toString(pair.number()), fmt("%,.0f", pair.direct().measured().opsPerSecond()),
                    fmt("%,.0f", pair.emulated().measured().opsPerSecond()), fmt("%.3f", pair.ratio()),
                    fmt("%,d", pair.direct().latencyMicros().p50()), fmt("%,d", pair.emulated().latencyMicros().p50()),
                    fmt("%+,.0f", pair.p50Difference())));
        }
        StringBuilder out = new StringBuilder(MarkdownTable.render(List.of("pair", "direct op/s", "emulated op/s",
                "emulated ÷ direct", "direct p50 (µs)", "emulated p50 (µs)", "p50 difference (µs)"), rows));
        out.append('\n');
        pairs.stream().map(Pair::emulated).filter(r -> r != null && r.cluster().networkPath() != null).findFirst()
                .ifPresent(r -> out.append("emulated: ").append(r.cluster().networkPath().method()).append('\n'));
        if (ratios.size() < 2) {
            out.append("Fewer than 2 complete pairs: no interval.\n");
        } else {
            Bootstrap.Interval ratio = Bootstrap.median95(ratios.stream().mapToDouble(Double::doubleValue).toArray());
            Bootstrap.Interval difference = Bootstrap.median95(differences.stream().mapToDouble(Double::doubleValue).toArray());
            out.append(fmt("%s, emulated ÷ direct op/s: median %.3f, 95%% CI %.3f–%.3f (%d pairs)%n",
                    chosen.name(), ratio.median(), ratio.low(), ratio.high(), ratio.n()));
            out.append(fmt("p50 difference per op: median %+,.0f µs, 95%% CI %+,.0f to %+,.0f µs%n",
                    difference.median(), difference.low(), difference.high()));
        }
        if (interrupted) {
            out.append("INCOMPLETE: interrupted after ").append(pairs.size()).append(" pair(s).\n");
        }
        return out.toString();
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    private static String describe(RunResult r) {
        return r == null ? "not run (or interrupted)" : r.status() + (r.measured().opsPerSecond() > 0 ? String.format(Locale.ROOT, " %,.0f", r.measured().opsPerSecond()) : "");
    }
}
