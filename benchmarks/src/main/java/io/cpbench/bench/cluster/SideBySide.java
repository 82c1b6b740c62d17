package io.cpbench.bench.cluster;

import io.cpbench.topology.FreePorts;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Stock clusters of several releases on this machine, started at once: what a comparison of releases runs on
 * ({@code ab --base-version/--new-version}, {@code matrix --hazelcast-version A,B}). Most of a stock cluster's start
 * is waiting (joins, CP discovery, elections, metrics), so starting them together costs little more than one.
 */
public final class SideBySide {

    private SideBySide() {
    }

    /**
     * The clusters {@code choices} name, on free ports chosen together when the first has none (apart, two starts
     * would pick the same ones), else each on its own --base-port.
     */
    public static List<ClusterChoice> withPorts(List<ClusterChoice> choices) {
        if (choices.get(0).basePort() != 0) {
            return choices;
        }
        int total = choices.stream().mapToInt(ClusterChoice::memberCount).sum();
        int port = FreePorts.consecutive(List.of("127.0.0.1"), total, 5801);
        List<ClusterChoice> placed = new ArrayList<>();
        for (ClusterChoice choice : choices) {
            placed.add(choice.stockMembers(choice.release().version(), port));
            port += choice.memberCount();
        }
        return placed;
    }

    /**
     * Starts every cluster at once; all of them, or none: when one fails, those that started are stopped and the
     * exception names the one that failed.
     *
     * @param names   how messages name each cluster ("BASE's")
     * @param logDirs each cluster's member logs
     */
    public static List<Topology> start(List<ClusterChoice> choices, List<String> names, List<Path> logDirs) {
        List<CompletableFuture<Topology>> starting = new ArrayList<>();
        for (int i = 0; i < choices.size(); i++) {
            ClusterChoice choice = choices.get(i);
            Path logDir = logDirs.get(i);
            starting.add(CompletableFuture.supplyAsync(() -> choice.start(logDir)));
        }
        List<Topology> started = new ArrayList<>();
        String failed = null;
        for (int i = 0; i < starting.size(); i++) {
            try {
                started.add(starting.get(i).join());
            } catch (CompletionException | java.util.concurrent.CancellationException e) {
                // the start stopped its own members
                if (failed == null) {
                    failed = names.get(i) + " cluster did not start: " + (e.getCause() == null ? e.toString()
                            : String.valueOf(e.getCause().getMessage()));
                }
            }
        }
        if (failed != null) {
            stop(started, msg -> { });
            throw new TopologyException(failed);
        }
        return started;
    }

    /** Stops every cluster in {@code clusters}, each whatever happened to the others; problems go to {@code report}. */
    public static void stop(List<Topology> clusters, java.util.function.Consumer<String> report) {
        for (Topology topology : clusters) {
            try {
                topology.close();
            } catch (RuntimeException e) {
                report.accept("a cluster did not stop cleanly: " + e.getMessage());
            }
        }
    }
}
