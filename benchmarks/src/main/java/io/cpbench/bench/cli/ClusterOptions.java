package io.cpbench.bench.cli;

import io.cpbench.bench.run.StartProgress;
import io.cpbench.core.load.Durations;
import io.cpbench.topology.Inventory;
import io.cpbench.topology.LeaderView;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyKind;
import io.cpbench.topology.TopologySpec;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Which cluster to measure, and how to bring it up or reach it. A picocli mixin for the commands; {@link #toArgs()}
 * and {@link #startFromArgs} carry the choice to a JMH fork, which brings up (or reaches) the same cluster.
 */
public final class ClusterOptions {

    @Option(names = "--topology", paramLabel = "KIND", defaultValue = "local", completionCandidates = Completions.Topologies.class,
            description = "local: 5 member JVMs on this machine; embedded: members in this JVM; containers: each member "
                    + "in its own Docker container (Testcontainers; the image is built here, no registry); "
                    + "attach: a running cluster named by --connect; remote: the members an --inventory names (the AWS lab) "
                    + "(default: ${DEFAULT-VALUE}).")
    String topology;

    @Option(names = "--members", paramLabel = "N", defaultValue = "5", description = "CP members to start, 3-9 (default: ${DEFAULT-VALUE}).")
    int members;

    @Option(names = "--base-port", paramLabel = "PORT", defaultValue = "0",
            description = "First member port, 1024-65530; 0 picks free ports from 5701 (default: ${DEFAULT-VALUE}).")
    int basePort;

    @Option(names = "--settle", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "5s",
            description = "How long leader and term must hold still before measuring (default: ${DEFAULT-VALUE}).")
    Duration settle;

    @Option(names = "--startup-timeout", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "180s",
            description = "Most that starting the cluster and settling leadership may take, at least 10s (default: ${DEFAULT-VALUE}).")
    Duration startupTimeout;

    @Option(names = "--rebalance-period", paramLabel = "SECONDS", defaultValue = "5",
            description = "Seconds between Hazelcast's moves of leadership toward the priority member, 1 or more (default: ${DEFAULT-VALUE}).")
    int rebalancePeriod;

    @Option(names = "--failover", paramLabel = "PRESET", defaultValue = "default",
            description = "How fast members and clients detect a failed member: default (Hazelcast's: a paused leader"
                    + " lasts ~25 s), fast (Raft heartbeat 50 ms x 3, election 50 ms, members dead after 5 s silence,"
                    + " clients retry every 50 ms) or fast-raft (as fast, but members keep Hazelcast's 60 s before"
                    + " declaring a member dead: for leader-aware clients); started members only (default: ${DEFAULT-VALUE}).")
    String failover;

    @Option(names = "--no-priority",
            description = "Give no member CP leadership priority: Hazelcast then spreads the leaders of CP groups over the"
                    + " members (for runs over several groups, --groups); the cluster is ready once any leader of the"
                    + " default group has settled. Started members only.")
    boolean noPriority;

    @Option(names = "--member-setting", paramLabel = "KNOB=VALUE",
            description = "A setting of the members cp-bench starts, repeatable: operation-threads, generic-threads,"
                    + " io-threads, raft-uncommitted-entries, raft-append-batch (default: Hazelcast's).")
    List<String> memberSettings;

    @Option(names = "--network", paramLabel = "PATH", defaultValue = "emulated", completionCandidates = Completions.Networks.class,
            description = "emulated: the slow member's links, to clients and to members, through proxies of cp-bench's"
                    + " network emulator, in (a) and (b) alike, so (b) can be switched on; every other connection is direct"
                    + " (on member processes where 127.0.0.2 exists; elsewhere every link is proxied); emulated-all: every"
                    + " connection through the proxies, so that any member can be slowed down or cut off; direct: plain"
                    + " loopback, network (a) only (default: ${DEFAULT-VALUE}).")
    String network;

    @Option(names = "--connect", paramLabel = "HOST:PORT", split = ",",
            description = "With --topology attach: member addresses of the running cluster.")
    List<String> connect;

    @Option(names = "--inventory", paramLabel = "FILE",
            description = "With --topology remote: the lab's inventory (terraform output -json, or cp-bench's inventory JSON).")
    Path inventory;

    @Option(names = "--cluster-name", paramLabel = "NAME", defaultValue = "dev",
            description = "With --topology attach: the cluster's name (default: ${DEFAULT-VALUE}).")
    String clusterName;

    @Option(names = "--connect-timeout", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "20s",
            description = "Most a client may take to connect before the run fails, at least 1s (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout;

    /** The parsed --inventory, read once. */
    private Inventory parsedInventory;
    /** The member network (b) slows, as validated: -1 for the default, the last. */
    private int slowMember = -1;

    /** --network's values. */
    static final String[] NETWORKS = {"emulated", "emulated-all", "direct"};

    /**
     * Checks everything that can be known from the options, before anything starts: names, ranges, addresses, the
     * inventory, and the slow member ({@code -1} for the default, else a follower's index).
     */
    void validate(int slowMember) {
        this.slowMember = slowMember;
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
            try {
                TopologyKind.parse(topology);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown topology '" + topology + "'; choose local, embedded, containers, attach or remote");
            }
            if (!List.of(NETWORKS).contains(network)) {
                throw new IllegalArgumentException("unknown network path '" + network + "'; choose " + String.join(", ", NETWORKS));
            }
            if (members < 3 || members > 9) {
                throw new IllegalArgumentException("--members must be 3-9 (a CP group), was " + members);
            }
            if (basePort != 0 && (basePort < 1024 || basePort > 65535 - members)) {
                throw new IllegalArgumentException("--base-port must be 1024-" + (65535 - members) + ", or 0 to pick free ports; was " + basePort);
            }
            if (rebalancePeriod < 1) {
                throw new IllegalArgumentException("--rebalance-period must be at least 1 (seconds), was " + rebalancePeriod);
            }
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
        if (attach()) {
            if (connect == null || connect.isEmpty()) {
                throw new IllegalArgumentException("--topology attach needs --connect HOST:PORT[,HOST:PORT...]");
            }
            connect.forEach(address -> {
                try {
                    TopologyKind.checkAddress(address.trim());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--connect: " + e.getMessage());
                }
            });
        } else if (connect != null) {
            throw new IllegalArgumentException("--connect is for --topology attach (this run starts its own members)");
        }
        if (remote()) {
            inventory();
        }
        if (slowMember != -1) {
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
                List<String> followers = new java.util.ArrayList<>();
                for (int i = 0; i < count; i++) {
                    if (i != priority) {
                        followers.add(Integer.toString(i));
                    }
                }
                throw new IllegalArgumentException("--slow-member " + slowMember + " is the priority member, which leads;"
                        + " network (b) needs the slow member to be a follower: choose one of " + String.join(", ", followers));
            }
        }
    }

    /** How many members the cluster has: the inventory's, or --members. */
    int memberCount() {
        return remote() ? inventory().members().size() : members;
    }

    /**
     * Why chaos faults cannot be injected on this topology, or empty if they can: on local member processes, or on
     * the AWS lab's hosts over SSH (an inventory with an ssh section and one member per host).
     */
    java.util.Optional<String> whyNoFaults() {
        if (remote()) {
            return io.cpbench.topology.FaultsOverSsh.usable(inventory()) ? java.util.Optional.empty()
                    : java.util.Optional.of("the inventory " + inventory + " needs an ssh section and one member per host"
                    + " for faults over SSH");
        }
        if (!startsMembers() || !("local".equals(topology) || containers())) {
            return java.util.Optional.of("faults act on member processes or containers cp-bench starts (--topology local"
                    + " or containers) or on the AWS lab's hosts over SSH (--topology remote --inventory FILE); --topology "
                    + topology + " has neither");
        }
        return java.util.Optional.empty();
    }

    boolean containers() {
        return "containers".equals(topology);
    }

    boolean canSlowAMemberDown() {
        if (remote()) {
            return inventory().ssh() != null;
        }
        return !attach() && emulated();
    }

    /** Whether members sit behind the network emulator (either --network emulated or emulated-all). */
    boolean emulated() {
        return network.startsWith("emulated");
    }

    /**
     * Faults may act on any member (partitions, delays of a chosen member): --network emulated becomes
     * emulated-all, every link through the proxies.
     */
    void proxyEveryLink() {
        if ("emulated".equals(network)) {
            network = "emulated-all";
        }
    }

    /** Which links cross the emulator: all for emulated-all, else the slow member's. */
    io.cpbench.topology.net.EmulatedLinks links() {
        return "emulated-all".equals(network) ? io.cpbench.topology.net.EmulatedLinks.ALL
                : io.cpbench.topology.net.EmulatedLinks.slowMember(slowMember >= 0 ? slowMember : members - 1);
    }

    /** Whether this topology starts members of its own (local, embedded), rather than attaching to running ones. */
    boolean startsMembers() {
        return !remote() && !attach();
    }

    /** --topology attach: members someone else started. */
    boolean attachTopology() {
        return attach();
    }

    private boolean attach() {
        return "attach".equalsIgnoreCase(topology.trim());
    }

    private boolean remote() {
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
    io.cpbench.bench.suite.SuiteOptions suiteOptions(int slowMember, Duration delay, io.cpbench.lb.ProbeSettings probes) {
        return new io.cpbench.bench.suite.SuiteOptions(settle, Duration.ofSeconds(120), connectTimeout, slowMember, delay, probes);
    }

    /** The --failover preset; its client side goes to every client this JVM makes (system properties). */
    io.cpbench.topology.FailoverPreset failoverPreset() {
        return io.cpbench.topology.FailoverPreset.of(failover);
    }

    /** The --member-setting values. */
    io.cpbench.topology.MemberTuning memberTuning() {
        return io.cpbench.topology.MemberTuning.parse(memberSettings);
    }

    String describe() {
        return attach() ? "cluster '" + clusterName + "' at " + connect
                : remote() ? "the members in " + inventory + " (" + String.join(", ", inventory().addresses()) + ")"
                : members + " " + topology + " members, network " + network
                + (memberTuning().isEmpty() ? "" : ", " + memberTuning().describe())
                + (noPriority ? ", no leadership priority" : "");
    }

    /** These options as command-line arguments, every one spelled out, for {@link #startFromArgs}. */
    List<String> toArgs() {
        List<String> args = new java.util.ArrayList<>(List.of("--topology", topology, "--members", Integer.toString(members),
                "--base-port", Integer.toString(basePort), "--settle", settle.toMillis() + "ms",
                "--startup-timeout", startupTimeout.toMillis() + "ms", "--rebalance-period", Integer.toString(rebalancePeriod),
                "--network", network, "--failover", failover, "--cluster-name", clusterName, "--connect-timeout", connectTimeout.toMillis() + "ms"));
        if (connect != null) {
            args.addAll(List.of("--connect", String.join(",", connect)));
        }
        if (inventory != null) {
            args.addAll(List.of("--inventory", inventory.toAbsolutePath().toString()));
        }
        if (memberSettings != null) {
            memberSettings.forEach(m -> args.addAll(List.of("--member-setting", m)));
        }
        if (noPriority) {
            args.add("--no-priority");
        }
        return args;
    }

    /** Holds the options when parsing {@link #toArgs()} output. */
    @picocli.CommandLine.Command(name = "cluster")
    static final class Holder {
        @picocli.CommandLine.Mixin
        ClusterOptions options;
    }

    /**
     * Starts or reaches the cluster that {@code args} ({@link #toArgs()} of a command's options) name: what a JMH fork
     * runs its trial on.
     */
    public static Topology startFromArgs(List<String> args, Path logDir) {
        Holder holder = new Holder();
        new picocli.CommandLine(holder).parseArgs(args.toArray(String[]::new));
        holder.options.validate(-1);
        return holder.options.start(logDir);
    }

    /** Starts or reaches the cluster; call {@link #validate(int)} first, which checks every name and range used here. */
    Topology start(Path logDir) {
        return start(logDir, io.cpbench.topology.MemberTuning.NONE);
    }

    /**
     * Starts the cluster (or attaches to it) as every command does: one line saying which, a progress line on stderr
     * every {@code every} while members start, then the start. If the start fails or is interrupted, {@code onFailure}
     * runs before the exception goes on; the start itself has stopped what it started. The caller takes the JVM's
     * shutdown over from the topology ({@link Topology#takeOverShutdown()}) and then says it is ready
     * ({@link #printReady}).
     */
    Topology startAnnounced(PrintStream console, Path logDir, io.cpbench.topology.MemberTuning extra, Duration every,
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
    static void printReady(PrintStream console, Topology topology, long startNanos) {
        LeaderView ready = topology.leadership().read();
        console.printf(Locale.ROOT, "cluster ready in %.1f s (%s): %s leads, term %d%n",
                (System.nanoTime() - startNanos) / 1e9, topology.kind(), ready.leader(), ready.term());
    }

    /** As {@link #start(Path)}, with {@code extra} member settings over the --member-setting ones (a sweep's). */
    Topology start(Path logDir, io.cpbench.topology.MemberTuning extra) {
        if (remote()) {
            return TopologyKind.remote(inventory(), connectTimeout, settle, startupTimeout);
        }
        if (attach()) {
            return TopologyKind.attach(clusterName, connect, connectTimeout, settle, startupTimeout);
        }
        TopologyKind kind = TopologyKind.parse(topology);
        TopologySpec spec = new TopologySpec(members, 0, "127.0.0.1", basePort, rebalancePeriod, settle, startupTimeout,
                logDir, TopologySpec.DEFAULT_MEMBER_JVM_OPTIONS, emulated())
                .withFailover(failoverPreset()).withTuning(memberTuning().with(extra));
        if (emulated()) {
            spec = spec.withLinks(links());
        }
        return kind.start(noPriority ? spec.withoutPriority() : spec);
    }
}
