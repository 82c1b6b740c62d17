package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.run.LbStudyRun;
import io.cpbench.bench.service.RunService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * How well the leader-aware balancer finds the CP leader with no help from the members: a stock cluster (the
 * Hazelcast jar alone), fresh application clients started one after another under load, judged against the leader
 * the members' own logs name. Starts fall in three phases: the first minute after a priority leadership transfer,
 * a settled cluster, and the first minute after the leader is killed. One long-lived client measures how fast an
 * application already running follows each change.
 */
@Command(name = "lb-study", mixinStandardHelpOptions = true,
        description = {"Measures the leader-aware balancer's hit rate without the member hint: starts a stock 5-member"
                + " cluster (Hazelcast jar alone, priority on one member, so leadership moves to it shortly after the"
                + " group forms), then starts fresh clients under load one after another, each judged against the"
                + " leader named in the members' own logs: right after the priority transfer, when settled, and right"
                + " after kill -9 of the leader. Prints one line per start and writes starts.json."},
        footer = {"", "Example:  cpbench lb-study --starts 20",
                "Exit 1 means the hit rate missed --goal (or the study could not finish all its starts)."})
final class LbStudyCommand implements Callable<Integer> {

    @Option(names = "--starts", defaultValue = "20", description = "Fresh client starts in all (default: ${DEFAULT-VALUE}).")
    int starts;

    @Option(names = "--window", defaultValue = "10s", converter = DurationConverter.class,
            description = "How long each fresh client runs; it must route to the leader within it and still at its end"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration window;

    @Option(names = "--after-change", defaultValue = "60s", converter = DurationConverter.class,
            description = "How long after each leadership change starts count as 'after transfer' or 'after kill'"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration afterChange;

    @Option(names = "--threads", defaultValue = "2", description = "Threads running the seed op in each client (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--priority-member", defaultValue = "4",
            description = "Member with cp-member-priority 1; not member-0, so leadership usually moves to it (default: ${DEFAULT-VALUE}).")
    int priorityMember;

    @Option(names = "--metrics-period", defaultValue = "60",
            description = "Seconds between the members' metrics publications (Hazelcast's default is 60) (default: ${DEFAULT-VALUE}).")
    int metricsSeconds;

    @Option(names = "--base-port", defaultValue = "5901", description = "First member's port (default: ${DEFAULT-VALUE}).")
    int basePort;

    @Option(names = "--goal", defaultValue = "0.95", description = "Hit rate the study must reach for exit 0 (default: ${DEFAULT-VALUE}).")
    double goal;

    @picocli.CommandLine.Mixin
    OutOption out;

    @Override
    public Integer call() {
        return RunService.run(new LbStudyRun(new LbStudyRun.Config(starts, window, afterChange, threads, priorityMember,
                metricsSeconds, basePort, goal), System.out), out.setup());
    }
}
