package io.cpbench.topology;

import io.cpbench.topology.net.EmulatedLinks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * How to bring up a cluster: plain data, validated here so that nothing deeper has to.
 *
 * @param memberCount            CP members (the seed's group has 5)
 * @param priorityIndex          which member gets leadership priority; -1 for none (Hazelcast then spreads the
 *                               leaders of CP groups over the members)
 * @param host                   loopback address the members bind to
 * @param basePort               first member port; 0 picks free consecutive ports from 5701
 * @param rebalancePeriodSeconds leadership rebalance period (docs/hazelcast-facts.md, fact 5)
 * @param settle                 how long leader and term must hold still before the cluster counts as ready
 * @param startupTimeout         how long forming the cluster and settling leadership may take in all
 * @param logDir                 where member process logs go (local topology)
 * @param memberJvmOptions       extra JVM options for member processes (local topology)
 * @param emulateNetwork         put each member behind a {@link io.cpbench.topology.net.NetworkEmulator} proxy, so
 *                               network (b) can be switched on; (a) then runs through the same proxies
 * @param failover               how fast members detect failures ({@link FailoverPreset})
 * @param tuning                 members' thread counts and Raft limits ({@link MemberTuning})
 * @param links                  with {@code emulateNetwork}: which links cross the proxies ({@link EmulatedLinks});
 *                               topologies that cannot proxy the slow member's links alone proxy all
 */
public record TopologySpec(int memberCount, int priorityIndex, String host, int basePort, int rebalancePeriodSeconds,
                           Duration settle, Duration startupTimeout, Path logDir, List<String> memberJvmOptions,
                           boolean emulateNetwork, FailoverPreset failover, MemberTuning tuning, EmulatedLinks links) {

    public TopologySpec(int memberCount, int priorityIndex, String host, int basePort, int rebalancePeriodSeconds,
                        Duration settle, Duration startupTimeout, Path logDir, List<String> memberJvmOptions,
                        boolean emulateNetwork, FailoverPreset failover, MemberTuning tuning) {
        this(memberCount, priorityIndex, host, basePort, rebalancePeriodSeconds, settle, startupTimeout, logDir,
                memberJvmOptions, emulateNetwork, failover, tuning, EmulatedLinks.ALL);
    }

    public TopologySpec(int memberCount, int priorityIndex, String host, int basePort, int rebalancePeriodSeconds,
                        Duration settle, Duration startupTimeout, Path logDir, List<String> memberJvmOptions,
                        boolean emulateNetwork, FailoverPreset failover) {
        this(memberCount, priorityIndex, host, basePort, rebalancePeriodSeconds, settle, startupTimeout, logDir,
                memberJvmOptions, emulateNetwork, failover, MemberTuning.NONE);
    }

    public TopologySpec(int memberCount, int priorityIndex, String host, int basePort, int rebalancePeriodSeconds,
                        Duration settle, Duration startupTimeout, Path logDir, List<String> memberJvmOptions,
                        boolean emulateNetwork) {
        this(memberCount, priorityIndex, host, basePort, rebalancePeriodSeconds, settle, startupTimeout, logDir,
                memberJvmOptions, emulateNetwork, FailoverPreset.DEFAULTS);
    }

    public static final int DEFAULT_MEMBERS = 5;
    public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(5);
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(180);
    public static final List<String> DEFAULT_MEMBER_JVM_OPTIONS = List.of("-Xms256m", "-Xmx1g");

    public TopologySpec {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(settle, "settle");
        Objects.requireNonNull(startupTimeout, "startupTimeout");
        Objects.requireNonNull(logDir, "logDir");
        Objects.requireNonNull(failover, "failover");
        Objects.requireNonNull(tuning, "tuning");
        Objects.requireNonNull(links, "links");
        memberJvmOptions = List.copyOf(memberJvmOptions);
        if (memberCount < 3 || memberCount > 9) {
            throw new IllegalArgumentException("members must be 3-9 (a CP group), was " + memberCount);
        }
        if (priorityIndex < -1 || priorityIndex >= memberCount) {
            throw new IllegalArgumentException("priority member index must be 0-" + (memberCount - 1) + " (or -1 for none), was " + priorityIndex);
        }
        if (basePort != 0 && (basePort < 1024 || basePort + memberCount > 65535)) {
            throw new IllegalArgumentException("base port must be 1024-" + (65535 - memberCount) + " (or 0 to pick), was " + basePort);
        }
        if (rebalancePeriodSeconds < 1) {
            throw new IllegalArgumentException("rebalance period must be at least 1 s, was " + rebalancePeriodSeconds);
        }
        if (settle.isNegative() || startupTimeout.compareTo(Duration.ofSeconds(10)) < 0) {
            throw new IllegalArgumentException("settle must be >= 0 and startup timeout >= 10 s");
        }
        if (links.slowMember() >= memberCount) {
            throw new IllegalArgumentException("the slow member must be 0-" + (memberCount - 1) + ", was " + links.slowMember());
        }
        if (links.slowMember() >= 0 && links.slowMember() == priorityIndex) {
            throw new IllegalArgumentException("the slow member " + links.slowMember() + " is the priority member, which leads");
        }
    }

    /** Five members, member-0 with priority, behind the emulator with the last member's links proxied. */
    public static TopologySpec defaults(Path logDir) {
        return new TopologySpec(DEFAULT_MEMBERS, 0, "127.0.0.1", 0, 5, DEFAULT_SETTLE, DEFAULT_STARTUP_TIMEOUT, logDir,
                DEFAULT_MEMBER_JVM_OPTIONS, true, FailoverPreset.DEFAULTS, MemberTuning.NONE,
                EmulatedLinks.slowMember(DEFAULT_MEMBERS - 1));
    }

    public TopologySpec withSettle(Duration newSettle) {
        return new TopologySpec(memberCount, priorityIndex, host, basePort, rebalancePeriodSeconds, newSettle,
                startupTimeout, logDir, memberJvmOptions, emulateNetwork, failover, tuning, links);
    }

    public TopologySpec withFailover(FailoverPreset preset) {
        return new TopologySpec(memberCount, priorityIndex, host, basePort, rebalancePeriodSeconds, settle,
                startupTimeout, logDir, memberJvmOptions, emulateNetwork, preset, tuning, links);
    }

    /** The same cluster with no leadership priority: any settled leader makes it ready. */
    public TopologySpec withoutPriority() {
        return new TopologySpec(memberCount, -1, host, basePort, rebalancePeriodSeconds, settle,
                startupTimeout, logDir, memberJvmOptions, emulateNetwork, failover, tuning, links);
    }

    public TopologySpec withTuning(MemberTuning newTuning) {
        return new TopologySpec(memberCount, priorityIndex, host, basePort, rebalancePeriodSeconds, settle,
                startupTimeout, logDir, memberJvmOptions, emulateNetwork, failover, newTuning, links);
    }

    /** The same cluster with {@code newLinks} through the emulator. */
    public TopologySpec withLinks(EmulatedLinks newLinks) {
        return new TopologySpec(memberCount, priorityIndex, host, basePort, rebalancePeriodSeconds, settle,
                startupTimeout, logDir, memberJvmOptions, emulateNetwork, failover, tuning, newLinks);
    }

    /** Member settings for every member, ports resolved, one fresh cluster name for this cluster. */
    List<MemberSettings> memberSettings(PortPlan ports) {
        String clusterName = "cpbench-" + UUID.randomUUID().toString().substring(0, 8);
        List<String> addresses = new java.util.ArrayList<>();
        for (int i = 0; i < memberCount; i++) {
            addresses.add(host + ":" + ports.announced(i));
        }
        List<MemberSettings> settings = new java.util.ArrayList<>();
        if (ports.lean()) {
            return leanSettings(clusterName, ports);
        }
        for (int i = 0; i < memberCount; i++) {
            settings.add(new MemberSettings(clusterName, host, ports.bound(i), ports.announced(i), ports.outboundRange(i),
                    addresses, i == priorityIndex ? 1 : 0, rebalancePeriodSeconds, failover, tuning));
        }
        return settings;
    }

    /**
     * Members announced to members by name (resolved per member process, {@link EmulatedLinks}), bound to the host
     * alone, with a client endpoint of their own: the slow member's behind a proxy, the others' direct.
     */
    private List<MemberSettings> leanSettings(String clusterName, PortPlan ports) {
        List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < memberCount; i++) {
            names.add(EmulatedLinks.memberName(i) + ":" + ports.bound(i));
        }
        List<MemberSettings> settings = new java.util.ArrayList<>();
        for (int i = 0; i < memberCount; i++) {
            settings.add(new MemberSettings(clusterName, EmulatedLinks.memberName(i), ports.bound(i), ports.bound(i),
                    ports.outboundRange(i), names, i == priorityIndex ? 1 : 0, rebalancePeriodSeconds, failover, tuning,
                    new MemberSettings.ClientEndpoint(ports.clientPort(i), host + ":" + ports.announced(i)), host));
        }
        return settings;
    }

    List<MemberRef> memberRefs(List<MemberSettings> settings) {
        List<MemberRef> refs = new java.util.ArrayList<>();
        for (int i = 0; i < settings.size(); i++) {
            refs.add(new MemberRef(i, settings.get(i).address(), i == priorityIndex));
        }
        return List.copyOf(refs);
    }
}
