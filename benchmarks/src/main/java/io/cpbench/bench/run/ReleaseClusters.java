package io.cpbench.bench.run;

import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.cluster.SideBySide;
import io.cpbench.bench.service.RunContext;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The clusters of a comparison of Hazelcast releases ({@code ab --base-version --new-version}): for each pair of
 * client processes, a fresh cluster of each release on this machine, started side by side and both kept up while
 * the sides take turns. Both are stock members with the same configuration (each its release's jar, leader from
 * metrics, links direct), so that the release is all that differs; this build's release too runs as stock members
 * here.
 *
 * <p>Why fresh clusters per pair of client processes: where the Raft leaders and partitions land can differ from one
 * cluster of a release to the next, as a JIT's choices can from one JVM to the next; the bootstrap resamples the
 * process pairs, so the interval holds such a difference instead of crediting it to the release.
 *
 * <p>{@link #close()} may be called from any thread (a Ctrl-C hook): it stops the clusters up, and a start under way
 * stops its members as it ends.
 */
public final class ReleaseClusters implements AbRun.Clusters, AutoCloseable {

    private final ClusterChoice base;
    private final ClusterChoice next;
    private final RunContext context;
    private final Path runDir;
    private final PrintStream console;
    private volatile Topology baseTopology;
    private volatile Topology newTopology;
    private volatile boolean closed;

    /**
     * @param base    BASE's members (stock members of its release, {@link ClusterChoice#stockMembers})
     * @param next    NEW's members
     * @param context the run's: its directory holds each cluster's member logs ({@code members-base-1},
     *                {@code members-new-1}, ...), its console announces the starts, and it owns the clusters
     */
    public ReleaseClusters(ClusterChoice base, ClusterChoice next, RunContext context) {
        if (!base.stock() || !next.stock()) {
            throw new IllegalArgumentException("a comparison of releases runs both sides on stock members");
        }
        this.base = base;
        this.next = next;
        this.context = context;
        this.runDir = context.runDir();
        this.console = context.console();
    }

    /** Stops the clusters of the last pair, then starts BASE's and NEW's anew, side by side. */
    @Override
    public AbRun.Sides sides(int fork) {
        stopClusters();
        if (closed) {
            throw new IllegalStateException("stopped");
        }
        console.println("process pair " + fork + ": starting BASE's " + base.describe() + ", and NEW's "
                + next.describe() + " ...");
        long t0 = System.nanoTime();
        List<ClusterChoice> placed = SideBySide.withPorts(List.of(base, next));
        List<Topology> started;
        try {
            started = SideBySide.start(placed, List.of("BASE's", "NEW's"),
                    List.of(runDir.resolve("members-base-" + fork), runDir.resolve("members-new-" + fork)));
        } catch (TopologyException e) {
            if (closed) {
                throw new IllegalStateException("stopped");
            }
            throw new TopologyException("process pair " + fork + ": " + e.getMessage());
        }
        Topology b = started.get(0);
        Topology n = started.get(1);
        baseTopology = b;
        newTopology = n;
        if (closed) {
            stopClusters();
            throw new IllegalStateException("stopped");
        }
        context.own(b);
        context.own(n);
        console.print("  BASE's ");
        ClusterChoice.printReady(console, b, t0);
        console.print("  NEW's ");
        ClusterChoice.printReady(console, n, t0);
        return new AbRun.Sides(placed.get(0).attachArgs(b), placed.get(1).attachArgs(n), true);
    }

    /** Stops both clusters, if up. */
    private void stopClusters() {
        Topology b = baseTopology;
        Topology n = newTopology;
        baseTopology = null;
        newTopology = null;
        try {
            if (b != null) {
                b.close();
            }
        } catch (TopologyException e) {
            console.println("BASE's cluster did not stop cleanly: " + e.getMessage());
        } finally {
            if (n != null) {
                n.close();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        stopClusters();
    }
}
