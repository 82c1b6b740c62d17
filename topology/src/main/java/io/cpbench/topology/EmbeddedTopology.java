package io.cpbench.topology;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Members inside this JVM. Quick to start and handy in tests, but the members share this JVM's CPU, heap and
 * GC with the client, so its numbers are not comparable with the local topology's.
 */
final class EmbeddedTopology extends StartedTopology {

    private final TopologySpec spec;
    private final List<HazelcastInstance> instances = new ArrayList<>();

    private EmbeddedTopology(TopologySpec spec) {
        super(spec, false); // one JVM resolves names one way for all its members: every link proxied
        this.spec = spec;
    }

    static Topology start(TopologySpec spec) {
        return new EmbeddedTopology(spec).becomeReady(spec);
    }

    @Override
    void startMembers(long deadline) {
        // In parallel: each member's start blocks until it has joined, and the first waits for the others.
        List<CompletableFuture<HazelcastInstance>> starting = settings().stream()
                .map(s -> CompletableFuture.supplyAsync(() -> Hazelcast.newHazelcastInstance(s.toConfig())))
                .toList();
        try {
            for (CompletableFuture<HazelcastInstance> future : starting) {
                instances.add(future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopologyException("interrupted while starting embedded members");
        } catch (ExecutionException | TimeoutException e) {
            starting.forEach(f -> f.thenAccept(instance -> instance.getLifecycleService().terminate()));
            throw new TopologyException("embedded members did not start within " + spec.startupTimeout().toSeconds()
                    + " s: " + e.getMessage(), e);
        }
    }

    @Override
    public String kind() {
        return TopologyKind.EMBEDDED.label();
    }

    @Override
    public void kill(MemberRef member) {
        instances.get(member.index()).getLifecycleService().terminate();
    }

    @Override
    public boolean isAlive(MemberRef member) {
        return member.index() < instances.size() && instances.get(member.index()).getLifecycleService().isRunning();
    }

    @Override
    void stopMembers() {
        for (HazelcastInstance instance : instances) {
            try {
                instance.getLifecycleService().terminate();
            } catch (RuntimeException ignored) {
                // Already down.
            }
        }
    }
}
