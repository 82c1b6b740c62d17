package io.cpbench.topology;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Members of another Hazelcast release than this build's, on this machine: a {@link StockCluster} of that release's
 * jar (no cp-bench class on the members, so no member-side helper), reached as an attached cluster is. Leadership
 * comes from the members' published metrics ({@link Leadership#METRICS}); the members' links are direct (no
 * emulated network, no slow member) and there are no fault injections.
 */
final class StockTopology implements Topology {

    /**
     * How often the members publish their Raft metrics (and collect metrics): leadership checks wait about three
     * periods (a fresh reading takes two collections after the moment it vouches for, and a change in the values).
     * 1 s rather than 2 s made a 3-member 5.3.8 cluster ready 5-7 s sooner, and its idle members used no more CPU
     * (results/reference/local-2core-stock-metrics-period).
     */
    static final int METRICS_SECONDS = 1;

    private final StockCluster cluster;
    private final Topology attached;
    private final HazelcastRelease release;

    private StockTopology(StockCluster cluster, Topology attached, HazelcastRelease release) {
        this.cluster = cluster;
        this.attached = attached;
        this.release = release;
    }

    /**
     * Starts {@code spec.members()} stock members of {@code release} (its jar resolved before this call), with the
     * first as priority member unless {@code spec.priorityIndex()} is -1, and attaches to them.
     */
    static Topology start(TopologySpec spec, HazelcastRelease release, Path jar) {
        // a name of its own: two clusters of one run (ab comparing releases) must never take each other's members
        String name = "cpbench-stock-" + release + "-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        StockCluster cluster = StockCluster.start(new StockCluster.Spec(name, spec.memberCount(), spec.basePort(),
                spec.priorityIndex(), spec.rebalancePeriodSeconds(), METRICS_SECONDS, spec.logDir(), jar), spec.startupTimeout());
        try {
            Topology attached = AttachedTopology.attach(name, cluster.addresses(), Duration.ofSeconds(20), spec.settle(),
                    spec.startupTimeout());
            return new StockTopology(cluster, attached, release);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    @Override
    public String kind() {
        return "stock " + release;
    }

    @Override
    public String clusterName() {
        return attached.clusterName();
    }

    @Override
    public List<MemberRef> members() {
        return attached.members();
    }

    @Override
    public Leadership leadership() {
        return attached.leadership();
    }

    @Override
    public void kill(MemberRef member) {
        cluster.kill(member.index());
    }

    @Override
    public boolean isAlive(MemberRef member) {
        return cluster.isAlive(member.index());
    }

    @Override
    public void takeOverShutdown() {
        cluster.takeOverShutdown();
        attached.takeOverShutdown();
    }

    @Override
    public void close() {
        try {
            attached.close();
        } finally {
            cluster.close();
        }
    }
}
