package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.cluster.ClusterOptions;
import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.run.MatrixRun;
import io.cpbench.bench.run.UntilCi;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.service.RunService;
import io.cpbench.lb.ProbeSettings;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * What {@code run} and {@code matrix} share: bring up (or attach to) the cluster, run scenarios in rounds, write
 * every result as it ends, then the table and CSV. On Ctrl-C the scenario in flight is stopped and kept as
 * INCOMPLETE, the table is written from what ran, and the members are stopped.
 */
abstract class SuiteCommand implements Callable<Integer> {

    /** The scenario others are compared with, round by round. */

    @Mixin
    PlanOptions planOptions;

    @Mixin
    ClusterOptions clusterOptions;

    @Mixin
    LiveOptions liveOptions;

    @Mixin
    OutOption out;

    @Option(names = "--slow-member", paramLabel = "N", defaultValue = "-1",
            description = "Member made slow in network (b), by index 1 to members-1; member-0 has leadership priority"
                    + " and leads, so it cannot be the slow one (default: the last member).")
    int slowMember;

    @Mixin
    SlowDelayOption delay;

    @Mixin
    ClusterWarmupOption clusterWarmup;

    @Option(names = "--lb-property", paramLabel = "KEY=VALUE",
            description = "A setting for the latency-aware and leader-aware balancers, as their client property"
                    + " (repeatable), e.g. --lb-property cpbench.lb.exclude-ratio=1.5; see docs/balancers.md.")
    Map<String, String> lbProperties = new java.util.LinkedHashMap<>();

    @Option(names = "--warmup-round", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Before round 1, every scenario runs once for this long through its own client, untimed and"
                    + " not in the results (its client path compiled, its connections made), as JMH warms up before it"
                    + " measures; its op/s are shown beside the measured rounds'; 0 for none (default: 3s with 2 rounds"
                    + " or more, --quick and --until-ci included; none with 1 round, whose scenarios each have --warmup"
                    + " just before they measure, and with several --hazelcast-version releases).")
    Duration warmupRound;

    /**
     * The warm-up round before round 1 by default, when there are rounds to compare (JMH's warm-up iterations). It was
     * 5 s; most of the client path the 13 scenarios share is compiled in the first ones, and 13 x 2 s less brings the
     * quick matrix under 10 minutes with its build (results/reference/local-2core-quick-1s-warmup: round 1 against the
     * later rounds, before and after).
     */
    static final Duration DEFAULT_WARMUP_ROUND = Duration.ofSeconds(3);

    /** {@code --warmup-round}, or its default for {@code rounds} rounds. */
    Duration warmupRound(int rounds) {
        return warmupRound != null ? warmupRound : rounds > 1 ? DEFAULT_WARMUP_ROUND : Duration.ZERO;
    }

    @Option(names = "--strict",
            description = "Exit 3 when any result is UNSTABLE or TIMEBOXED (default: only FAIL makes the exit non-zero).")
    boolean strict;

    @Option(names = "--progress", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "5s",
            description = "How often to print progress during a scenario; 0 for never (default: ${DEFAULT-VALUE}).")
    Duration progressEvery;

    /** With --hazelcast-version A,B: each release's cluster (stock members), from {@link #validate}; else empty. */
    private List<ClusterChoice> releaseChoices = List.of();

    abstract List<Scenario> scenarios();

    abstract int rounds();

    abstract String commandName();

    /** Rounds until the ratios are known ({@code matrix --until-ci}), or null for a fixed number of rounds. */
    UntilCi untilCi() {
        return null;
    }

    /** Whether the user named the scenarios (else the command's default set runs). */
    boolean scenariosGiven() {
        return true;
    }

