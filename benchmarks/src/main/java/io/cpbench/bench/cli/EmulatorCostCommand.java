package io.cpbench.bench.cli;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.suite.ScenarioRunner;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.Status;
import io.cpbench.core.run.RunPlan;
import io.cpbench.core.stats.Bootstrap;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyKind;
import io.cpbench.topology.TopologySpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * What the network emulator costs: the same scenario on fresh clusters, alternately on plain loopback and through
 * the emulator's proxies (network (a), nothing delayed), in pairs whose order alternates, and the paired ratio of
 * op/s with its bootstrap confidence interval.
 */
@Command(name = "emulator-cost", mixinStandardHelpOptions = true,
        description = {"Measures what cp-bench's network emulator costs: a network (a) scenario on fresh local clusters, "
                + "alternately with --network direct and --network emulated (a pair each; the order alternates between "
                + "pairs), then emulated ÷ direct op/s per pair, its median and 95%% bootstrap CI."},
        footer = {"", "Examples:", "  cpbench emulator-cost                        (5 pairs of client-leader, 10,000 ops each)",
                "  cpbench emulator-cost --pairs 8 --ops 20000 --scenario client-follower"})
final class EmulatorCostCommand implements Callable<Integer> {

    static final String[] PATHS = {"direct", "emulated"};

    @Option(names = "--pairs", paramLabel = "N", defaultValue = "5", description = "Direct/emulated pairs, 2-50 (default: ${DEFAULT-VALUE}).")
    int pairs;

