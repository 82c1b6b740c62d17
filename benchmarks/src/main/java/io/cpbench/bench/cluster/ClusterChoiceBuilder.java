package io.cpbench.bench.cluster;

import io.cpbench.topology.TopologyKind;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A cluster choice being filled in; the defaults are the CLI's. {@code slowMember} is the member network (b)
 * slows: -1 for the default (the last), else a follower's index.
 */
public final class ClusterChoiceBuilder {
    String hazelcastVersion;
    boolean stockMembers;
    String topology = "local";
    int members = 5;
    int basePort = 0;
    Duration settle = Duration.ofSeconds(5);
    Duration startupTimeout = Duration.ofSeconds(180);
    int rebalancePeriod = 5;
    String failover = "default";
    boolean noPriority = false;
    List<String> memberSettings = null;
    String network = "emulated";
    List<String> connect = null;
    Path inventory = null;
    String clusterName = "dev";
    Duration connectTimeout = Duration.ofSeconds(20);
    int slowMember = -1;

    public ClusterChoiceBuilder topology(String value) {
        this.topology = value;
        return this;
    }

    public ClusterChoiceBuilder members(int value) {
        this.members = value;
        return this;
    }

    public ClusterChoiceBuilder basePort(int value) {
        this.basePort = value;
        return this;
    }

    public ClusterChoiceBuilder settle(Duration value) {
        this.settle = value;
        return this;
    }

    public ClusterChoiceBuilder startupTimeout(Duration value) {
        this.startupTimeout = value;
        return this;
    }

    public ClusterChoiceBuilder rebalancePeriod(int value) {
        this.rebalancePeriod = value;
        return this;
    }

    public ClusterChoiceBuilder failover(String value) {
        this.failover = value;
        return this;
    }

    public ClusterChoiceBuilder noPriority(boolean value) {
        this.noPriority = value;
        return this;
    }

    public ClusterChoiceBuilder memberSettings(List<String> value) {
        this.memberSettings = value;
        return this;
    }

    public ClusterChoiceBuilder network(String value) {
        this.network = value;
        return this;
    }

    public ClusterChoiceBuilder connect(List<String> value) {
        this.connect = value;
        return this;
    }

    public ClusterChoiceBuilder inventory(Path value) {
        this.inventory = value;
        return this;
    }

    public ClusterChoiceBuilder clusterName(String value) {
        this.clusterName = value;
        return this;
    }

    public ClusterChoiceBuilder connectTimeout(Duration value) {
        this.connectTimeout = value;
        return this;
    }

    /** The Hazelcast release the members run; null for this build's. */
    public ClusterChoiceBuilder hazelcastVersion(String value) {
        hazelcastVersion = value;
        return this;
    }

    public ClusterChoiceBuilder slowMember(int value) {
        this.slowMember = value;
        return this;
    }

    /**
     * The choice, checked: names, ranges, addresses, the inventory and the slow member; an
     * {@link IllegalArgumentException} names the option that is wrong.
     */
    public ClusterChoice build() {
        ClusterChoice choice = new ClusterChoice(this);
        choice.check(this);
        return choice;
    }

    /** The members cp-bench starts: a topology it knows, a network path, 3-9 members, ports and rebalancing. */
    void checkMembersItStarts() {
        try {
            TopologyKind.parse(topology);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown topology '" + topology + "'; choose local, embedded, containers, attach or remote");
        }
        if (!List.of(ClusterChoice.NETWORKS).contains(network)) {
            throw new IllegalArgumentException("unknown network path '" + network + "'; choose " + String.join(", ", ClusterChoice.NETWORKS));
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

    /** {@code --connect}: for attach alone, and then each address well formed. */
    void checkConnect(boolean attach) {
        if (attach) {
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
    }
}
