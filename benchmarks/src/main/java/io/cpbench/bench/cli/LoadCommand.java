package io.cpbench.bench.cli;

import io.cpbench.core.load.LoadSpecBuilder;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.cluster.ClusterOptions;
import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.run.LoadRun;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.service.RunService;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.OpType;
import io.cpbench.core.load.Stage;
import io.cpbench.lb.ProbeSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code cpbench load}: many clients, a mix of CP ops, a closed or open loop with stages, on the same topologies and
 * scenarios (routing and network) as {@code matrix}. Several scenarios run interleaved, round after round, on one
 * cluster. Each run writes a result (harness {@code load}), its per-interval CSV and one {@code .hlog} per op.
 */
@Command(name = "load", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a load: N clients x T threads, a weighted mix of CP ops, a closed loop or an open loop at a"
                + " rate, optionally in k6-style stages; prints a live line each interval and a summary per stage; checks"
                + " thresholds and invariants (acknowledged increments counted, fenced locks exclusive).",
                "Options override the spec file; without either, the seed's cas op runs on 1 client x 1 thread for 30 s.",
                "--scenario says how the clients connect (routing and network, see 'cpbench list'); several run"
                        + " interleaved, round after round, on one cluster. Without it: client-leader."},
        footer = {"", "Examples:",
                "  cpbench load --quick",
                "  cpbench load --scenario client-leader-aware --mix cas=3,get=1,increment=1 --clients 4 --threads 8 --duration 1m",
                "  cpbench load --rate 2000 --stages 30s:2000,30s:4000 --threads 32 --threshold 'cas:p99<20ms' --threshold 'error_rate<0.1%%'",
                "  cpbench load --spec load.yaml --scenario client-lb,client-leader-aware --rounds 3",
                "  cpbench load --mix noop --rate 200000 --duration 20s --threads 2     (the engine alone, no cluster)",
                "", "Thresholds: [OP|stageN:]METRIC<VALUE; metrics p50 p90 p95 p99 p99.9 max mean (time), rate (op/s),"
                + " error_rate (%% or fraction), errors (count), lag_p50 lag_p99 lag_max (open loop). Exit 99 when one fails."})
final class LoadCommand implements Callable<Integer> {

    @Option(names = "--spec", paramLabel = "FILE", description = "A YAML load spec (see docs/load.md); options below override it.")
    Path specFile;

    /** How the clients connect: scenarios from 'cpbench list' (routing and network), run interleaved. */
    @Mixin
    ScenarioOption scenarioOption;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1", description = "Rounds over the scenarios, 1-100 (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--quick", description = "A short look at everything: mix cas=4,get=2,set=1,increment=2,lock=1, 2 clients"
            + " x 4 threads, closed loop for 20 s after 5 s warm-up.")
    boolean quick;

    @Mixin
    WorkloadOptions workload = WorkloadOptions.engineDefaults();