    @Option(names = "--scenario", paramLabel = "NAME", defaultValue = "client-leader", completionCandidates = Completions.ScenarioNames.class,
            description = "A network (a) scenario to run (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--ops", paramLabel = "N", defaultValue = "10000", description = "Measured ops per run (default: ${DEFAULT-VALUE}).")
    long ops;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "2000", description = "Warm-up ops per run (default: ${DEFAULT-VALUE}).")
    long warmup;

    @Option(names = "--cluster-warmup", paramLabel = "N", defaultValue = "5000",
            description = "Untimed ops through a smart client on each fresh cluster first (default: ${DEFAULT-VALUE}).")
    long clusterWarmup;

    @Option(names = "--timebox", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "2m",
            description = "Most one run may take (default: ${DEFAULT-VALUE}).")
    Duration timebox;

    @Option(names = "--members", paramLabel = "N", defaultValue = "5", description = "CP members, 3-9 (default: ${DEFAULT-VALUE}).")
    int members;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/runs",
            description = "Where the run directory is created (default: ${DEFAULT-VALUE}).")
    Path out;

    /** One pair's outcome; either side may be missing when interrupted or failed. */
    record Pair(int number, RunResult direct, RunResult emulated) {
        boolean complete() {
            return usable(direct) && usable(emulated);
        }

        double ratio() {
            return emulated.opsPerSecond() / direct.opsPerSecond();
        }

        double p50Difference() {
            return emulated.latencyMicros().p50() - direct.latencyMicros().p50();
        }

        private static boolean usable(RunResult r) {
            return r != null && r.status() == Status.OK && r.opsPerSecond() > 0;
        }
    }

    private volatile ScenarioRunner current;
    private volatile boolean stopped;

    @Override
    public Integer call() {
        if (pairs < 2 || pairs > 50) {
            throw new IllegalArgumentException("--pairs must be 2-50, was " + pairs);
        }
        Scenario chosen = Scenarios.byName(scenario);
        if (chosen.slowNetwork()) {
            throw new IllegalArgumentException("--scenario " + scenario + " is a network (b) scenario; --network direct"
                    + " cannot slow a member down: choose a network (a) scenario (see 'cpbench list')");
        }
        if (ops < 1 || warmup < 0 || clusterWarmup < 0) {
            throw new IllegalArgumentException("--ops must be 1 or more, --warmup and --cluster-warmup 0 or more");
        }
        if (members < 3 || members > 9) {
            throw new IllegalArgumentException("--members must be 3-9, was " + members);
        }
        if (timebox.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("--timebox must be at least 1s");
        }
        RunDirectory.checkWritable(out);
        RunPlan plan = RunPlan.builder().warmupOps(warmup).ops(ops).timebox(timebox).build();
        Path runDir = RunDirectory.create(out, "emulator-cost");
        PrintStream console = System.out;
        console.printf(Locale.ROOT, "cp-bench emulator-cost: %s, %d pairs of fresh %d-member local clusters (direct, emulated;"
                + " order alternating), %,d ops after %,d warm-up each%n", chosen.name(), pairs, members, ops, warmup);
        console.println("results -> " + runDir);
        List<Pair> done = new java.util.concurrent.CopyOnWriteArrayList<>();
        Interruption interruption = new Interruption(this::stop, () -> { });
        try {
            for (int pair = 1; pair <= pairs && !stopped; pair++) {
                RunResult[] byPath = new RunResult[2];
                for (int k = 0; k < 2 && !stopped; k++) {
                    int path = (pair % 2 == 1) ? k : 1 - k; // odd pairs direct first, even pairs emulated first
                    console.printf(Locale.ROOT, "[pair %d/%d] %s: starting a fresh cluster ...%n", pair, pairs, PATHS[path]);
                    byPath[path] = runOnce(chosen, plan, runDir.resolve(PATHS[path]), PATHS[path].equals("emulated"), pair);
                    if (stopped && byPath[path] != null && byPath[path].status() != Status.OK) {
                        byPath[path] = null; // cut short by Ctrl-C: not a measurement of either path
                    }
                    if (byPath[path] != null) {
                        console.println("    " + SuiteCommand.oneLine(byPath[path]));
                    }
                }
                Pair result = new Pair(pair, byPath[0], byPath[1]);
                done.add(result);
                if (result.complete()) {
                    console.printf(Locale.ROOT, "    pair %d: emulated ÷ direct = %.3f, p50 %+,.0f µs%n", pair, result.ratio(),
                            result.p50Difference());
                }
            }
        } finally {
            try {
                String table = table(chosen, done, stopped);
                console.println();
                console.print(table);
                write(runDir.resolve("emulator-cost.md"), table);
            } finally {
                interruption.written();
            }
        }
        boolean interrupted = !interruption.disarm() || stopped;
        if (interrupted) {
            return ExitCodes.INTERRUPTED;
        }
        return done.stream().allMatch(Pair::complete) ? ExitCodes.OK : ExitCodes.FAILED;
    }

    private void stop() {
        stopped = true;
        ScenarioRunner runner = current;
        if (runner != null) {
            runner.stop();
        }
    }

    private RunResult runOnce(Scenario chosen, RunPlan plan, Path dir, boolean emulated, int pair) {
        RunDirectory.create(dir);
        TopologySpec spec = new TopologySpec(members, 0, "127.0.0.1", 0, 5, TopologySpec.DEFAULT_SETTLE,
                TopologySpec.DEFAULT_STARTUP_TIMEOUT, dir.resolve("members-" + pair), TopologySpec.DEFAULT_MEMBER_JVM_OPTIONS,
                emulated);
        try (Topology topology = TopologyKind.LOCAL.start(spec)) {
            ScenarioRunner runner = new ScenarioRunner(topology, plan, dir, io.cpbench.bench.suite.SuiteOptions.defaults(),
                    (s, r, p) -> { });
            current = runner;
            if (stopped) {
                return null;
            }
            runner.warmCluster(clusterWarmup);
            return runner.run(chosen, pair);
        } finally {
            current = null;
        }
    }

    /** The pairs and the ratio's median with its 95 % bootstrap CI, as markdown. */
    static String table(Scenario chosen, List<Pair> pairs, boolean interrupted) {
        StringBuilder out = new StringBuilder();
        out.append("| pair | direct op/s | emulated op/s | emulated ÷ direct | direct p50 (µs) | emulated p50 (µs) | p50 difference (µs) |\n");
        out.append("| ---- | ----------- | ------------- | ----------------- | --------------- | ----------------- | ------------------- |\n");
        List<Double> ratios = new ArrayList<>();
        List<Double> differences = new ArrayList<>();
        for (Pair pair : pairs) {
            if (!pair.complete()) {
                out.append(String.format(Locale.ROOT, "| %d | %s | %s | - | | | |%n", pair.number(), describe(pair.direct()),
                        describe(pair.emulated())));
                continue;
            }
            ratios.add(pair.ratio());
            differences.add(pair.p50Difference());
            out.append(String.format(Locale.ROOT, "| %d | %,.0f | %,.0f | %.3f | %,d | %,d | %+,.0f |%n", pair.number(),
                    pair.direct().opsPerSecond(), pair.emulated().opsPerSecond(), pair.ratio(),
                    pair.direct().latencyMicros().p50(), pair.emulated().latencyMicros().p50(), pair.p50Difference()));
        }
        out.append('\n');
        if (ratios.size() < 2) {
            out.append("Fewer than 2 complete pairs: no interval.\n");
        } else {
            Bootstrap.Interval ratio = Bootstrap.median95(ratios.stream().mapToDouble(Double::doubleValue).toArray());
            Bootstrap.Interval difference = Bootstrap.median95(differences.stream().mapToDouble(Double::doubleValue).toArray());
            out.append(String.format(Locale.ROOT, "%s, emulated ÷ direct op/s: median %.3f, 95%% CI %.3f–%.3f (%d pairs)%n",
                    chosen.name(), ratio.median(), ratio.low(), ratio.high(), ratio.n()));
            out.append(String.format(Locale.ROOT, "p50 difference per op: median %+,.0f µs, 95%% CI %+,.0f to %+,.0f µs%n",
                    difference.median(), difference.low(), difference.high()));
        }
        if (interrupted) {
            out.append("INCOMPLETE: interrupted after ").append(pairs.size()).append(" pair(s).\n");
        }
        return out.toString();
    }

    private static String describe(RunResult r) {
        return r == null ? "not run (or interrupted)" : r.status() + (r.opsPerSecond() > 0 ? String.format(Locale.ROOT, " %,.0f", r.opsPerSecond()) : "");
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
