package io.cpbench.bench.cli;

import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyKind;
import io.cpbench.topology.TopologySpec;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * For test classes ({@link Uses @SharedCluster.Uses}) whose runs need a running cluster, not a cluster start of
 * their own: they attach to one local 3-member cluster (cp-bench's member processes, member-0 with leadership priority, plain loopback), started once
 * per test JVM when the first such class begins and stopped when the JVM's tests end. Each run reaches it with
 * {@link #attachArgs()}; the paths that start clusters (local start, the interrupts of run, load and chaos, chaos,
 * containers, stock clusters) keep their own.
 */
public final class SharedCluster {

    private SharedCluster() {
    }

    /** Marks a test class that attaches to the shared cluster: it is started before the class, if not already. */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @ExtendWith(Extension.class)
    public @interface Uses {
    }

    /** The cluster's member addresses and name as the CLI's options: {@code --topology attach ...}. */
    static List<String> attachArgs() {
        Topology topology = Extension.running();
        return List.of("--topology", "attach", "--cluster-name", topology.clusterName(), "--connect",
                topology.members().stream().map(MemberRef::address).collect(Collectors.joining(",")));
    }

    /** {@code args}, then {@link #attachArgs()}. */
    static String[] with(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(attachArgs());
        return all.toArray(String[]::new);
    }

    /** The cluster, for checks of its own (its name, its members). */
    static Topology topology() {
        return Extension.running();
    }

    static final class Extension implements BeforeAllCallback {

        private static volatile Topology topology;

        @Override
        public void beforeAll(ExtensionContext context) {
            // In the root context's store: closed once, when every test of this JVM has run.
            context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                    .getOrComputeIfAbsent(Extension.class, k -> new Holder(start()), Holder.class);
        }

        static Topology running() {
            if (topology == null) {
                throw new IllegalStateException("the shared cluster is not running: annotate the test class with @SharedCluster.Uses");
            }
            return topology;
        }

        private static Topology start() {
            try {
                Path logs = Files.createDirectories(Path.of("target", "shared-cluster"));
                TopologySpec spec = TopologySpec.builder(logs).members(3).settle(Duration.ofSeconds(2)).build();
                topology = TopologyKind.LOCAL.start(spec);
                return topology;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private record Holder(Topology topology) implements ExtensionContext.Store.CloseableResource {
            @Override
            public void close() {
                Extension.topology = null;
                topology.close();
            }
        }
    }
}
