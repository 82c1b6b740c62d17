package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.cluster.ClusterOptions;
import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.run.ChaosNemesis;
import io.cpbench.bench.run.ChaosRun;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.service.RunService;
import io.cpbench.core.load.Durations;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.topology.Faults;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code cpbench chaos}: its options, checked, a started cluster, and a {@link ChaosRun} on it (the load, the
 * nemesis, the history and its checkers).
 */
@Command(name = "chaos", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a load while a nemesis injects faults on a schedule (inject, hold for --fault-for, heal, wait"
                + " --interval, repeat), records every op as a history (invoke/ok/fail/info), and checks it: linearizability"
                + " of the registers (read/write/cmpset ops), no lost acknowledged increment, lock exclusion, and"
                + " availability per fault (first successful op after the injection, longest gap, errors).",
                "The clients connect as --scenario says (default client-smart). Several scenarios run one after"
                + " another, each on a fresh cluster and into its own run directory; the exit code is the worst."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:every checker passed", " 1:a checker failed (not linearizable, an invariant broken), or the run failed",
                " 2:bad input; nothing was started", " 3:not decided: the linearizability check ran over its budget, or a fault that came due"
                        + " found no target (no leader) and was skipped",
                "130:interrupted (Ctrl-C); the history so far is checked and kept"},
        footer = {"", "Nemeses: FAULT-TARGET.",
                "  FAULT:",
                "  kill: kill -9 (with --restart, the member is started again and re-admitted to CP after --fault-for)",
                "  pause: SIGSTOP, SIGCONT after --fault-for",
                "  partition: the members hit are cut off from the rest (--cut members|clients|both), healed after --fault-for",
                "  slow: every byte the member sends is delayed by --fault-delay",
                "  TARGET: leader; follower (one, at random); random (any member); minority (2 of 5: the leader and a",
                "  follower); majority (3 of 5: the leader and two followers). kill-majority is refused: CP could not recover.",
                "",
                "Fault table: first ok is the time from the injection to the first success of an op invoked after it (the",
                "unavailability, seed 001's figure, see docs/origins.md); longest gap is the longest time without any successful op until the next",
                "fault (restarts and re-admission included); the last line gives medians and maxima over the run's faults.",
                "", "Examples:",
                "  cpbench chaos --nemesis kill-leader --restart --duration 2m",
                "  cpbench chaos --nemesis pause-leader --failover fast --fault-for 10s --interval 10s",
                "  cpbench chaos --nemesis partition-leader --cut both --duration 90s",
                "  cpbench chaos --nemesis pause-leader --agents 2 --clients 2 --duration 60s"})
final class ChaosCommand implements java.util.concurrent.Callable<Integer> {

