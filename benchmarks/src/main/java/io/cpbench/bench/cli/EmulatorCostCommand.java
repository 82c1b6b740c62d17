package io.cpbench.bench.cli;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.suite.ScenarioRunner;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.MarkdownTable;
import io.cpbench.core.result.Status;
import io.cpbench.core.run.RunPlan;
import io.cpbench.core.run.StopSwitch;
import io.cpbench.core.stats.Bootstrap;
import io.cpbench.topology.net.EmulatedLinks;
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
        footer = {"", "Examples:", "  cpbench emulator-cost                        (5 pairs of client-leader, 8s measured each)",
                "  cpbench emulator-cost --pairs 6 --ops 10000 --warmup 2000",
                "  cpbench emulator-cost --pairs 8 --duration 20s --scenario client-follower"})
final class EmulatorCostCommand implements Callable<Integer> {

    static final String[] PATHS = {"direct", "emulated"};

    @Option(names = "--pairs", paramLabel = "N", defaultValue = "5", description = "Direct/emulated pairs, 2-50 (default: ${DEFAULT-VALUE}).")
    int pairs;

    @Option(names = "--scenario", paramLabel = "NAME", defaultValue = "client-leader", completionCandidates = Completions.ScenarioNames.class,
            description = "A network (a) scenario to run (default: ${DEFAULT-VALUE}).")
    String scenario;

    /** What each run does: run's and matrix's options; with neither --ops nor --duration, the quick preset's. */
    @picocli.CommandLine.Mixin
    PlanOptions planOptions;

    /** On each fresh cluster, before its run. */
    @picocli.CommandLine.Mixin
    ClusterWarmupOption clusterWarmup;

    @Option(names = "--network", paramLabel = "PATH", defaultValue = "emulated",
            description = "The emulated side of each pair: emulated (clients' connections and the last member's links"
                    + " through the proxies, as matrix and run have it) or emulated-all (every connection) (default: ${DEFAULT-VALUE}).")
    String emulatedPath;

    @Option(names = "--members", paramLabel = "N", defaultValue = "5", description = "CP members, 3-9 (default: ${DEFAULT-VALUE}).")
    int members;

    @picocli.CommandLine.Mixin
    OutOption out;

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

    private final StopSwitch stops = new StopSwitch();

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
        if (!emulatedPath.equals("emulated") && !emulatedPath.equals("emulated-all")) {
            throw new IllegalArgumentException("--network must be emulated or emulated-all (the side compared with direct), was '"
                    + emulatedPath + "'");
        }
        if (members < 3 || members > 9) {
            throw new IllegalArgumentException("--members must be 3-9 (a CP group), was " + members);
        }
        if (planOptions.ops == null && planOptions.duration == null) {
            planOptions.quick = true;
        }
        RunPlan plan = planOptions.plan();
        RunDirectory.checkWritable(out.dir);
        Path runDir = RunDirectory.create(out.dir, "emulator-cost");
        PrintStream console = System.out;
        console.printf(Locale.ROOT, "cp-bench emulator-cost: %s, %d pairs of fresh %d-member local clusters (direct, %s;"
                + " order alternating); each run %s%n", chosen.name(), pairs, members, emulatedPath, SuiteCommand.describe(plan));
        console.println("results -> " + runDir);
        List<Pair> done = new java.util.concurrent.CopyOnWriteArrayList<>();
        Interruption interruption = new Interruption(stops::stop, () -> { });
        try {
            for (int pair = 1; pair <= pairs && !stops.stopped(); pair++) {
                RunResult[] byPath = new RunResult[2];
                for (int k = 0; k < 2 && !stops.stopped(); k++) {
                    int path = (pair % 2 == 1) ? k : 1 - k; // odd pairs direct first, even pairs emulated first
                    console.printf(Locale.ROOT, "[pair %d/%d] %s: starting a fresh cluster ...%n", pair, pairs, PATHS[path]);
                    byPath[path] = runOnce(chosen, plan, runDir.resolve(PATHS[path]), PATHS[path].equals("emulated"), pair);
                    if (stops.stopped() && byPath[path] != null && byPath[path].status() != Status.OK) {
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
                String table = table(chosen, done, stops.stopped());
                console.println();
                console.print(table);
                write(runDir.resolve("emulator-cost.md"), table);
            } finally {
                interruption.written();
            }
        }
        return exitCode(done, !interruption.disarm() || stops.stopped());
    }

    /** Interrupted: 130; a pair without a ratio (a run failed, or ended TIMEBOXED or UNSTABLE): 1; else 0. */
    static int exitCode(List<Pair> pairs, boolean interrupted) {
        if (interrupted) {
            return ExitCodes.INTERRUPTED;
        }
        return !pairs.isEmpty() && pairs.stream().allMatch(Pair::complete) ? ExitCodes.OK : ExitCodes.FAILED;
    }

    private RunResult runOnce(Scenario chosen, RunPlan plan, Path dir, boolean emulated, int pair) {
        RunDirectory.create(dir);
        TopologySpec spec = new TopologySpec(members, 0, "127.0.0.1", 0, 5, TopologySpec.DEFAULT_SETTLE,
                TopologySpec.DEFAULT_STARTUP_TIMEOUT, dir.resolve("members-" + pair), TopologySpec.DEFAULT_MEMBER_JVM_OPTIONS,
                emulated).withLinks(emulatedPath.equals("emulated-all") ? EmulatedLinks.ALL : EmulatedLinks.slowMember(members - 1));
        try (Topology topology = TopologyKind.LOCAL.start(spec)) {
            ScenarioRunner runner = new ScenarioRunner(topology, plan, dir, io.cpbench.bench.suite.SuiteOptions.defaults(),
                    (s, r, p) -> { });
            stops.running(runner::stop);
            if (stops.stopped()) {
                return null;
            }
            runner.warmCluster(clusterWarmup.get(planOptions.quick));
            return runner.run(chosen, pair);
        } finally {
            stops.running(null);
        }
    }

    /** The pairs and the ratio's median with its 95 % bootstrap CI, as markdown. */
    static String table(Scenario chosen, List<Pair> pairs, boolean interrupted) {
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
            rows.add(List.of(Integer.toString(pair.number()), fmt("%,.0f", pair.direct().opsPerSecond()),
                    fmt("%,.0f", pair.emulated().opsPerSecond()), fmt("%.3f", pair.ratio()),
                    fmt("%,d", pair.direct().latencyMicros().p50()), fmt("%,d", pair.emulated().latencyMicros().p50()),
                    fmt("%+,.0f", pair.p50Difference())));
        }
        StringBuilder out = new StringBuilder(MarkdownTable.render(List.of("pair", "direct op/s", "emulated op/s",
                "emulated ÷ direct", "direct p50 (µs)", "emulated p50 (µs)", "p50 difference (µs)"), rows));
        out.append('\n');
        pairs.stream().map(Pair::emulated).filter(r -> r != null && r.networkPath() != null).findFirst()
                .ifPresent(r -> out.append("emulated: ").append(r.networkPath().method()).append('\n'));
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
