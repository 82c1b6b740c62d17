package io.cpbench.bench.service;

import io.cpbench.bench.agents.AgentPool;
import io.cpbench.bench.agents.LoadSite;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.report.LiveView;
import io.cpbench.topology.MemberTuning;
import io.cpbench.topology.StartedMembers;
import io.cpbench.topology.Topology;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a {@link RunKind} runs with, from {@link RunService}: the console, its run directory (made), the cluster the
 * service started for it, the agents, the live view; and the one way a run starts further clusters, so that Ctrl-C
 * stops them too, after what was measured is written.
 */
public final class RunContext {

    private final PrintStream console;
    private final Path runDir;
    private final Duration progressEvery;
    private final List<StartedMembers> owned = new CopyOnWriteArrayList<>();
    private volatile Topology topology;
    private volatile AgentPool agents;
    private volatile LiveView live;

    RunContext(PrintStream console, Path runDir, Duration progressEvery) {
        this.console = console;
        this.runDir = runDir;
        this.progressEvery = progressEvery;
    }

    public PrintStream console() {
        return console;
    }

    /** Where the run writes; it exists once {@link RunKind#run} is called. */
    public Path runDir() {
        return runDir;
    }

    /** How often a long step (a cluster's start) prints progress. */
    public Duration progressEvery() {
        return progressEvery;
    }

    /** The cluster the service started for the run ({@link RunKind#cluster()}), or null. */
    public Topology topology() {
        return topology;
    }

    /** Where the run's loads run: split between the load agents the service started for it, or in this process. */
    public LoadSite loadSite() {
        AgentPool pool = agents;
        return pool == null ? LoadSite.here() : LoadSite.on(pool);
    }

    /** The live view ({@code --live}), or null. */
    public LiveView live() {
        return live;
    }

    /**
     * Starts (or reaches) a cluster for the run, as every command does: one line saying which, progress on stderr
     * while members start, then "cluster ready". The service owns it from then on ({@link #own}); the run may stop it
     * itself when done with it.
     */
    public Topology start(ClusterChoice cluster, Path logDir, MemberTuning tuning) {
        long startNanos = System.nanoTime();
        Topology started = own(cluster.startAnnounced(console, logDir, tuning, progressEvery, () -> { }));
        ClusterChoice.printReady(console, started, startNanos);
        return started;
    }

    /**
     * Hands a cluster the run started itself to the service: on Ctrl-C its members are stopped only after what was
     * measured is written (rather than at once, by the cluster's own shutdown hook), and at the end of the run in any
     * case. Returns it.
     */
    public <T extends StartedMembers> T own(T cluster) {
        cluster.takeOverShutdown();
        owned.add(cluster);
        return cluster;
    }

    void topology(Topology main) {
        topology = main;
    }

    void agents(AgentPool pool) {
        agents = pool;
    }

    void live(LiveView view) {
        live = view;
    }

    /** Stops every cluster the service owns (a second close of one the run stopped itself is a no-op). */
    void closeClusters() {
        for (StartedMembers t : owned) {
            try {
                t.close();
            } catch (RuntimeException e) {
                System.err.println("cp-bench: stopping a cluster: " + e.getMessage());
            }
        }
    }
}
