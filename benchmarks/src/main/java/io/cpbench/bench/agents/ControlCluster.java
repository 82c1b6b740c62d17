package io.cpbench.bench.agents;

import com.hazelcast.config.AdvancedNetworkConfig;
import com.hazelcast.config.ClassFilter;
import com.hazelcast.config.Config;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.ServerSocketEndpointConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;

import java.util.List;

/**
 * The control cluster that agents and their coordinator form: plain open-source Hazelcast members, never the cluster
 * under test. Its own cluster name and ports (from 5801; the clusters under test use 5701 up), TCP-IP join to the
 * addresses given, no multicast, no CP Subsystem. The coordinator is its one data member; agents are lite members, so
 * an agent that leaves moves no data. Load specs go out through its executor; interval numbers come back on a
 * topic; an agent's death is the membership event of its member leaving, seen within about 5 s (heartbeats every
 * second, a member silent for 5 s is removed).
 */
public final class ControlCluster {

    public static final int DEFAULT_PORT = 5801;
    /** Member attribute: {@link #COORDINATOR} or {@link #AGENT}. */
    static final String ROLE = "cpbench.role";
    static final String COORDINATOR = "coordinator";
    static final String AGENT = "agent";
    /** Member attribute: the agent's name. */
    static final String NAME = "cpbench.name";
    static final String EXECUTOR = "cpbench-agents";
    static final String INTERVALS = "cpbench-intervals";
    static final String STOPS = "cpbench-stops";
    /** How long a sealed start instant, stop, ready word or interval stays valid: each is acted on at once. */
    static final java.time.Duration MESSAGE_VALID = java.time.Duration.ofSeconds(30);
    /** "RUN AGENT": the agent's clients are connected and its engine is ready to start. */
    static final String READY = "cpbench-ready";
    /** "RUN MICROS": start at this instant, on the coordinator's clock; sent once every agent is ready. */
    static final String GO = "cpbench-go";

    private ControlCluster() {
    }

