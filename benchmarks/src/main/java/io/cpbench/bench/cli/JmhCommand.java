package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.cluster.ClusterOptions;
import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.jmh.JmhResults;
import io.cpbench.bench.run.JmhFoldRun;
import io.cpbench.bench.run.JmhRun;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.service.RunService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

@Command(name = "jmh", mixinStandardHelpOptions = true,
        description = {"Runs the CP op under JMH, one trial per scenario and mode, in interleaved rounds, on the topologies "
                + "'matrix' runs on: each local trial on a fresh local 5-member cluster set up as by 'run'; with --topology "
                + "remote or attach, every trial on the same running cluster, reached anew by each JMH fork. Folds JMH's "
                + "JSON into cp-bench results and prints the same table. Then measures the harness's own cost per op.",
                "Throughput (thrpt) answers 'how many ops a second'; SampleTime (sample) gives the op-time distribution, "
                        + "closed-loop, so stalls hide behind the op that waited (coordinated omission).",
                "Without --scenario: the 13 scenarios of 'cpbench list' that run by default.",
                "--fold FILE instead turns the JSON of a 'java -jar benchmarks/target/benchmarks.jar ... -rf json' run into results."},
        footer = {"", "Examples:", "  cpbench jmh --quick --scenario client-leader,client-smart",
                "  cpbench jmh --quick --topology remote --inventory lab.json --scenario client-leader,client-follower",
                "  cpbench jmh --fold jmh-result.json"})
final class JmhCommand implements java.util.concurrent.Callable<Integer> {

    @picocli.CommandLine.Mixin
    ClusterOptions clusterOptions;

    @picocli.CommandLine.Mixin
    ScenarioOption scenarioOption;

    @Option(names = "--modes", paramLabel = "MODE", split = ",", defaultValue = "thrpt,sample",
            description = "JMH modes: thrpt, sample (default: ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1",
            description = "Interleaved rounds; each round runs every scenario and mode once, order rotated (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--quick", description = "1 warm-up iteration of 5s, 2 measured iterations of 5s per trial.")
    boolean quick;

    @Option(names = "--warmup-iterations", paramLabel = "N", description = "Warm-up iterations per trial (default: 2; quick: 1).")
    Integer warmupIterations;

    @Option(names = "--warmup-time", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Length of a warm-up iteration (default: 5s).")
    Duration warmupTime;

    @Option(names = "--iterations", paramLabel = "N", description = "Measured iterations per trial (default: 3; quick: 2).")
    Integer iterations;

    @Option(names = "--iteration-time", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Length of a measured iteration (default: 10s; quick: 5s).")
    Duration iterationTime;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1", description = "Client threads (JMH -t) (default: ${DEFAULT-VALUE}).")
    int threads;

    /** In every trial's fork, before the trial: each local trial's cluster is fresh. */
    @picocli.CommandLine.Mixin
    ClusterWarmupOption clusterWarmup;

    @Option(names = "--harness-cost", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also run HarnessCost (about 10s) and report it against the client-leader p50 (default: on).")
    boolean harnessCost;

    @Option(names = "--fold", paramLabel = "JMH_JSON",
            description = "Run nothing: fold this JMH JSON file into cp-bench results (round = fork) and print the table.")
    Path fold;

    @picocli.CommandLine.Mixin
    OutOption out;

    @Override
    public Integer call() {
        if (fold != null) {
            return foldOnly();
        }
        List<Scenario> scenarios = Scenarios.byNames(scenarioOption.names());
        List<String> harnesses = harnesses();
        ClusterChoice cluster = clusterOptions.choose(-1);
        if (scenarios.stream().anyMatch(Scenario::slowNetwork) && !cluster.canSlowAMemberDown()) {
            throw new IllegalArgumentException("network (b) scenarios ("
                    + scenarios.stream().filter(Scenario::slowNetwork).map(Scenario::name).toList()
                    + ") need a local topology with --network emulated, or remote with an inventory that has an ssh section");
        }
        JmhRun.Iterations it = new JmhRun.Iterations(warmupIterations != null ? warmupIterations : quick ? 1 : 2,
                warmupTime != null ? warmupTime : Duration.ofSeconds(5), iterations != null ? iterations : quick ? 2 : 3,
                iterationTime != null ? iterationTime : Duration.ofSeconds(quick ? 5 : 10));
        JmhRun.Config config = new JmhRun.Config(scenarios, harnesses, rounds, it, threads, clusterWarmup.get(),
                clusterOptions.toArgs(), harnessCost, cluster);
        return RunService.run(new JmhRun(config, System.out), out.setup());
    }

    private int foldOnly() {
        if (!Files.isRegularFile(fold)) {
            throw new IllegalArgumentException("--fold: no such file " + fold);
        }
        JmhResults.Folded folded = JmhResults.fold(fold, 0, JmhResults.Reports.NONE);
        if (folded.results().isEmpty() && folded.harnessCosts().isEmpty()) {
            throw new IllegalArgumentException("--fold: " + fold + " holds no CpOpBenchmark or HarnessCost result");
        }
        return RunService.run(new JmhFoldRun(fold, folded, System.out), out.setup());
    }

    private List<String> harnesses() {
        List<String> chosen = new ArrayList<>();
        for (String mode : modes) {
            String harness = switch (mode.trim().toLowerCase(Locale.ROOT)) {
                case "thrpt", "throughput" -> JmhResults.THROUGHPUT;
                case "sample", "sampletime" -> JmhResults.SAMPLE;
                default -> throw new IllegalArgumentException("unknown JMH mode '" + mode + "'; choose thrpt or sample");
            };
            if (!chosen.contains(harness)) {
                chosen.add(harness);
            }
        }
        return chosen;
    }

}
