package io.cpbench.topology;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Members inside this JVM. Quick to start and handy in tests, but the members share this JVM's CPU, heap and
 * GC with the client, so its numbers are not comparable with the local topology's.
 */
final class EmbeddedTopology implements Topology {

    private final List<MemberSettings> settings;
    private final List<MemberRef> members;
    private final List<HazelcastInstance> instances = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::close, "cpbench-embedded-topology-shutdown");
    private Leadership leadership;
    private boolean closed;

    private EmbeddedTopology(TopologySpec spec, List<MemberSettings> settings) {
        this.settings = settings;
        this.members = spec.memberRefs(settings);
    }

    static Topology start(TopologySpec spec) {
        EmbeddedTopology topology = new EmbeddedTopology(spec, spec.memberSettings(LocalProcessTopology.firstPort(spec)));
        Runtime.getRuntime().addShutdownHook(topology.shutdownHook);
        try {
            long deadline = System.nanoTime() + spec.startupTimeout().toNanos();
            // In parallel: each member's start blocks until it has joined, and the first waits for the others.
            List<CompletableFuture<HazelcastInstance>> starting = topology.settings.stream()
                    .map(s -> CompletableFuture.supplyAsync(() -> Hazelcast.newHazelcastInstance(s.toConfig())))
                    .toList();
            for (CompletableFuture<HazelcastInstance> future : starting) {
                topology.instances.add(future.get(spec.startupTimeout().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS));
            }
            topology.leadership = Leadership.connect(topology.clusterName(), topology.members,
                    LocalProcessTopology.remaining(deadline));
            topology.leadership.awaitReady(topology.priorityMember(), spec.settle(), LocalProcessTopology.remaining(deadline));
            return topology;
        } catch (RuntimeException e) {
            topology.close();
            throw e;
        } catch (Exception e) {
            topology.close();
            throw new TopologyException("embedded members did not start: " + e.getMessage(), e);
        }
    }

    @Override
    public String kind() {
        return TopologyKind.EMBEDDED.label();
    }

    @Override
    public String clusterName() {
        return settings.get(0).clusterName();
    }

    @Override
    public List<MemberRef> members() {
        return members;
    }

    @Override
    public Leadership leadership() {
        return leadership;
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
    public void takeOverShutdown() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // Too late to hand over: the hook is already running.
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (leadership != null) {
            leadership.close();
        }
        for (HazelcastInstance instance : instances) {
            try {
                instance.getLifecycleService().terminate();
            } catch (RuntimeException ignored) {
                // Already down.
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // Called from the hook itself.
        }
    }
}