    @Override
    public Integer call() {
        // Everything the options decide is checked before anything starts or any directory is made.
        List<Scenario> scenarios = scenarios();
        ProbeSettings probeSettings = probeSettings();
        UntilCi untilCi = untilCi();
        ClusterChoice cluster = choose();
        scenarios = fitting(scenarios, cluster);
        validate(scenarios, cluster);
        int rounds = untilCi != null ? untilCi.maxRounds() : rounds();
        MatrixRun run = new MatrixRun(new MatrixRun.Config(commandName(), scenarios, planOptions.plan(), planOptions.plans(),
                rounds, untilCi, clusterWarmup.get(), warmupRound(rounds),
                cluster.suiteOptions(slowMember, delay.value(), probeSettings), cluster, releaseChoices, strict), System.out);
        return RunService.run(run, out.setup().withLive(liveOptions).withProgressEvery(progressEvery));
    }

    /** The cluster the options describe (the first release's, with several). */
    private ClusterChoice choose() {
        if (slowMember < -1) {
            throw new IllegalArgumentException("--slow-member must be a member's index (or leave it out for the last"
                    + " member), was " + slowMember);
        }
        ClusterChoice cluster = clusterOptions.chooseAxisAware(slowMember);
        releaseChoices = clusterOptions.releaseChoices(cluster);
        return releaseChoices.isEmpty() ? cluster : releaseChoices.get(0);
    }

    /**
     * The default scenarios that {@code cluster} can run: where no member can be slowed down (an attached cluster,
     * stock members, a direct network, remote without ssh), the network (b) ones are left out, with one line saying
     * which and why. Scenarios the user named are kept as named (and refused, by {@link #validate}, if they cannot run).
     */
    private List<Scenario> fitting(List<Scenario> scenarios, ClusterChoice cluster) {
        if (scenariosGiven() || (!cluster.stock() && cluster.canSlowAMemberDown())) {
            return scenarios;
        }
        List<String> slow = scenarios.stream().filter(Scenario::slowNetwork).map(Scenario::name).toList();
        if (slow.isEmpty()) {
            return scenarios;
        }
        String why = cluster.attachTopology() ? "an attached cluster's network is its own: cp-bench cannot slow one of its members down"
                : cluster.stock() ? "stock members' links are direct"
                : cluster.remote() ? "the inventory has no ssh section"
                : "--network direct has no emulator to slow a member down";
        System.out.println("left out " + slow.size() + " network (b) scenario" + (slow.size() == 1 ? "" : "s") + " (" + why
                + "): " + String.join(", ", slow) + "; running the " + (scenarios.size() - slow.size()) + " of network (a)");
        return scenarios.stream().filter(sc -> !sc.slowNetwork()).toList();
    }

    /** Checks what the options can tell before anything starts: a mistake here costs a second, not a minute. */
    private void validate(List<Scenario> scenarios, ClusterChoice cluster) {
        clusterOptions.checkSlowNetwork(scenarios, cluster);
        delay.value(); // checked before anything starts
        RunDirectory.checkWritable(out.dir);
    }

    /** The balancers' settings from {@code --lb-property}; a bad key or value is bad input. */
    ProbeSettings probeSettings() {
        for (String key : lbProperties.keySet()) {
            if (!PROBE_KEYS.contains(key)) {
                throw new IllegalArgumentException("--lb-property: unknown key '" + key + "'; known: " + String.join(", ", PROBE_KEYS));
            }
        }
        try {
            return ProbeSettings.fromProperties(lbProperties::get);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--lb-property: " + e.getMessage());
        }
    }

    static final List<String> PROBE_KEYS = List.of(ProbeSettings.CP_GROUP, ProbeSettings.PERIOD_MS, ProbeSettings.TIMEOUT_MS,
            ProbeSettings.WINDOW_MS, ProbeSettings.MIN_SAMPLES, ProbeSettings.EXCLUDE_RATIO, ProbeSettings.READMIT_RATIO,
            ProbeSettings.EXCLUDE_QUANTILE,
            ProbeSettings.SWITCH_MARGIN, ProbeSettings.STICKY, ProbeSettings.LEADER_HINT, ProbeSettings.LEADER_SILENCE_MS);
}