    @Option(names = "--groups", paramLabel = "G,...", split = ",", description = "CP groups the objects spread over, round robin (default: default).")
    List<String> groups;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class, description = "How long to measure (default 30s).")
    Duration duration;

    @Option(names = "--stages", paramLabel = "D:T,...", description = "Ramps, as k6: e.g. 30s:10,1m:50,30s:0; targets are workers,"
            + " or op/s with --rate/--open.")
    String stages;

    @Option(names = "--open", description = "Stages ramp the rate (open loop) rather than the workers.")
    boolean open;

    @Option(names = "--start", paramLabel = "LEVEL", description = "Level before the first stage: workers (default 1) or op/s (default: --rate, else 0).")
    Double start;

    @Option(names = "--warmup", paramLabel = "TIME", converter = DurationConverter.class, description = "Untimed closed-loop ops with every worker first (default 5s).")
    Duration warmup;

    @Option(names = "--threshold", paramLabel = "EXPR", description = "Pass/fail criterion, repeatable: cas:p99<5ms, error_rate<0.1%%, rate>=1000, stage2:p95<20ms.")
    List<String> thresholds = new ArrayList<>();

    @Option(names = "--abort-on-fail", description = "Stop as soon as an upper-bound threshold is crossed by the numbers so far.")
    boolean abortOnFail;

    @Option(names = "--interval", paramLabel = "TIME", converter = DurationConverter.class, description = "How often numbers are taken, printed and written to the CSV (default 1s).")
    Duration interval;

    /** The run's mix, before the first scenario. */
    @Mixin
    ClusterWarmupOption clusterWarmup;

    @Mixin
    ClusterOptions clusterOptions;

    @Mixin
    LiveOptions liveOptions;

    @Mixin
    OutOption out;

    @Mixin
    AgentOptions agentOptions;

    @Option(names = "--slow-member", paramLabel = "N", defaultValue = "-1", description = "Member made slow in network (b) scenarios (default: the last).")
    int slowMember;

    @Mixin
    SlowDelayOption delay;

    /** The spec these options describe: the file, then the preset, then each option given. */
    LoadSpec spec() {
        LoadSpecBuilder b;
        if (specFile != null) {
            if (!Files.isReadable(specFile)) {
                throw new IllegalArgumentException("--spec: cannot read " + specFile);
            }
            b = LoadSpec.fromYaml(specFile).toBuilder(); // a file without a seed gets a fresh one here
        } else {
            b = LoadSpec.builder();
            if (quick) {
                b.mix("cas=4,get=2,set=1,increment=2,lock=1").clients(2).threads(4).duration(Duration.ofSeconds(20));
            }
        }
        workload.applyGiven(b);
        if (groups != null) {
            b.groups(groups);
        }
        if (stages != null) {
            b.stages(Stage.parseList(stages)).duration(null);
        }
        if (duration != null) {
            if (stages != null) {
                throw new IllegalArgumentException("give --duration or --stages, not both");
            }
            b.duration(duration).stages((List<Stage>) null);
        }
        if (open) {
            b.open(true);
        }
        if (start != null) {
            b.start(start);
        }
        if (warmup != null) {
            b.warmup(warmup);
        }
        thresholds.forEach(b::threshold);
        if (abortOnFail) {
            b.abortOnFail(true);
        }
        if (interval != null) {
            b.interval(interval);
        }
        return b.build();
    }

    List<Scenario> scenarios() {
        List<String> names = scenarioOption.given() ? scenarioOption.names() : List.of("client-leader");
        List<Scenario> list = new ArrayList<>();
        for (String name : names) {
            list.add(Scenarios.byName(name.trim()));
        }
        return list;
    }

    @Override
    public Integer call() {
        LoadSpec spec = spec();
        boolean engineOnly = spec.mix().containsKey(OpType.NOOP);
        List<Scenario> scenarios = engineOnly ? List.of() : scenarios();
        ClusterChoice cluster = engineOnly ? null : clusterOptions.chooseAxisAware(slowMember);
        List<ClusterChoice> releases = engineOnly ? List.of() : clusterOptions.releaseChoices(cluster);
        if (!releases.isEmpty()) {
            cluster = releases.get(0);
        }
        if (!engineOnly) {
            clusterOptions.checkSlowNetwork(scenarios, cluster);
        }
        int agents = agentOptions.validate();
        if (agents != 0 && !releases.isEmpty()) {
            throw new IllegalArgumentException("--agents with several --hazelcast-version releases: a version axis runs"
                    + " its loads in this process");
        }
        if (agents != 0) {
            if (engineOnly) {
                throw new IllegalArgumentException("--agents runs a load on a cluster; a noop mix measures the engine alone");
            }
            scenarios.forEach(s -> agentOptions.checkSplits(spec, s, "the load"));
        }
        SuiteOptions options = engineOnly ? null : cluster.suiteOptions(slowMember, delay.value(), ProbeSettings.defaults());
        LoadRun run = new LoadRun(new LoadRun.Config(spec, scenarios, rounds, clusterWarmup.length(), options, cluster,
                releases, workload.quiet), System.out);
        return RunService.run(run, out.setup().withLive(liveOptions).withAgents(agentOptions));
    }
}
