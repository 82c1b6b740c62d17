package io.cpbench.bench.cluster;

import io.cpbench.topology.Topology;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Which cluster to measure, and how to bring it up or reach it: a picocli mixin for the commands, which
 * {@link #choose} turns into a {@link ClusterChoice}; {@link #toArgs()} and {@link #startFromArgs} carry the choice to
 * a JMH fork, which brings up (or reaches) the same cluster.
 */
public final class ClusterOptions {

    @Option(names = "--topology", paramLabel = "KIND", defaultValue = "local", completionCandidates = Topologies.class,
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
                    + " io-threads, raft-uncommitted-entries, raft-append-batch, and the CP Subsystem's"
                    + " fail-on-indeterminate-operation-state (true: an op whose outcome a leader change left unknown"
                    + " fails, applied at most once; false: it is retried, at least once), session-ttl-seconds,"
                    + " session-heartbeat-seconds, missing-member-removal-seconds (default: Hazelcast's; docs/faults.md).")
    List<String> memberSettings;

    @Option(names = "--network", paramLabel = "PATH", defaultValue = "emulated", completionCandidates = Networks.class,
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

    @Option(names = "--hazelcast-version", paramLabel = "V",
            description = "The Hazelcast release the members run, 5.0.0-5.4.0 (5.5.0 and later need an Enterprise licence"
                    + " for CP): its jar from the local Maven repository, fetched once from Maven Central when it is not"
                    + " there. A release other than this build's runs as stock members (--topology local or containers:"
                    + " no cp-bench class on them, leader from metrics, network direct, no faults); clients stay this"
                    + " build's. On matrix, run and load, a list (5.3.8,5.4.0; at most " + MAX_RELEASES + ") is a version axis:"
                    + " every round on fresh clusters of each release side by side, each scenario on each release in"
                    + " turn, and releases.md comparing each with the first (default: this build's release).")
    String hazelcastVersion;

    /** Whether --hazelcast-version was given. */
    public boolean releaseGiven() {
        return hazelcastVersion != null;
    }

    /**
     * The cluster these options name, checked before anything starts.
     *
     * @param slowMember the member network (b) slows: -1 for the default (the last), else a follower's index
     * @throws IllegalArgumentException naming the option that is wrong
     */
    public ClusterChoice choose(int slowMember) {
        if (!releaseAxis().isEmpty()) {
            throw new IllegalArgumentException("--hazelcast-version " + hazelcastVersion + ": one release here; a list"
                    + " of releases is a version axis of matrix, run and load (ab compares two with --base-version and --new-version)");
        }
        return chooseAxisAware(slowMember);
    }

    /**
     * As {@link #choose(int)}, but a list of releases in --hazelcast-version ({@link #releaseAxis()}) is let through:
     * the choice is then this build's release, and each release's cluster is made from it
     * ({@link ClusterChoice#stockMembers}).
     */
    public ClusterChoice chooseAxisAware(int slowMember) {
        return ClusterChoice.builder().topology(topology).members(members).basePort(basePort).settle(settle)
                .startupTimeout(startupTimeout).rebalancePeriod(rebalancePeriod).failover(failover).noPriority(noPriority)
                .memberSettings(memberSettings).network(network).connect(connect).inventory(inventory)
                .clusterName(clusterName).connectTimeout(connectTimeout).slowMember(slowMember)
                .hazelcastVersion(releaseAxis().isEmpty() ? hazelcastVersion : null).build().resolveRelease(System.out);
    }

    /**
     * Each release's cluster of a version axis ({@link #releaseAxis()}, else empty): stock members of that release,
     * otherwise as {@code cluster} (from {@link #chooseAxisAware}); with --base-port P, each release's members in a
     * block of their own from P. Their jars are resolved here, so that one that cannot be had fails before anything
     * starts.
     */
    public List<ClusterChoice> releaseChoices(ClusterChoice cluster) {
        List<String> axis = releaseAxis();
        List<ClusterChoice> choices = new java.util.ArrayList<>();
        for (int i = 0; i < axis.size(); i++) {
            int port = cluster.basePort() == 0 ? 0 : cluster.basePort() + i * cluster.memberCount();
            choices.add(cluster.stockMembers(axis.get(i), port).resolveRelease(System.out));
        }
        return List.copyOf(choices);
    }

    /**
     * Refuses network (b) scenarios where {@code cluster} cannot slow a member down: stock members (links direct), or
     * a topology without the emulator.
     */
    public void checkSlowNetwork(List<io.cpbench.bench.scenario.Scenario> scenarios, ClusterChoice cluster) {
        List<String> slow = scenarios.stream().filter(io.cpbench.bench.scenario.Scenario::slowNetwork)
                .map(io.cpbench.bench.scenario.Scenario::name).toList();
        if (slow.isEmpty()) {
            return;
        }
        if (cluster.stock()) {
            throw new IllegalArgumentException("--hazelcast-version " + hazelcastVersion + " runs stock members, whose"
                    + " links are direct: network (b) scenarios (" + slow + ") need cp-bench's members and network"
                    + " emulator; give network (a) scenarios with --scenario (cpbench list)");
        }
        if (!cluster.canSlowAMemberDown()) {
            throw new IllegalArgumentException("network (b) scenarios (" + slow + ") need a local, embedded or containers"
                    + " topology with --network emulated, or remote with an inventory that has an ssh section");
        }
    }

    /** Most releases in one run's version axis: each runs a cluster of its own, side by side with the others. */
    static final int MAX_RELEASES = 3;

    /**
     * The releases --hazelcast-version lists when it names more than one ({@code 5.3.8,5.4.0}), in order; empty when it
     * names one or none.
     *
     * @throws IllegalArgumentException for an empty entry, a release named twice, or more than {@link #MAX_RELEASES}
     */
    List<String> releaseAxis() {
        if (hazelcastVersion == null || !hazelcastVersion.contains(",")) {
            return List.of();
        }
        List<String> releases = java.util.Arrays.stream(hazelcastVersion.split(",", -1)).map(String::trim).toList();
        if (releases.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("--hazelcast-version " + hazelcastVersion + ": an empty release in the"
                    + " list; expected releases separated by commas, like 5.3.8,5.4.0");
        }
        if (new java.util.HashSet<>(releases).size() < releases.size()) {
            throw new IllegalArgumentException("--hazelcast-version " + hazelcastVersion + ": names a release twice");
        }
        if (releases.size() > MAX_RELEASES) {
            throw new IllegalArgumentException("--hazelcast-version " + hazelcastVersion + ": at most " + MAX_RELEASES
                    + " releases in one run (each runs a cluster of its own, side by side with the others)");
        }
        return releases;
    }

    /** These options as command-line arguments, every one spelled out, for {@link #startFromArgs}. */
    public List<String> toArgs() {
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
        if (hazelcastVersion != null) {
            args.addAll(List.of("--hazelcast-version", hazelcastVersion));
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
        return holder.options.choose(-1).start(logDir);
    }

    /** What shell completion offers for --topology. */
    public static final class Topologies implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return List.of("local", "embedded", "containers", "attach", "remote").iterator();
        }
    }

    /** What shell completion offers for --network. */
    public static final class Networks implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return List.of(ClusterChoice.NETWORKS).iterator();
        }
    }
}
