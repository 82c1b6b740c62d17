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
        config.getExecutorConfig(EXECUTOR).setPoolSize(4);
        return Hazelcast.newHazelcastInstance(config);
    }

    /**
     * What the control cluster's members deserialize from Java serialization: cp-bench's tasks and what they hold
     * (a sealed job is one string), and the exceptions a failed call returns. Anything else is
     * refused before its class is even loaded, and Hazelcast's own list of known gadget classes stays on.
     */
    static JavaSerializationFilterConfig allowList() {
        JavaSerializationFilterConfig filter = new JavaSerializationFilterConfig().setDefaultsDisabled(false);
        ClassFilter allowed = new ClassFilter();
        for (Class<?> type : List.of(AgentTask.class, ClockTask.class)) {
            allowed.addClasses(type.getName());
        }
        allowed.addClasses("java.util.CollSer", "java.util.ImmutableCollections$ListN", "java.util.ImmutableCollections$List12",
                "[Ljava.lang.Object;", "java.lang.Number", "java.lang.Long", "java.lang.Integer", "java.lang.Boolean",
                "[Ljava.lang.StackTraceElement;", "java.lang.StackTraceElement", "java.util.Collections$EmptyList",
                "java.util.Collections$UnmodifiableRandomAccessList", "java.util.Collections$UnmodifiableList",
                "java.util.Collections$UnmodifiableCollection", "java.util.ArrayList");
        // exceptions: a failed task's, and Hazelcast's own (a member that left, a timeout); packages, not prefixes, so
        // that java.lang.reflect and java.lang.invoke stay out
        allowed.addPackages("java.lang", "java.util.concurrent", "com.hazelcast.core", "com.hazelcast.spi.exception");
        allowed.addClasses("com.hazelcast.nio.serialization.HazelcastSerializationException");
        filter.setWhitelist(allowed);
        return filter;
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
