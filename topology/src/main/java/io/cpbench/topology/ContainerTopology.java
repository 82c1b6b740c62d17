package io.cpbench.topology;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Ports;
import io.cpbench.topology.net.NetworkControl;
import io.cpbench.topology.net.NetworkEmulator;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.lifecycle.Startables;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Each member in its own Docker container, started through Testcontainers from an image built on this machine
 * ({@link ContainerImage}), on a Docker network of the run's own. Members run cp-bench's member launcher with the
 * same {@link MemberCommand} as local members; or, for another Hazelcast release ({@link #startStock}), that
 * release's stock jar alone with an XML configuration ({@link StockXml}). Members talk to each other by network alias on port
 * {@value #MEMBER_PORT}; clients on the host reach each member at a port published on 127.0.0.1 (Hazelcast's
 * advanced networking announces that port to clients), so smart and unisocket clients both work.
 * <p>
 * Network (b): {@code tc netem} inside the slow member's container where the kernel has netem; otherwise cp-bench's
 * network emulator on the host, in front of every member and client connection (members then announce a proxy on
 * the network's gateway). {@link NetworkControl#method()} says which.
 * <p>
 * Without Ryuk (its image cannot be pulled here) cp-bench removes what it creates: on close, on Ctrl-C (shutdown
 * hook) and on failure; everything carries the label {@value #LABEL}, and a start removes labelled containers and
 * networks whose creating process is gone.
 */
final class ContainerTopology extends StartedTopology {

    static final int MEMBER_PORT = 5702;
    static final int CLIENT_PORT = 5701;
    static final String LABEL = "io.cpbench";
    static final String LABEL_CLUSTER = "io.cpbench.cluster";
    static final String LABEL_PID = "io.cpbench.pid";
    static final String LOOPBACK = "127.0.0.1";

    private final TopologySpec spec;
    private final DockerClient docker;
    private final Network network;
    private final ContainerImage.Built image;
    private final ContainerLayout layout;
    private final List<GenericContainer<?>> containers = new ArrayList<>();
    private final List<ContainerLog> logs = new ArrayList<>();
    private final NetworkControl networkControl;
    private final ScheduledExecutorService watchdogs = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "cpbench-container-pause-watchdog");
        t.setDaemon(true);
        return t;
    });
    private final Map<Integer, ScheduledFuture<?>> paused = new ConcurrentHashMap<>();
    /** The release the members run as stock members ({@link #startStock}), or null for cp-bench's member launcher. */
    private final HazelcastRelease stock;

    private ContainerTopology(TopologySpec spec, DockerClient docker, Network network, ContainerImage.Built image,
                              ContainerLayout layout, List<MemberSettings> settings, HazelcastRelease stock) {
        super(spec, layout.ports(), settings);
        this.stock = stock;
        this.spec = spec;
        this.docker = docker;
        this.network = network;
        this.image = image;
        this.layout = layout;
        this.networkControl = layout.netem() ? new ContainerNetem(docker, i -> idOf(members().get(i))) : null;
    }

    static Topology start(TopologySpec spec) {
        return start(spec, null, null);
    }

    /**
     * Members of {@code release} in containers, as stock members: an image of its jar alone ({@link
     * ContainerImage#ensureStock}), each member started by {@code HazelcastMemberStarter} from an XML configuration
     * ({@link StockXml}) with the same addresses as cp-bench's container members. No cp-bench class on the members,
     * so leadership comes from their published metrics ({@link Leadership#METRICS}); the network is direct (no
     * emulator, no netem) and there are no fault injections, as with {@link StockTopology}.
     */
    static Topology startStock(TopologySpec spec, HazelcastRelease release, Path jar) {
        if (spec.emulateNetwork()) {
            throw new IllegalArgumentException("stock members in containers run on a direct network only");
        }
        return start(spec, release, jar);
    }

    private static Topology start(TopologySpec spec, HazelcastRelease stock, Path jar) {
        PrintStream log = System.err;
        DockerClient docker = DockerOps.dockerClient();
        DockerOps.sweepStale(docker, log);
        ContainerImage.Built image = stock == null ? ContainerImage.ensure(docker, log)
                : ContainerImage.ensureStock(docker, log, stock, jar);
        if (image.cached()) {
            log.println("[containers] image " + image.image() + " (cached)");
        }
        String clusterName = "cpbench-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        Network network = null;
        String subnetPrefix = null;
        RuntimeException lastFailure = null;
        // A /24 of the run's own, so each member's address is known before it starts: the emulator's proxies reach
        // members there directly. Docker refuses a subnet that overlaps another network; the next is tried.
        for (int k = 0; k < 64 && network == null; k++) {
            String prefix = "10.213." + ((ProcessHandle.current().pid() + k) % 250) + ".";
            Network candidate = Network.builder()
                    .createNetworkCmdModifier(cmd -> cmd.withName(clusterName).withLabels(DockerOps.labels(clusterName))
                            .withIpam(new com.github.dockerjava.api.model.Network.Ipam().withConfig(
                                    new com.github.dockerjava.api.model.Network.Ipam.Config()
                                            .withSubnet(prefix + "0/24").withGateway(gatewayOf(prefix)))))
                    .build();
            try {
                candidate.getId();
                network = candidate;
                subnetPrefix = prefix;
            } catch (RuntimeException overlaps) {
                lastFailure = overlaps;
            }
        }
        if (network == null) {
            throw new TopologyException("cannot create a Docker network for the members: "
                    + (lastFailure == null ? "no free subnet" : ContainerImage.rootMessage(lastFailure)), lastFailure);
        }
        int n = spec.memberCount();
        PortPlan ports = null;
        int memberProxyFirst = 0;
        try {
            boolean netem = spec.emulateNetwork() && DockerOps.netemWorks(docker, image.image());
            boolean emulated = spec.emulateNetwork() && !netem;
            ports = emulated ? PortPlan.pick(spec, false) : PortPlan.pick(spec, false).direct(n);
            memberProxyFirst = emulated
                    ? FreePorts.consecutive(List.of(gatewayOf(subnetPrefix)), n, ports.outboundTo(n - 1) + 100) : 0;
            ContainerLayout layout = new ContainerLayout(emulated, netem, subnetPrefix, ports, memberProxyFirst);
            List<MemberSettings> settings = settings(spec, clusterName, layout);
            ContainerTopology topology = new ContainerTopology(spec, docker, network, image, layout, settings, stock);
            return topology.becomeReady(spec);
        } catch (RuntimeException e) {
            DockerOps.removeNetwork(docker, network);
            if (ports != null) {
                ports.release(n);
            }
            FreePorts.release(memberProxyFirst, n);
            throw e;
        }
    }

    /** Every member's settings: member endpoint by alias (or gateway proxy), client endpoint on the host. */
    static List<MemberSettings> settings(TopologySpec spec, String clusterName, ContainerLayout layout) {
        int n = spec.memberCount();
        List<String> memberAddresses = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            memberAddresses.add(layout.emulated() ? layout.gateway() + ":" + (layout.memberProxyFirst() + i)
                    : layout.alias(clusterName, i) + ":" + MEMBER_PORT);
        }
        List<MemberSettings> settings = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String host = layout.emulated() ? layout.gateway() : layout.alias(clusterName, i);
            int publicPort = layout.emulated() ? layout.memberProxyFirst() + i : MEMBER_PORT;
            settings.add(MemberSettings.builder(clusterName, host, MEMBER_PORT, memberAddresses).publicPort(publicPort)
                    .outboundPorts(layout.emulated() ? layout.ports().outboundRange(i) : null)
                    .priority(i == spec.priorityIndex() ? 1 : 0).rebalancePeriodSeconds(spec.rebalancePeriodSeconds())
                    .failover(spec.failover()).tuning(spec.tuning())
                    .clientEndpoint(new MemberSettings.ClientEndpoint(CLIENT_PORT, LOOPBACK + ":" + layout.ports().announced(i)))
                    .build());
        }
        return settings;
    }

    @Override
    List<NetworkEmulator.Endpoint> emulatorEndpoints() {
        List<NetworkEmulator.Endpoint> endpoints = new ArrayList<>();
        if (!layout.emulated()) {
            return endpoints;
        }
        PortPlan ports = layout.ports();
        for (int i = 0; i < settings().size(); i++) {
            // Clients: a loopback proxy; members: a proxy on the gateway. Both reach the member at its own address.
            endpoints.add(new NetworkEmulator.Endpoint(i, ports.announced(i), CLIENT_PORT, ports.outboundFrom(i),
                    ports.outboundTo(i), LOOPBACK, layout.ip(i)));
            endpoints.add(new NetworkEmulator.Endpoint(i, layout.memberProxyFirst() + i, MEMBER_PORT,
                    ports.outboundFrom(i), ports.outboundTo(i), layout.gateway(), layout.ip(i)));
        }
        return endpoints;
    }

    @Override
    void startMembers(long deadline) {
        try {
            Files.createDirectories(spec.logDir());
        } catch (IOException e) {
            throw new TopologyException("cannot create member log directory " + spec.logDir() + ": " + e.getMessage(), e);
        }
        for (int i = 0; i < settings().size(); i++) {
            containers.add(container(i));
        }
        java.util.concurrent.CompletableFuture<Void> started = Startables.deepStart(containers);
        try {
            started.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // Let the starting threads finish (their own wait gives up at the same deadline), so that close() finds
            // every container they created.
            try {
                started.get(60, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // Failed or still going: close() removes what carries this cluster's label.
            }
            throw new TopologyException("member containers did not start within " + spec.startupTimeout().toSeconds()
                    + " s; see " + spec.logDir() + "/member-N.log");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopologyException("interrupted while starting member containers");
        } catch (java.util.concurrent.ExecutionException e) {
            throw new TopologyException("a member container did not start: " + ContainerImage.rootMessage(e)
                    + "; see " + spec.logDir() + "/member-N.log", e);
        }
    }

    /** Where a stock member's XML configuration is put in its container. */
    private static final String STOCK_CONFIG = "/opt/cpbench/member.xml";

    private GenericContainer<?> container(int i) {
        MemberSettings member = settings().get(i);
        List<String> command = new ArrayList<>();
        if (stock == null) {
            List<String> jvmOptions = new ArrayList<>(spec.memberJvmOptions());
            jvmOptions.addAll(ChildJvmOptions.fromEnvironment());
            command.addAll(new MemberCommand("java", image.classpath(), jvmOptions,
                    "/tmp/member-" + i + ".gc.log", member, false).argv());
        } else {
            command.add("java");
            command.addAll(StockXml.jvmArgs(STOCK_CONFIG, image.classpath(), ChildJvmOptions.fromEnvironment()));
        }
        Path log = spec.logDir().resolve("member-" + i + ".log");
        ContainerLog logFile = new ContainerLog(log);
        logs.add(logFile);
        Ports bindings = new Ports();
        bindings.bind(ExposedPort.tcp(CLIENT_PORT), Ports.Binding.bindIpAndPort(LOOPBACK, layout.publishedClientPort(i)));
        Map<String, String> labels = new java.util.HashMap<>(DockerOps.labels(member.clusterName()));
        labels.put("io.cpbench.member", Integer.toString(i));
        @SuppressWarnings("resource")
        GenericContainer<?> container = new GenericContainer<>(image.image())
                .withImagePullPolicy(name -> false)
                .withNetwork(network)
                .withNetworkAliases(layout.alias(member.clusterName(), i))
                .withLabels(labels)
                .withCommand(command.toArray(String[]::new))
                .withLogConsumer(logFile)
                .waitingFor(new ContainerReady(log, stock == null ? MemberLauncher::printedReady
                        : file -> StockCluster.printedJoined(file, settings().size())).withStartupTimeout(spec.startupTimeout()))
                .withCreateContainerCmdModifier(cmd -> {
                    cmd.withName(layout.alias(member.clusterName(), i));
                    cmd.withExposedPorts(ExposedPort.tcp(CLIENT_PORT));
                    cmd.withIpv4Address(layout.ip(i));
                    cmd.getHostConfig().withPortBindings(bindings).withCapAdd(Capability.NET_ADMIN);
                });
        if (stock != null) {
            container.withCopyToContainer(org.testcontainers.images.builder.Transferable.of(
                    StockXml.of(member, StockTopology.METRICS_SECONDS)), STOCK_CONFIG);
        }
        return container;
    }

    @Override
    public String kind() {
        return stock == null ? TopologyKind.CONTAINERS.label() : TopologyKind.CONTAINERS.label() + ", stock " + stock;
    }

    @Override
    public Optional<NetworkControl> network() {
        return networkControl != null ? Optional.of(networkControl) : super.network();
    }

    @Override
    String emulatorPlacement() {
        return "in front of containers (this kernel has no netem)";
    }

    @Override
    public void kill(MemberRef member) {
        String id = idOf(member);
        try {
            docker.killContainerCmd(id).exec(); // SIGKILL
        } catch (RuntimeException alreadyDead) {
            // Not running: as killed.
        }
    }

    @Override
    public boolean isAlive(MemberRef member) {
        if (member.index() >= containers.size() || containers.get(member.index()).getContainerId() == null) {
            return false;
        }
        try {
            InspectContainerResponse.ContainerState state = docker.inspectContainerCmd(idOf(member)).exec().getState();
            return Boolean.TRUE.equals(state.getRunning());
        } catch (RuntimeException gone) {
            return false;
        }
    }

    private String idOf(MemberRef member) {
        String id = member.index() < containers.size() ? containers.get(member.index()).getContainerId() : null;
        if (id == null) {
            throw new IllegalArgumentException("no container for " + member);
        }
        return id;
    }

    @Override
    public Optional<Faults> faults() {
        return stock == null ? Optional.of(faults) : Optional.empty();
    }

    private final Faults faults = new EmulatedFaults() {
        @Override
        public void restart(MemberRef member, Duration timeout) {
            throw new UnsupportedOperationException("restarting a killed member is not supported on the containers"
                    + " topology yet; use --topology local");
        }

        @Override
        public void pause(MemberRef member, Duration atMost) {
            docker.pauseContainerCmd(idOf(member)).exec(); // the cgroup freezer: every thread stops, as SIGSTOP
            ScheduledFuture<?> previous = paused.put(member.index(),
                    watchdogs.schedule(() -> resume(member), atMost.toMillis(), TimeUnit.MILLISECONDS));
            if (previous != null) {
                previous.cancel(false);
            }
        }

        @Override
        public void resume(MemberRef member) {
            ScheduledFuture<?> watchdog = paused.remove(member.index());
            if (watchdog != null) {
                watchdog.cancel(false);
            }
            try {
                docker.unpauseContainerCmd(idOf(member)).exec();
            } catch (RuntimeException notPaused) {
                // Already running.
            }
        }

        @Override
        public void slow(MemberRef member, Duration delay) {
            network().orElseThrow(() -> new IllegalStateException("delays need --network emulated"))
                    .slowDown(member.index(), delay);
        }

        @Override
        public void unslow() {
            network().ifPresent(NetworkControl::clear);
        }

        @Override
        public void healAll() {
            for (Integer index : List.copyOf(paused.keySet())) {
                resume(members().get(index));
            }
            network().ifPresent(n -> {
                try {
                    n.clear();
                } catch (RuntimeException ignored) {
                    // healAll never throws.
                }
            });
            emulator().ifPresent(NetworkEmulator::heal);
        }

        @Override
        public String method() {
            return "containers: docker kill (SIGKILL), docker pause/unpause (cgroup freezer); partitions and delays "
                    + (layout.netem() ? "with tc netem in the container (partitions need the emulator)"
                    : "in the user-space TCP proxy in front of the containers");
        }
    };

    /** The host's address on a network whose addresses start with {@code subnetPrefix} ("10.213.7."). */
    static String gatewayOf(String subnetPrefix) {
        return subnetPrefix + "1";
    }

    @Override
    void stopMembers() {
        // Cleanup runs also on an interrupted thread (Ctrl-C); Docker calls and the retry waits need it uninterrupted.
        boolean interrupted = Thread.interrupted();
        try {
            removeEverything();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void removeEverything() {
        watchdogs.shutdownNow();
        // By label: that finds also the containers a failed start was still creating.
        try {
            for (Container c : docker.listContainersCmd().withShowAll(true)
                    .withLabelFilter(Map.of(LABEL_CLUSTER, clusterName())).exec()) {
                try {
                    docker.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
                } catch (RuntimeException ignored) {
                    // Gone already.
                }
            }
        } catch (RuntimeException ignored) {
            // Best effort; the next start sweeps.
        }
        logs.forEach(ContainerLog::close);
        DockerOps.removeNetwork(docker, network);
        FreePorts.release(layout.memberProxyFirst(), settings().size());
    }


}
