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
        return builder(logDir).emulateNetwork(true).links(EmulatedLinks.slowMember(DEFAULT_MEMBERS - 1)).build();
    }

    /**
     * A spec being filled in, logging to {@code logDir}. Unless set: {@value #DEFAULT_MEMBERS} members on 127.0.0.1
     * from port 5701 on, member-0 with priority, rebalanced every 5 s, the default settle and startup times and
     * member JVM options, no network emulator (with it: every link through it), Hazelcast's failure detection and
     * member settings.
     */
    public static Builder builder(Path logDir) {
        return new Builder(logDir);
    }

    /** A builder holding this spec's values: for a copy with some changed. */
    public Builder toBuilder() {
        return new Builder(logDir).members(memberCount).priorityIndex(priorityIndex).host(host).basePort(basePort)
                .rebalancePeriodSeconds(rebalancePeriodSeconds).settle(settle).startupTimeout(startupTimeout)
                .memberJvmOptions(memberJvmOptions).emulateNetwork(emulateNetwork).failover(failover).tuning(tuning)
                .links(links);
    }

    public TopologySpec withSettle(Duration newSettle) {
        return toBuilder().settle(newSettle).build();
    }

    public TopologySpec withFailover(FailoverPreset preset) {
        return toBuilder().failover(preset).build();
    }

    /** The same cluster with no leadership priority: any settled leader makes it ready. */
    public TopologySpec withoutPriority() {
        return toBuilder().priorityIndex(-1).build();
    }

    public TopologySpec withTuning(MemberTuning newTuning) {
        return toBuilder().tuning(newTuning).build();
    }

    /** The same cluster with {@code newLinks} through the emulator. */
    public TopologySpec withLinks(EmulatedLinks newLinks) {
        return toBuilder().links(newLinks).build();
    }

    /** Fills in a {@link TopologySpec}; {@link #build()} checks it. */
    public static final class Builder {
        private final Path logDir;
        private int memberCount = DEFAULT_MEMBERS;
        private int priorityIndex = 0;
        private String host = "127.0.0.1";
        private int basePort = 0;
        private int rebalancePeriodSeconds = 5;
        private Duration settle = DEFAULT_SETTLE;
        private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;
        private List<String> memberJvmOptions = DEFAULT_MEMBER_JVM_OPTIONS;
        private boolean emulateNetwork;
        private FailoverPreset failover = FailoverPreset.DEFAULTS;
        private MemberTuning tuning = MemberTuning.NONE;
        private EmulatedLinks links = EmulatedLinks.ALL;

        private Builder(Path logDir) {
            this.logDir = logDir;
        }

        public Builder members(int value) {
            memberCount = value;
            return this;
        }

        /** Which member gets leadership priority; -1 for none. */
        public Builder priorityIndex(int value) {
            priorityIndex = value;
            return this;
        }

        public Builder host(String value) {
            host = value;
            return this;
        }

        public Builder basePort(int value) {
            basePort = value;
            return this;
        }

        public Builder rebalancePeriodSeconds(int value) {
            rebalancePeriodSeconds = value;
            return this;
        }

        public Builder settle(Duration value) {
            settle = value;
            return this;
        }

        public Builder startupTimeout(Duration value) {
            startupTimeout = value;
            return this;
        }

        public Builder memberJvmOptions(List<String> value) {
            memberJvmOptions = value;
            return this;
        }

        public Builder emulateNetwork(boolean value) {
            emulateNetwork = value;
            return this;
        }

        public Builder failover(FailoverPreset value) {
            failover = value;
            return this;
        }

        public Builder tuning(MemberTuning value) {
            tuning = value;
            return this;
        }

        public Builder links(EmulatedLinks value) {
            links = value;
            return this;
        }

        public TopologySpec build() {
            return new TopologySpec(memberCount, priorityIndex, host, basePort, rebalancePeriodSeconds, settle,
                    startupTimeout, logDir, memberJvmOptions, emulateNetwork, failover, tuning, links);
        }
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
            settings.add(MemberSettings.builder(clusterName, host, ports.bound(i), addresses).publicPort(ports.announced(i))
                    .outboundPorts(ports.outboundRange(i)).priority(i == priorityIndex ? 1 : 0)
                    .rebalancePeriodSeconds(rebalancePeriodSeconds).failover(failover).tuning(tuning).build());
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
            settings.add(MemberSettings.builder(clusterName, EmulatedLinks.memberName(i), ports.bound(i), names)
                    .outboundPorts(ports.outboundRange(i)).priority(i == priorityIndex ? 1 : 0)
                    .rebalancePeriodSeconds(rebalancePeriodSeconds).failover(failover).tuning(tuning)
                    .clientEndpoint(new MemberSettings.ClientEndpoint(ports.clientPort(i), host + ":" + ports.announced(i)))
                    .bindAddress(host).build());
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
