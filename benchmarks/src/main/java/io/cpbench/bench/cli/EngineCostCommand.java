package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.ClusterOptions;
import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.run.EngineCostRun;
import io.cpbench.bench.service.RunService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

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

    @Override
    public Integer call() {
        EngineCostRun run = new EngineCostRun(new EngineCostRun.Config(threads, pairs, duration, warmup,
                clusterWarmupOption.length(), clusterOptions.choose(-1)), System.out);
        return RunService.run(run, out.setup());
    }
}
