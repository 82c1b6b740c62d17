package io.cpbench.bench.cluster;

import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.load.Durations;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.FailoverPreset;
import io.cpbench.topology.FaultsOverSsh;
import io.cpbench.topology.HazelcastRelease;
import io.cpbench.topology.Inventory;
import io.cpbench.topology.LeaderView;
import io.cpbench.topology.MemberTuning;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyKind;
import io.cpbench.topology.TopologySpec;
import io.cpbench.topology.net.EmulatedLinks;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which cluster a run measures, and how it is brought up or reached: members started here (local processes,
 * embedded, containers), a running cluster to attach to, or the AWS lab's members named by an inventory. Built with
 * {@link #builder()} (the CLI's cluster options fill one in); {@link Builder#build()} checks every name and range
 * before anything starts, so a run fails on bad input with one line, not halfway through a start.
 */
public final class ClusterChoice {

    /** The network paths: {@code emulated}, {@code emulated-all}, {@code direct}. */
    public static final String[] NETWORKS = {"emulated", "emulated-all", "direct"};

    private final String topology;
    private final int members;
    private final int basePort;
    private final Duration settle;
    private final Duration startupTimeout;
    private final int rebalancePeriod;
    private final String failover;
    private final boolean noPriority;
    private final List<String> memberSettings;
    private final String network;
    private final List<String> connect;
    private final Path inventory;
    private final String clusterName;
    private final Duration connectTimeout;
    private final int slowMember;
    /** --hazelcast-version: null for this build's release. */
    private final String hazelcastVersion;
    /** Whether the members run as stock members even when they are of this build's release (ab comparing releases). */
    private final boolean stockMembers;
    /** Its jar, once resolved. */
    private Path releaseJar;
    /** The parsed inventory, read once. */
    private Inventory parsedInventory;

    ClusterChoice(ClusterChoiceBuilder b) {
        this.topology = b.topology;
        this.members = b.members;
        this.basePort = b.basePort;
        this.settle = b.settle;
        this.startupTimeout = b.startupTimeout;
        this.rebalancePeriod = b.rebalancePeriod;
        this.failover = b.failover;
        this.noPriority = b.noPriority;
        this.memberSettings = b.memberSettings == null ? null : List.copyOf(b.memberSettings);
        this.network = b.network;
        this.connect = b.connect == null ? null : List.copyOf(b.connect);
        this.inventory = b.inventory;
        this.clusterName = b.clusterName;
        this.connectTimeout = b.connectTimeout;
        this.slowMember = b.slowMember;
        this.hazelcastVersion = b.hazelcastVersion;
        this.stockMembers = b.stockMembers;
    }

    public static ClusterChoiceBuilder builder() {
        return new ClusterChoiceBuilder();
    }

    private ClusterChoiceBuilder toBuilder() {
        ClusterChoiceBuilder b = new ClusterChoiceBuilder();
        b.topology = topology;
        b.members = members;
        b.basePort = basePort;
        b.settle = settle;
        b.startupTimeout = startupTimeout;
        b.rebalancePeriod = rebalancePeriod;
        b.failover = failover;
        b.noPriority = noPriority;
        b.memberSettings = memberSettings;
        b.network = network;
        b.connect = connect;
        b.inventory = inventory;
        b.clusterName = clusterName;
        b.connectTimeout = connectTimeout;
        b.slowMember = slowMember;
        b.hazelcastVersion = hazelcastVersion;
        b.stockMembers = stockMembers;
        return b;
    }

    void check(ClusterChoiceBuilder b) {
        checkStock();
        try {
            failoverPreset();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--failover: " + e.getMessage());
        }
        try {
            memberTuning();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--member-setting: " + e.getMessage());
        }
        if (noPriority && (attach() || remote())) {
            throw new IllegalArgumentException("--no-priority applies to the members cp-bench starts (--topology local, embedded or containers)");
        }
        if (memberSettings != null && !memberSettings.isEmpty() && (attach() || remote())) {
            throw new IllegalArgumentException("--member-setting applies to the members cp-bench starts (--topology local, embedded or containers)");
        }
        if (!attach() && !remote()) {
            b.checkMembersItStarts();
        }
        if (startupTimeout.compareTo(Duration.ofSeconds(10)) < 0) {
            throw new IllegalArgumentException("--startup-timeout must be at least 10s, was " + Durations.human(startupTimeout));
        }
        if (connectTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("--connect-timeout must be at least 1s, was " + Durations.human(connectTimeout));
        }
        if (settle.compareTo(startupTimeout) >= 0) {
            throw new IllegalArgumentException("--settle " + Durations.human(settle) + " must be shorter than --startup-timeout "
                    + Durations.human(startupTimeout));
        }
        b.checkConnect(attach());
        if (remote()) {
            inventory();
        }
        checkSlowMember();
    }

    /** A release other than the build's runs as stock members: local or containers, Hazelcast's own settings. */
    private void checkStock() {
        if (!stock()) {
            return;
        }
        HazelcastRelease release = release();
        String why = "--hazelcast-version " + release + (release.isBuild() ? " runs as stock members here"
                : " runs members of a release other than this build's (" + HazelcastRelease.build() + ") as stock members")
                + " (its own jar, no cp-bench class, leader from metrics): ";
        if (!"local".equalsIgnoreCase(topology.trim()) && !containers()) {
            throw new IllegalArgumentException(why + "--topology local or containers only");
        }
        if (memberSettings != null && !memberSettings.isEmpty()) {
            throw new IllegalArgumentException(why + "--member-setting needs cp-bench's member launcher");
        }
        if (!"default".equals(failover)) {
            throw new IllegalArgumentException(why + "their failover settings are Hazelcast's own (--failover default)");
        }
    }

    /** {@code --slow-member}: a member that exists and is not the priority member (which leads). */
    private void checkSlowMember() {
        if (slowMember == -1) {
            return;
        }
        if (attach()) {
            throw new IllegalArgumentException("--slow-member: the attach topology cannot slow a member down");
        }
        int count = remote() ? inventory().members().size() : members;
        int priority = remote() ? inventory().priorityIndex() : 0;
        if (slowMember < 0 || slowMember >= count) {
            throw new IllegalArgumentException("--slow-member must be a member's index, 0-" + (count - 1) + " with "
                    + count + " members (or leave it out for the last one), was " + slowMember);
        }
        if (slowMember == priority) {
            List<String> followers = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                if (i != priority) {
                    followers.add(Integer.toString(i));
                }
            }
            throw new IllegalArgumentException("--slow-member " + slowMember + " is the priority member, which leads;"
                    + " network (b) needs the slow member to be a follower: choose one of " + String.join(", ", followers));
        }
    }

    /** --topology's value: local, embedded, containers, attach or remote. */
    public String topology() {
        return topology;
    }

    /** The most that starting the cluster and settling leadership may take. */
    public Duration startupTimeout() {
        return startupTimeout;
    }

    /** The most a client may take to connect. */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** How many members the cluster has: the inventory's, or --members. */
    public int memberCount() {
        return remote() ? inventory().members().size() : members;
    }

    /**
     * Why chaos faults cannot be injected on this topology, or empty if they can: on local member processes, or on
     * the AWS lab's hosts over SSH (an inventory with an ssh section and one member per host).
     */
    public Optional<String> whyNoFaults() {
        if (remote()) {
            return FaultsOverSsh.usable(inventory()) ? Optional.empty()
                    : Optional.of("the inventory " + inventory + " needs an ssh section and one member per host"
                    + " for faults over SSH");
        }
        if (stock()) {
            return Optional.of("members of another release (--hazelcast-version " + hazelcastVersion + ") run as stock"
                    + " members, which take no faults");
        }
        if (!startsMembers() || !("local".equals(topology) || containers())) {
            return Optional.of("faults act on member processes or containers cp-bench starts (--topology local"
                    + " or containers) or on the AWS lab's hosts over SSH (--topology remote --inventory FILE); --topology "
                    + topology + " has neither");
        }
        return Optional.empty();
    }

    public boolean containers() {
        return "containers".equals(topology);
    }

    public boolean canSlowAMemberDown() {
        if (remote()) {
            return inventory().ssh() != null;
        }
        return !attach() && emulated();
    }

    /** Whether members sit behind the network emulator (either --network emulated or emulated-all). */
    public boolean emulated() {
        return network.startsWith("emulated") && !stock();
    }

    /**
     * Whether the members run as stock members: of another release than this build's (--hazelcast-version), or of
     * any release in a comparison of releases ({@link #stockMembers}).
     */
    public boolean stock() {
        return hazelcastVersion != null && (stockMembers || !release().isBuild());
    }

    /**
     * This choice with stock members of {@code version} (of this build's release too: a comparison of releases runs
     * both sides alike, so that the release is all that differs), the first at {@code basePort} (0: free ports).
     *
     * @throws IllegalArgumentException with one line when the version, or the other options with stock members, are wrong
     */
    public ClusterChoice stockMembers(String version, int firstPort) {
        ClusterChoiceBuilder b = toBuilder();
        b.hazelcastVersion = version;
        b.stockMembers = true;
        b.basePort = firstPort;
        return b.build();
    }

    /** The first member's port: --base-port, 0 for free ones. */
    public int basePort() {
        return basePort;
    }

    /**
     * cp-bench's cluster options with which another process (an ab client process) reaches {@code topology}, which
     * this choice started: attach to its members by address, with this choice's connect timeout.
     */
    public List<String> attachArgs(Topology topology) {
        return List.of("--topology", "attach", "--cluster-name", topology.clusterName(), "--connect",
                topology.members().stream().map(io.cpbench.topology.MemberRef::address).collect(java.util.stream.Collectors.joining(",")),
                "--settle", "1s", "--connect-timeout", connectTimeout.toMillis() + "ms");
    }

    /** The release the members run: --hazelcast-version, or this build's. */
    public HazelcastRelease release() {
        return hazelcastVersion == null ? HazelcastRelease.build() : new HazelcastRelease(hazelcastVersion);
    }

    /**
     * Resolves the members' jar when they run another release (from the local Maven repository, or fetched into it),
     * so that a release that cannot be had fails before anything starts.
     *
     * @throws IllegalArgumentException with one line when it cannot be had
     */
    public ClusterChoice resolveRelease(PrintStream console) {
        if (stock() && releaseJar == null) {
            if (!java.nio.file.Files.isRegularFile(release().localJar())) {
                console.println("fetching " + release().source() + " into " + release().localJar().getParent() + " ...");
            }
            releaseJar = release().jar();
        }
        return this;
    }

    /**
     * This choice with every link through the proxies (--network emulated becomes emulated-all), so that faults
     * may act on any member (partitions, delays of a chosen member).
     */
    public ClusterChoice everyLinkProxied() {
        return "emulated".equals(network) ? toBuilder().network("emulated-all").build() : this;
    }

    /** Which links cross the emulator: all for emulated-all, else the slow member's. */
    public EmulatedLinks links() {
        return "emulated-all".equals(network) ? EmulatedLinks.ALL
                : EmulatedLinks.slowMember(slowMember >= 0 ? slowMember : members - 1);
    }

    /** Whether this topology starts members of its own (local, embedded), rather than attaching to running ones. */
    public boolean startsMembers() {
        return !remote() && !attach();
    }

    /** --topology attach: members someone else started. */
    public boolean attachTopology() {
        return attach();
    }

    private boolean attach() {
        return "attach".equalsIgnoreCase(topology.trim());
    }

    public boolean remote() {
        return "remote".equalsIgnoreCase(topology.trim());
    }

    private Inventory inventory() {
        if (inventory == null) {
            throw new IllegalArgumentException("--topology remote needs --inventory FILE");
        }
        if (parsedInventory == null) {
            parsedInventory = Inventory.read(inventory);
        }
        return parsedInventory;
    }

    /**
     * Settings for opening scenarios on the cluster these options start or reach.
     *
     * @param slowMember the member network (b) slows, -1 for the default
     */
    public SuiteOptions suiteOptions(int slowMember, Duration delay, ProbeSettings probes) {
        return new SuiteOptions(settle, Duration.ofSeconds(120), connectTimeout, slowMember, delay, probes);
    }

    /** The --failover preset; its client side goes to every client this JVM makes (system properties). */
    public FailoverPreset failoverPreset() {
        return FailoverPreset.of(failover);
    }

    /** The --member-setting values. */
    public MemberTuning memberTuning() {
        return MemberTuning.parse(memberSettings);
    }

    public String describe() {
        return attach() ? "cluster '" + clusterName + "' at " + connect
                : remote() ? "the members in " + inventory + " (" + String.join(", ", inventory().addresses()) + ")"
                : stock() ? members + (containers() ? " containers" : " local members") + " of Hazelcast " + release()
                + " (stock jar, leader from metrics, network direct)"
                + (noPriority ? ", no leadership priority" : "")
                : members + " " + topology + " members, network " + network
                + (memberTuning().isEmpty() ? "" : ", " + memberTuning().describe())
                + (noPriority ? ", no leadership priority" : "");
    }

    /** Starts or reaches the cluster. */
    public Topology start(Path logDir) {
        return start(logDir, MemberTuning.NONE);
    }

    /**
     * Starts the cluster (or attaches to it) as every command does: one line saying which, a progress line on stderr
     * every {@code every} while members start, then the start. If the start fails or is interrupted, {@code onFailure}
     * runs before the exception goes on; the start itself has stopped what it started. The caller takes the JVM's
     * shutdown over from the topology ({@link Topology#takeOverShutdown()}) and then says it is ready
     * ({@link #printReady}).
     */
    public Topology startAnnounced(PrintStream console, Path logDir, MemberTuning extra, Duration every,
                            Runnable onFailure) {
        console.println((startsMembers() ? "starting " : "attaching to ") + describe()
                + (extra.isEmpty() ? "" : ", " + extra.describe()) + " ...");
        try (StartProgress ignored = new StartProgress(System.err, every, System.nanoTime(), startsMembers() ? logDir : null)) {
            return start(logDir, extra);
        } catch (RuntimeException | Error e) {
            onFailure.run();
            throw e;
        }
    }

    /** {@code cluster ready in 13.3 s (local): member-0(127.0.0.1:5701, priority) leads, term 1}. */
    public static void printReady(PrintStream console, Topology topology, long startNanos) {
        LeaderView ready = topology.leadership().read();
        console.printf(Locale.ROOT, "cluster ready in %.1f s (%s): %s leads, term %d%n",
                (System.nanoTime() - startNanos) / 1e9, topology.kind(), ready.leader(), ready.term());
    }

    /** As {@link #start(Path)}, with {@code extra} member settings over the --member-setting ones (a sweep's). */
    public Topology start(Path logDir, MemberTuning extra) {
        if (remote()) {
            return TopologyKind.remote(inventory(), connectTimeout, settle, startupTimeout);
        }
        if (attach()) {
            return TopologyKind.attach(clusterName, connect, connectTimeout, settle, startupTimeout);
        }
        if (stock()) {
            if (!extra.isEmpty()) {
                throw new IllegalArgumentException("--hazelcast-version " + release() + " runs stock members, whose"
                        + " settings are Hazelcast's own: " + extra.describe() + " cannot be applied to them");
            }
            resolveRelease(System.out);
            return TopologyKind.parse(topology).startStock(TopologySpec.builder(logDir).members(members).basePort(basePort)
                    .rebalancePeriodSeconds(rebalancePeriod).settle(settle).startupTimeout(startupTimeout)
                    .priorityIndex(noPriority ? -1 : 0).build(), release(), releaseJar);
        }
        TopologyKind kind = TopologyKind.parse(topology);
        TopologySpec.Builder spec = TopologySpec.builder(logDir).members(members).basePort(basePort)
                .rebalancePeriodSeconds(rebalancePeriod).settle(settle).startupTimeout(startupTimeout)
                .emulateNetwork(emulated()).failover(failoverPreset()).tuning(memberTuning().with(extra))
                .priorityIndex(noPriority ? -1 : 0);
        if (emulated()) {
            spec.links(links());
        }
        return kind.start(spec.build());
    }
}
