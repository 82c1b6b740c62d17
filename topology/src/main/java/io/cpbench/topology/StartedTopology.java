package io.cpbench.topology;

import io.cpbench.topology.net.EmulatedLinks;
import io.cpbench.topology.net.NetworkControl;
import io.cpbench.topology.net.NetworkEmulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What the topologies that start their own members share: ports, the network emulator, the member list, the
 * leadership probe, becoming ready, and stopping every member exactly once, on {@link #close()} or on JVM shutdown.
 */
abstract class StartedTopology implements Topology {

    private final List<MemberSettings> settings;
    private final List<MemberRef> members;
    private final Thread shutdownHook = new Thread(this::close, "cpbench-topology-shutdown");
    private final PortPlan ports;
    private NetworkEmulator emulator;
    private Leadership leadership;
    private boolean closed;

    /** Members set up by the spec; {@code leanAllowed}: whether they can proxy the slow member's links alone. */
    StartedTopology(TopologySpec spec, boolean leanAllowed) {
        this(spec, PortPlan.pick(spec, leanAllowed), null);
    }

    /** With members set up by the subclass ({@code settings}), or by the spec when null. */
    StartedTopology(TopologySpec spec, PortPlan ports, List<MemberSettings> settings) {
        this.ports = ports;
        this.settings = settings != null ? List.copyOf(settings) : spec.memberSettings(ports);
        this.members = spec.memberRefs(this.settings);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * The proxies the emulator opens, or none for no emulator: by default one per member, on the spec's host; with
     * only the slow member's links proxied ({@link EmulatedLinks}), one for clients of the slow member, and one per
     * member on the proxy address for the member links that touch the slow member.
     */
    List<NetworkEmulator.Endpoint> emulatorEndpoints() {
        List<NetworkEmulator.Endpoint> endpoints = new ArrayList<>();
        if (!ports.emulated()) {
            return endpoints;
        }
        for (int i = 0; i < settings.size(); i++) {
            if (!ports.lean()) {
                endpoints.add(new NetworkEmulator.Endpoint(i, ports.announced(i), ports.bound(i), ports.outboundFrom(i),
                        ports.outboundTo(i)));
                continue;
            }
            if (i == ports.links().slowMember()) {
                endpoints.add(new NetworkEmulator.Endpoint(i, ports.announced(i), ports.clientPort(i), ports.outboundFrom(i),
                        ports.outboundTo(i)));
            }
            endpoints.add(new NetworkEmulator.Endpoint(i, ports.bound(i), ports.bound(i), ports.outboundFrom(i),
                    ports.outboundTo(i), EmulatedLinks.PROXY_ADDRESS, null));
        }
        return endpoints;
    }

    /** The cluster's ports, and which links cross the emulator. */
    PortPlan ports() {
        return ports;
    }

    /** How the emulator's proxies are placed, added to its description in results; null for the plain case. */
    String emulatorPlacement() {
        return null;
    }

    /** The emulator, for partitions and delays; a clear error on a cluster started without one. */
    NetworkEmulator emulatorOrThrow() {
        return emulator().orElseThrow(() -> new IllegalStateException("partitions and delays need cp-bench's network"
                + " emulator, which this cluster was started without (--network emulated; on containers, a kernel"
                + " without netem)"));
    }

    /**
     * The faults the local-process and container topologies inject alike: a kill is the topology's own, and a
     * partition cuts the members off in the network emulator, healed there. Restarts, pauses and delays are each
     * topology's own.
     */
    abstract class EmulatedFaults implements Faults {

        @Override
        public void kill(MemberRef member) {
            StartedTopology.this.kill(member);
        }

        @Override
        public void isolate(java.util.Collection<MemberRef> side, Cut cut) {
            emulatorOrThrow().isolate(side.stream().map(MemberRef::index).collect(java.util.stream.Collectors.toSet()),
                    cut.members(), cut.clients());
        }

        @Override
        public void heal() {
            emulatorOrThrow().heal();
        }
    }

    /** Starts the members; returns once each has joined, or throws. */
    abstract void startMembers(long deadlineNanos);

    /** Stops every member this topology started; never throws. */
    abstract void stopMembers();

    /** Starts members, connects the probe and waits for the priority member to lead; closes everything on failure. */
    final <T extends StartedTopology> T becomeReady(TopologySpec spec) {
        try {
            long deadline = System.nanoTime() + spec.startupTimeout().toNanos();
            List<NetworkEmulator.Endpoint> endpoints = emulatorEndpoints();
            if (!endpoints.isEmpty()) {
                emulator = NetworkEmulator.start(spec.host(), endpoints, emulatorPlacement(), ports.links());
            }
            startMembers(deadline);
            leadership = Leadership.connect(clusterName(), members, remaining(deadline));
            leadership.awaitReady(priorityMember(), spec.settle(), remaining(deadline));
            @SuppressWarnings("unchecked")
            T self = (T) this;
            return self;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    List<MemberSettings> settings() {
        return settings;
    }

    static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(TimeUnit.SECONDS.toNanos(1), deadline - System.nanoTime()));
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

    /** The emulator every member sits behind, if the cluster was started with one. */
    Optional<NetworkEmulator> emulator() {
        return Optional.ofNullable(emulator);
    }

    @Override
    public Optional<NetworkControl> network() {
        return Optional.ofNullable(emulator);
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
    public final synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (leadership != null) {
            leadership.close();
        }
        stopMembers();
        if (emulator != null) {
            emulator.close();
        }
        ports.release(settings.size());
        takeOverShutdown();
    }
}
