package io.cpbench.topology;

import com.hazelcast.config.AdvancedNetworkConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.ServerSocketEndpointConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything that makes one CP member of a cp-bench cluster, and the one place that turns it into a
 * Hazelcast {@link Config}. Embedded members, local member processes and the AWS lab all go through
 * {@link #toConfig()}, so every topology runs members configured the same way.
 *
 * @param clusterName            Hazelcast cluster name; unique per run so stray members cannot join
 * @param host                   the address this member binds to and announces
 * @param port                   the port the member binds (no auto-increment)
 * @param publicPort             the port the member announces and is reached at; differs from {@code port} when a
 *                               network emulator's proxy stands in front of the member
 * @param outboundPorts          ports the member opens its own connections from ("from-to"), or null for any; the
 *                               network emulator tells members apart by them
 * @param members                every member of the cluster as announced {@code host:publicPort}, for TCP/IP join
 * @param priority               CP leadership priority; the member with the highest value is moved to lead
 * @param rebalancePeriodSeconds how often Hazelcast moves leadership toward the priority member (docs/hazelcast-facts.md, fact 5)
 * @param failover               how fast failures are detected ({@link FailoverPreset})
 * @param tuning                 thread counts and Raft limits ({@link MemberTuning}); none for Hazelcast's defaults
 * @param clientEndpoint         a separate endpoint for clients (Hazelcast's advanced networking), or null for one
 *                               endpoint for all: a member in a container announces its network alias to members
 *                               and its published port on the host to clients, which cannot resolve the alias
 * @param bindAddress            with a client endpoint: the one address both endpoints bind, when {@code host} is a
 *                               name to announce rather than an address to bind (the lean network emulation's member
 *                               names, {@link io.cpbench.topology.net.EmulatedLinks}); null binds every interface
 */
public record MemberSettings(String clusterName, String host, int port, int publicPort, String outboundPorts,
                             List<String> members, int priority, int rebalancePeriodSeconds, FailoverPreset failover,
                             MemberTuning tuning, ClientEndpoint clientEndpoint, String bindAddress) {

    /**
     * Where clients reach a member that members reach elsewhere.
     *
     * @param port          the port the member accepts clients on
     * @param publicAddress {@code host:port} the member announces to clients
     */
    public record ClientEndpoint(int port, String publicAddress) {
        public ClientEndpoint {
            Objects.requireNonNull(publicAddress, "publicAddress");
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("client port must be 1-65535, was " + port);
            }
            AttachedTopology.validateAddress(publicAddress);
        }
    }

    /**
     * Settings being filled in for a member of {@code clusterName} at {@code host:port}, one of {@code members}.
     * Unless set: announced at the port it binds, outbound ports any, no leadership priority, rebalanced every 5 s,
     * Hazelcast's failure detection and settings, one endpoint for members and clients.
     */
    public static Builder builder(String clusterName, String host, int port, List<String> members) {
        return new Builder(clusterName, host, port, members);
    }

    /** Fills in {@link MemberSettings}; {@link #build()} checks them. */
    public static final class Builder {
        private final String clusterName;
        private final String host;
        private final int port;
        private final List<String> members;
        private int publicPort;
        private String outboundPorts;
        private int priority;
        private int rebalancePeriodSeconds = 5;
        private FailoverPreset failover = FailoverPreset.DEFAULTS;
        private MemberTuning tuning = MemberTuning.NONE;
        private ClientEndpoint clientEndpoint;
        private String bindAddress;

        private Builder(String clusterName, String host, int port, List<String> members) {
            this.clusterName = clusterName;
            this.host = host;
            this.port = port;
            this.publicPort = port;
            this.members = members;
        }

        public Builder publicPort(int value) {
            publicPort = value;
            return this;
        }

        public Builder outboundPorts(String value) {
            outboundPorts = value;
            return this;
        }

        public Builder priority(int value) {
            priority = value;
            return this;
        }

        public Builder rebalancePeriodSeconds(int value) {
            rebalancePeriodSeconds = value;
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

        public Builder clientEndpoint(ClientEndpoint value) {
            clientEndpoint = value;
            return this;
        }

        public Builder bindAddress(String value) {
            bindAddress = value;
            return this;
        }

        public MemberSettings build() {
            return new MemberSettings(clusterName, host, port, publicPort, outboundPorts, members, priority,
                    rebalancePeriodSeconds, failover, tuning, clientEndpoint, bindAddress);
        }
    }

    public MemberSettings {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(failover, "failover");
        Objects.requireNonNull(tuning, "tuning");
        members = List.copyOf(members);
        if (port < 1 || port > 65535 || publicPort < 1 || publicPort > 65535) {
            throw new IllegalArgumentException("member ports must be 1-65535, were " + port + " and " + publicPort);
        }
        if (outboundPorts != null && !outboundPorts.matches("\\d+-\\d+")) {
            throw new IllegalArgumentException("outbound ports must be a range like 5901-5932, was '" + outboundPorts + "'");
        }
        if (members.size() < 3) {
            throw new IllegalArgumentException("a CP group needs at least 3 members, got " + members.size());
        }
        if (rebalancePeriodSeconds < 1) {
            throw new IllegalArgumentException("leadership rebalance period must be at least 1 s");
        }
        if (bindAddress != null && clientEndpoint == null) {
            throw new IllegalArgumentException("a bind address apart from the announced host needs a client endpoint");
        }
    }

    /** What clients connect to: the client endpoint's public address, else what the member announces. */
    public String address() {
        return clientEndpoint != null ? clientEndpoint.publicAddress() : memberAddress();
    }

    /** What the member announces to other members. */
    public String memberAddress() {
        return host + ":" + publicPort;
    }

    public Config toConfig() {
        Config config = new Config();
        config.setClusterName(clusterName);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.raft.leadership.rebalance.period", Integer.toString(rebalancePeriodSeconds));
        // cp-bench owns the shutdown order (result first, then members); Hazelcast's own hook would race it.
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.socket.bind.any", "false"); // advancedNetwork() decides for itself

        if (clientEndpoint != null) {
            advancedNetwork(config);
        } else {
            NetworkConfig network = config.getNetworkConfig();
            network.setPort(port).setPortAutoIncrement(false);
            network.getInterfaces().setEnabled(true).addInterface(host);
            if (publicPort != port) {
                network.setPublicAddress(host + ":" + publicPort);
            }
            if (outboundPorts != null) {
                network.addOutboundPortDefinition(outboundPorts);
            }
            tcpIpJoin(network.getJoin());
        }

        config.getCPSubsystemConfig()
                .setCPMemberCount(members.size())
                .setGroupSize(members.size())
                .setCPMemberPriority(priority);
        failover.apply(config);
        tuning.apply(config);
        return config;
    }

    /**
     * Members on {@code port}, announced as {@code host:publicPort} (a container's alias, or a proxy); clients on the
     * client endpoint, announced at its public address. Binds every interface: a container has one of its own.
     */
    private void advancedNetwork(Config config) {
        config.setProperty("hazelcast.socket.bind.any", Boolean.toString(bindAddress == null));
        if (bindAddress != null) {
            // Not the endpoints' interfaces: those also filter which member addresses the TCP/IP joiner tries, and
            // the names other members have here may resolve elsewhere in 127.0.0.0/8 (EmulatedLinks).
            config.setProperty("hazelcast.local.localAddress", bindAddress);
        }
        AdvancedNetworkConfig advanced = config.getAdvancedNetworkConfig().setEnabled(true);
        ServerSocketEndpointConfig member = new ServerSocketEndpointConfig();
        member.setPort(port).setPortAutoIncrement(false);
        member.setPublicAddress(host + ":" + publicPort);
        if (outboundPorts != null) {
            member.addOutboundPortDefinition(outboundPorts);
        }
        advanced.setMemberEndpointConfig(member);
        ServerSocketEndpointConfig client = new ServerSocketEndpointConfig();
        client.setPort(clientEndpoint.port()).setPortAutoIncrement(false);
        client.setPublicAddress(clientEndpoint.publicAddress());
        advanced.setClientEndpointConfig(client);
        tcpIpJoin(advanced.getJoin());
    }

    private void tcpIpJoin(JoinConfig join) {
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        // A starting member asks the listed addresses for a master for this long before it claims mastership itself
        // (Hazelcast's default: 5 s; docs/hazelcast-facts.md, fact 16). cp-bench starts all members together, so they
        // answer within a second; a member that comes up later joins the master it finds.
        join.getTcpIpConfig().setEnabled(true).setMembers(new ArrayList<>(members)).setConnectionTimeoutSeconds(1);
    }

    /** The member launcher's arguments for these settings; {@link MemberLauncher} parses them back. */
    public List<String> toArgs() {
        List<String> args = new ArrayList<>(List.of("--cluster-name", clusterName, "--host", host,
                "--port", Integer.toString(port), "--members", String.join(",", members),
                "--priority", Integer.toString(priority), "--rebalance-period", Integer.toString(rebalancePeriodSeconds)));
        if (publicPort != port) {
            args.addAll(List.of("--public-port", Integer.toString(publicPort)));
        }
        if (outboundPorts != null) {
            args.addAll(List.of("--outbound-ports", outboundPorts));
        }
        if (!failover.equals(FailoverPreset.DEFAULTS)) {
            args.addAll(List.of("--failover", failover.name()));
        }
        args.addAll(tuning.toArgs());
        if (clientEndpoint != null) {
            args.addAll(List.of("--client-port", Integer.toString(clientEndpoint.port()),
                    "--client-public-address", clientEndpoint.publicAddress()));
        }
        if (bindAddress != null) {
            args.addAll(List.of("--bind-address", bindAddress));
        }
        return args;
    }
}
