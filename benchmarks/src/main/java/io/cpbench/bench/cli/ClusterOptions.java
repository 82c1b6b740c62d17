package io.cpbench.bench.cli;

import io.cpbench.topology.Inventory;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyKind;
import io.cpbench.topology.TopologySpec;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Which cluster to measure, and how to bring it up or reach it. */
final class ClusterOptions {

    @Option(names = "--topology", paramLabel = "KIND", defaultValue = "local",
            description = "local: 5 member JVMs on this machine; embedded: members in this JVM; "
                    + "attach: a running cluster named by --connect; remote: the members an --inventory names (the AWS lab) "
                    + "(default: ${DEFAULT-VALUE}).")
    String topology;

    @Option(names = "--members", paramLabel = "N", defaultValue = "5", description = "CP members to start (default: ${DEFAULT-VALUE}).")
    int members;

    @Option(names = "--base-port", paramLabel = "PORT", defaultValue = "0",
            description = "First member port; 0 picks free ports from 5701 (default: ${DEFAULT-VALUE}).")
    int basePort;

    @Option(names = "--settle", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "5s",
            description = "How long leader and term must hold still before measuring (default: ${DEFAULT-VALUE}).")
    Duration settle;

    @Option(names = "--startup-timeout", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "180s",
            description = "Most that starting the cluster and settling leadership may take (default: ${DEFAULT-VALUE}).")
    Duration startupTimeout;

    @Option(names = "--rebalance-period", paramLabel = "SECONDS", defaultValue = "5",
            description = "Seconds between Hazelcast's moves of leadership toward the priority member (default: ${DEFAULT-VALUE}).")
    int rebalancePeriod;

    @Option(names = "--network", paramLabel = "PATH", defaultValue = "emulated",
            description = "emulated: every member behind a proxy of cp-bench's network emulator, in (a) and (b) alike, so "
                    + "(b) can be switched on; direct: plain loopback, network (a) only (default: ${DEFAULT-VALUE}).")
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
            description = "Most a client may take to connect before the run fails (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout;

    /** The parsed --inventory, read once. */
    private Inventory parsedInventory;

    boolean canSlowAMemberDown() {
        if (remote()) {
            return inventory().ssh() != null;
        }
        return !attach() && "emulated".equals(network);
    }

    /** Whether this topology starts members of its own (local, embedded), rather than attaching to running ones. */
    boolean startsMembers() {
        return !remote() && !attach();
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

    String describe() {
        return attach() ? "cluster '" + clusterName + "' at " + connect
                : remote() ? "the members in " + inventory + " (" + String.join(", ", inventory().addresses()) + ")"
                : members + " " + topology + " members, network " + network;
    }

    Topology start(Path logDir) {
        if (remote()) {
            return TopologyKind.remote(inventory(), connectTimeout, settle, startupTimeout);
        }
        if (attach()) {
            if (connect == null || connect.isEmpty()) {
                throw new IllegalArgumentException("--topology attach needs --connect HOST:PORT[,HOST:PORT...]");
            }
            return TopologyKind.attach(clusterName, connect, connectTimeout, settle, startupTimeout);
        }
        TopologyKind kind;
        try {
            kind = TopologyKind.parse(topology);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown topology '" + topology + "'; choose local, embedded, attach or remote");
        }
        if (!network.equals("emulated") && !network.equals("direct")) {
            throw new IllegalArgumentException("unknown network path '" + network + "'; choose emulated or direct");
        }
        TopologySpec spec = new TopologySpec(members, 0, "127.0.0.1", basePort, rebalancePeriod, settle, startupTimeout,
                logDir, TopologySpec.DEFAULT_MEMBER_JVM_OPTIONS, network.equals("emulated"));
        return kind.start(spec);
    }
}