    @Option(names = "--nemesis", paramLabel = "FAULT-TARGET", defaultValue = "kill-leader",
            description = "The fault and its target (default: ${DEFAULT-VALUE}); see below.")
    String nemesis;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "2m",
            description = "How long the load runs, faults included (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--fault-for", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "20s",
            description = "How long each fault lasts before it is healed (default: ${DEFAULT-VALUE}, as Jepsen).")
    Duration faultFor;

    @Option(names = "--interval", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "20s",
            description = "Quiet time before the first fault and after each heal (default: ${DEFAULT-VALUE}, as Jepsen).")
    Duration interval;

    @Option(names = "--faults", paramLabel = "N", defaultValue = "0", description = "Inject at most N faults (default: as many as --duration holds).")
    int maxFaults;

    @Option(names = "--restart", description = "kill: start the killed member again when the fault is healed (else kills stop"
            + " at a minority of the members, so the group keeps its majority).")
    boolean restart;

    @Option(names = "--cut", paramLabel = "WHAT", defaultValue = "members",
            description = "partition: cut the member off from members, clients or both (default: ${DEFAULT-VALUE}).")
    String cut;

    @Option(names = "--fault-delay", paramLabel = "TIME", converter = DurationConverter.class,
            description = "slow: the one-way delay added to what the member sends (default: 200ms).")
    Duration delay = Duration.ofMillis(200); // an initial value, not a defaultValue: picocli would apply that after --delay

    @Option(names = "--delay", paramLabel = "TIME", converter = DurationConverter.class, hidden = true)
    void oldDelay(Duration value) {
        Deprecated.spelling("chaos", "--delay", "--fault-delay (the slow fault's one-way delay)");
        delay = value;
    }

    /** read, write and cmpset are the registers the linearizability checker reads; increment and lock have invariants. */
    @Mixin
    WorkloadOptions workload = new WorkloadOptions("read=2,write=1,cmpset=1,increment=1", 4, 2, 4);

    /** How the clients connect: client-smart unless named; several run one after another. */
    @Mixin
    ScenarioOption scenarioOption;

    @Option(names = "--time-budget", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "60s",
            description = "Time the linearizability check may take (default: ${DEFAULT-VALUE}).")
    Duration timeBudget;

    @Option(names = "--warmup", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "2s",
            description = "The load's own untimed ops before the faults begin, 0 for none (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Mixin
    ClusterWarmupOption clusterWarmup;

    @Mixin
    ClusterOptions clusterOptions;

    @Mixin
    AgentOptions agentOptions;

    @Mixin
    LiveOptions liveOptions;


    @picocli.CommandLine.Mixin
    OutOption out;


    /** The load under the faults: the workload options after --warmup, and 10 s for ops in flight at the end. */
    LoadSpec spec() {
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("--warmup must be 0 or more, was " + Durations.human(warmup));
        }
        return workload.applyAll(LoadSpec.builder()).duration(duration).warmup(warmup)
                .drain(Duration.ofSeconds(10)).build();
    }

    @Override
    public Integer call() throws Exception {
        ChaosNemesis.Plan plan = ChaosNemesis.Plan.parse(nemesis);
        Faults.Cut cutWhat;
        try {
            cutWhat = Faults.Cut.valueOf(cut.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--cut must be members, clients or both, not '" + cut + "'");
        }
        if (faultFor.isZero() || interval.isZero() || duration.compareTo(interval.plus(faultFor)) < 0) {
            throw new IllegalArgumentException("--duration (" + Durations.format(duration) + ") must hold at least one --interval ("
                    + Durations.format(interval) + ") and one --fault-for (" + Durations.format(faultFor) + "), both positive");
        }
        if (delay.isZero() || delay.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IllegalArgumentException("--fault-delay must be 1ms-10s");
        }
        if (maxFaults < 0) {
            throw new IllegalArgumentException("--faults must be 0 (no limit) or more");
        }
        ClusterChoice cluster = clusterOptions.choose(-1);
        java.util.Optional<String> noFaults = cluster.whyNoFaults();
        if (noFaults.isPresent()) {
            throw new IllegalArgumentException("chaos: " + noFaults.get());
        }
        if (restart && cluster.containers()) {
            throw new IllegalArgumentException("--restart is not supported on --topology containers yet (a killed member's"
                    + " container is not started again); use --topology local, or kills without --restart");
        }
        plan.validate(cluster.memberCount());
        if ((plan.fault() == ChaosNemesis.Fault.PARTITION || plan.fault() == ChaosNemesis.Fault.SLOW)
                && cluster.startsMembers()) {
            if (!cluster.emulated()) {
                throw new IllegalArgumentException(plan.fault().name().toLowerCase(Locale.ROOT) + " needs --network emulated");
            }
            cluster = cluster.everyLinkProxied(); // the fault picks its member as it goes: every link through the proxies
        }
        List<Scenario> scenarios = scenarioOption.scenariosOr("client-smart");
        LoadSpec spec = spec();
        if (agentOptions.validate() != 0) {
            if (plan.fault() == ChaosNemesis.Fault.PARTITION || plan.fault() == ChaosNemesis.Fault.SLOW) {
                throw new IllegalArgumentException("--agents: chaos takes kill and pause faults with agents; "
                        + plan.fault().name().toLowerCase(Locale.ROOT) + " acts on links that this process proxies");
            }
            scenarios.forEach(s -> agentOptions.checkSplits(spec, s, "the load"));
        }
        RunDirectory.checkWritable(out.dir);
        cluster.failoverPreset().applyToClientsOfThisJvm();
        ChaosNemesis.Schedule schedule = new ChaosNemesis.Schedule(faultFor, interval, maxFaults, restart, cutWhat, delay);
        ClusterChoice on = cluster;
        return RunService.runEach(scenarios.stream().map(scenario -> new ChaosRun(new ChaosRun.Config(plan, schedule, scenario,
                spec, duration, timeBudget, on, workload.quiet, clusterWarmup.length()), System.out)).toList(),
                out.setup().withLive(liveOptions).withAgents(agentOptions));
    }
}
