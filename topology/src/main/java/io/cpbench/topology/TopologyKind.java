package io.cpbench.topology;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The ways cp-bench can bring up a cluster. */
public enum TopologyKind {
    /** Each member in its own JVM process on this machine (the default). */
    LOCAL,
    /** Members inside the calling JVM: quick, but they share its CPU and heap with the client. */
    EMBEDDED,
    /** Each member in its own Docker container, through Testcontainers, from an image built on this machine. */
    CONTAINERS;

    /** Attaches to a running cluster started with cp-bench's member launcher; starts and stops nothing. */
    public static Topology attach(String clusterName, List<String> addresses, Duration connectTimeout, Duration settle,
                                  Duration timeout) {
        return AttachedTopology.attach(clusterName, addresses, connectTimeout, settle, timeout);
    }

    /** Checks a member address is host:port with a port 1-65535; an {@link IllegalArgumentException} if not. */
    public static void checkAddress(String address) {
        AttachedTopology.validateAddress(address);
    }

    /** Attaches to the members an inventory names (the AWS lab); starts and stops nothing. */
    public static Topology remote(Inventory inventory, Duration connectTimeout, Duration settle, Duration timeout) {
        return RemoteTopology.attach(inventory, connectTimeout, settle, timeout);
    }

    /**
     * Starts members of {@code release} as stock members of its jar ({@code jar}, resolved by the caller), leadership
     * from metrics: member processes on this machine ({@link StockTopology}) or containers
     * ({@link ContainerTopology#startStock}); not embedded (this JVM has this build's release).
     *
     * @throws IllegalArgumentException for {@link #EMBEDDED}
     */
    public Topology startStock(TopologySpec spec, HazelcastRelease release, java.nio.file.Path jar) {
        return switch (this) {
            case LOCAL -> StockTopology.start(spec, release, jar);
            case CONTAINERS -> ContainerTopology.startStock(spec, release, jar);
            case EMBEDDED -> throw new IllegalArgumentException("embedded members run this build's Hazelcast "
                    + HazelcastRelease.build() + " only");
        };
    }

    public Topology start(TopologySpec spec) {
        return switch (this) {
            case LOCAL -> LocalProcessTopology.start(spec);
            case EMBEDDED -> EmbeddedTopology.start(spec);
            case CONTAINERS -> ContainerTopology.start(spec);
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TopologyKind parse(String text) {
        for (TopologyKind kind : values()) {
            if (kind.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown topology '" + text + "'; choose one of "
                + Arrays.stream(values()).map(TopologyKind::label).collect(Collectors.joining(", ")));
    }
}
