package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.run.StockClusterRun;
import io.cpbench.bench.service.RunService;
import io.cpbench.topology.HazelcastRelease;
import io.cpbench.topology.StockCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

@Command(name = "stock-cluster", mixinStandardHelpOptions = true,
        description = {"Starts a CP cluster the way a user without cp-bench would: each member a JVM running the stock"
                + " Hazelcast jar alone (HazelcastMemberStarter) with an XML configuration, no cp-bench class on it."
                + " Runs until Ctrl-C (or --for), then stops every member. Point 'cpbench run/matrix --topology attach"
                + " --connect ...' or an application at it."},
        footer = {"", "Example:  cpbench stock-cluster --members 5 --priority-member 0",
                "          cpbench matrix --quick --topology attach --cluster-name stock --connect 127.0.0.1:5801 --network direct"
                + " --scenario client-leader,client-follower,client-leader-aware"})
final class StockClusterCommand implements Callable<Integer> {

    @Option(names = "--members", defaultValue = "5", description = "CP members, 3-9 (default: ${DEFAULT-VALUE}).")
    int members;

    @Option(names = "--cluster-name", defaultValue = "stock", description = "Cluster name (default: ${DEFAULT-VALUE}).")
    String clusterName;

    @Option(names = "--base-port", defaultValue = "5801", description = "First member's port; 0 picks free ones (default: ${DEFAULT-VALUE}).")
    int basePort;

    @Option(names = "--priority-member", defaultValue = "0",
            description = "Member given cp-member-priority 1; -1 for none (default: ${DEFAULT-VALUE}).")
    int priorityMember;

    @Option(names = "--rebalance-period", defaultValue = "5",
            description = "hazelcast.raft.leadership.rebalance.period in seconds (default: ${DEFAULT-VALUE}).")
    int rebalanceSeconds;

    @Option(names = "--metrics-period", defaultValue = "60",
            description = "How often members publish Raft metrics and collect metrics, in seconds"
                    + " (hazelcast.diagnostics.metrics.period.seconds; Hazelcast's default is 60, so cp-bench's"
                    + " leadership checks wait up to that long) (default: ${DEFAULT-VALUE}).")
    int metricsSeconds;

    @Option(names = "--dir", defaultValue = "results/runs",
            description = "Where the run directory goes (<dir>/<time>-stock-cluster), with the members' XML configurations"
                    + " and logs in its members/ (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--hazelcast-version", paramLabel = "V",
            description = "The Hazelcast release the members run, 5.0.0-5.4.0 (5.5.0 and later need an Enterprise licence for"
                    + " CP): its jar from the local Maven repository, fetched once from Maven Central when it is not there"
                    + " (default: this build's release).")
    String hazelcastVersion;

    @Option(names = "--for", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Stop after this long (for example 10m); default: until Ctrl-C.")
    Duration limit;

    @Override
    public Integer call() {
        // Checked before any member starts: the spec refuses members, ports, priority and periods that cannot work.
        StockCluster.Spec spec = new StockCluster.Spec(clusterName, members, basePort, priorityMember, rebalanceSeconds,
                metricsSeconds, dir);
        if (limit != null && limit.isZero()) {
            throw new IllegalArgumentException("--for must be longer than 0s");
        }
        HazelcastRelease release = hazelcastVersion == null ? HazelcastRelease.build() : new HazelcastRelease(hazelcastVersion);
        if (!release.isBuild()) {
            if (!java.nio.file.Files.isRegularFile(release.localJar())) {
                System.out.println("fetching " + release.source() + " into " + release.localJar().getParent() + " ...");
            }
            spec = new StockCluster.Spec(clusterName, members, basePort, priorityMember, rebalanceSeconds, metricsSeconds,
                    dir, release.jar());
        }
        return RunService.run(new StockClusterRun(spec, limit, System.out), RunService.Setup.into(dir));
    }
}