    /**
     * @param secret  the secret the coordinator and its agents share: the cluster's name comes from it
     * @param bind    the address this member binds and is reached at
     * @param port    the first port to try (the next 20 are tried too)
     * @param members addresses (host or host:port) of members to join; empty for the first member
     * @param role    {@link #COORDINATOR} (the data member) or {@link #AGENT} (a lite member)
     * @param self    this member's name
     */
    static HazelcastInstance start(ControlSecret secret, String bind, int port, List<String> members, String role, String self) {
        Config config = new Config();
        config.setClusterName(secret.clusterName());
        config.setInstanceName("cpbench-control-" + self);
        config.setLiteMember(AGENT.equals(role));
        config.getMemberAttributeConfig().setAttribute(ROLE, role);
        config.getMemberAttributeConfig().setAttribute(NAME, self);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.partition.count", "7");
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", "5");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.event.thread.count", "2");
        config.setProperty("hazelcast.operation.thread.count", "2");
        config.setProperty("hazelcast.operation.generic.thread.count", "2");
        // Log lines without the "[address] [cluster name] [version]" prefix: the cluster name is the secret's.
        config.setProperty("hazelcast.logging.details.enabled", "false");
        // Listen on the address given, not on every interface (Hazelcast binds 0.0.0.0 unless told otherwise).
        config.setProperty("hazelcast.socket.bind.any", "false");
        // Members only: with the advanced network and no client endpoint, a Hazelcast client cannot connect at all.
        AdvancedNetworkConfig network = config.getAdvancedNetworkConfig().setEnabled(true);
        ServerSocketEndpointConfig endpoint = new ServerSocketEndpointConfig();
        endpoint.setPort(port).setPortAutoIncrement(true).setPortCount(20);
        endpoint.setPublicAddress(bind);
        endpoint.getInterfaces().setEnabled(true).addInterface(bind);
        network.setMemberEndpointConfig(endpoint);
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(1).setMembers(members.isEmpty()
                ? List.of(bind + ":" + port) : members);
        config.getSerializationConfig().setJavaSerializationFilterConfig(allowList());
        limitJavaDeserialization();
        config.getExecutorConfig(EXECUTOR).setPoolSize(4);
        // the member's own secret, for the tasks that answer for it (AdmitTask, ClockTask): not a static of the process
        config.getUserContext().put(SECRET_KEY, secret);
        return Hazelcast.newHazelcastInstance(config);
    }

    /**
     * What the control cluster's members deserialize from Java serialization: cp-bench's three tasks (each holds one
     * string: a sealed job, a clock request's nonce, a sealed admission challenge) and the exceptions a failed call brings back, with what a Throwable holds
     * (its stack trace, its suppressed list). Anything else is refused before its class is even loaded. Hazelcast's
     * defaults are off: besides a list of known gadget classes they admit every class under the prefixes "java",
     * "javax" and "com.hazelcast." (seen with its own filter: java.util.HashMap, javax.management's
     * BadAttributeValueExpException and java.lang.reflect.Proxy all pass with them on), which would make any allow-list
     * moot. Named classes, not packages: all of java.lang or java.util.concurrent would let in whatever Serializable
     * class they hold. Hazelcast's own exceptions (a member that left, a timeout) come from its two exception
     * packages. Sizes are bounded too: {@link #LIMITS}.
     */
    static JavaSerializationFilterConfig allowList() {
        JavaSerializationFilterConfig filter = new JavaSerializationFilterConfig().setDefaultsDisabled(true);
        ClassFilter allowed = new ClassFilter();
        allowed.addClasses(AgentTask.class.getName(), ClockTask.class.getName(), AdmitTask.class.getName(),
                ControlTask.class.getName());
        allowed.addClasses("java.lang.Throwable", "java.lang.Exception", "java.lang.RuntimeException", "java.lang.Error",
                "java.lang.IllegalArgumentException", "java.lang.IllegalStateException", "java.lang.NullPointerException",
                "java.lang.UnsupportedOperationException", "java.lang.SecurityException", "java.lang.InterruptedException",
                "java.lang.ArithmeticException", "java.lang.IndexOutOfBoundsException", "java.lang.ClassCastException",
                "java.lang.OutOfMemoryError", "java.lang.StackOverflowError", "java.lang.AssertionError",
                "java.lang.StackTraceElement", "[Ljava.lang.StackTraceElement;", "java.util.Collections$EmptyList",
                "java.util.Collections$UnmodifiableRandomAccessList", "java.util.Collections$UnmodifiableList",
                "java.util.Collections$UnmodifiableCollection", "java.util.ArrayList",
                "java.util.concurrent.ExecutionException", "java.util.concurrent.CancellationException",
                "java.util.concurrent.CompletionException", "java.util.concurrent.RejectedExecutionException",
                "java.util.concurrent.TimeoutException", "java.io.IOException", "java.io.UncheckedIOException",
                "com.hazelcast.nio.serialization.HazelcastSerializationException");
        allowed.addPackages("com.hazelcast.core", "com.hazelcast.spi.exception");
        filter.setWhitelist(allowed);
        return filter;
    }

    /**
     * Limits on what one Java-deserialized object graph may hold, checked by the JDK as it reads (so before it
     * allocates): arrays of at most 100,000 elements (a stack trace has at most 1,024 frames), 64 levels of nesting
     * (a chain of causes), 50,000 references and 16 MB. Far above what cp-bench's tasks and exceptions need, far
     * below what a forged stream would need to exhaust memory or time.
     */
    static final String LIMITS = "maxarray=100000;maxdepth=64;maxrefs=50000;maxbytes=16777216";
    static final java.io.ObjectInputFilter LIMITS_FILTER = java.io.ObjectInputFilter.Config.createFilter(LIMITS);

    /**
     * Sets {@link #LIMITS} as this process's filter for Java deserialization (Hazelcast's streams have none of their
     * own), unless the JVM already has one ({@code -Djdk.serialFilter}, which then applies instead). Called before
     * a control member starts: this process then takes Java serialization from other members.
     */
    static synchronized void limitJavaDeserialization() {
        if (java.io.ObjectInputFilter.Config.getSerialFilter() == null) {
            java.io.ObjectInputFilter.Config.setSerialFilter(LIMITS_FILTER);
        }
    }

    static final String SECRET_KEY = "cpbench.control.secret";

    /** The secret {@code control} was started with; null for a member that cp-bench did not start. */
    static ControlSecret secretOf(HazelcastInstance control) {
        return control == null ? null : (ControlSecret) control.getUserContext().get(SECRET_KEY);
    }

    /** Calls {@code left} with each member that leaves {@code control} from now on. */
    static void onLeave(HazelcastInstance control, java.util.function.Consumer<Member> left) {
        control.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                left.accept(event.getMember());
            }
        });
    }

    static boolean isAgent(Member m) {
        return AGENT.equals(m.getAttribute(ROLE));
    }

    static boolean isCoordinator(Member m) {
        return COORDINATOR.equals(m.getAttribute(ROLE));
    }

    static String name(Member m) {
        return m.getAttribute(NAME);
    }
}
