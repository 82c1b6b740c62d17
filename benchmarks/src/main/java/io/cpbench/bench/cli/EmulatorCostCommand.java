package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.run.EmulatorCostRun;
import io.cpbench.bench.service.RunService;
import io.cpbench.core.load.LoadSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * What the network emulator costs: the same scenario on fresh clusters, alternately on plain loopback and through
 * the emulator's proxies (network (a), nothing delayed), in pairs whose order alternates, and the paired ratio of
 * op/s with its bootstrap confidence interval.
 */
@Command(name = "emulator-cost", mixinStandardHelpOptions = true,
        description = {"Measures what cp-bench's network emulator costs: a network (a) scenario on fresh local clusters, "
                + "alternately with --network direct and --network emulated (a pair each; the order alternates between "
                + "pairs), then emulated ÷ direct op/s per pair, its median and 95%% bootstrap CI.",
                "The scenario is client-leader unless --scenario names others; several run one after another, each"
                + " into its own run directory; the exit code is the worst."},
        footer = {"", "Examples:", "  cpbench emulator-cost                        (5 pairs of client-leader, 8s measured each)",
                "  cpbench emulator-cost --pairs 6 --ops 10000 --warmup 2s",
                "  cpbench emulator-cost --pairs 8 --duration 20s --scenario client-follower"})
final class EmulatorCostCommand implements Callable<Integer> {

    @Option(names = "--pairs", paramLabel = "N", defaultValue = "5", description = "Direct/emulated pairs, 2-50 (default: ${DEFAULT-VALUE}).")
    int pairs;

    /** Network (a) scenarios to run: client-leader unless named; several run one after another. */
    @picocli.CommandLine.Mixin
    ScenarioOption scenarioOption;

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

    @Option(names = "--settle", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "5s",
            description = "How long leader and term must hold still on each fresh cluster before measuring (default: ${DEFAULT-VALUE}).")
    java.time.Duration settle;

    @picocli.CommandLine.Mixin
    OutOption out;

    @Override
    public Integer call() {
        if (!emulatedPath.equals("emulated") && !emulatedPath.equals("emulated-all")) {
            throw new IllegalArgumentException("--network must be emulated or emulated-all (the side compared with direct), was '"
                    + emulatedPath + "'");
        }
        if (planOptions.ops == null && planOptions.duration == null) {
            planOptions.quick = true;
        }
        LoadSpec plan = planOptions.plan();
        // every scenario's configuration is checked before the first pair starts
        List<EmulatorCostRun.Config> configs = scenarioOption.scenariosOr("client-leader").stream()
                .map(scenario -> new EmulatorCostRun.Config(scenario, pairs, plan, clusterWarmup.get(),
                        emulatedPath.equals("emulated-all"), members, settle)).toList();
        return RunService.runEach(configs.stream().map(c -> new EmulatorCostRun(c, System.out)).toList(),
                out.setup());
    }
}
