package io.cpbench.bench.agents;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
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

    public static final String DEFAULT_NAME = "cpbench-control";
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

    private ControlCluster() {
    }

    /**
     * @param name    the control cluster's name
     * @param bind    the address this member binds and is reached at
     * @param port    the first port to try (the next 20 are tried too)
     * @param members addresses (host or host:port) of members to join; empty for the first member
     * @param role    {@link #COORDINATOR} (the data member) or {@link #AGENT} (a lite member)
     * @param self    this member's name
     */
    static HazelcastInstance start(String name, String bind, int port, List<String> members, String role, String self) {
        Config config = new Config();
        config.setClusterName(name);
        config.setInstanceName(name + "-" + self);
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
        // Listen on the address given, not on every interface (Hazelcast binds 0.0.0.0 unless told otherwise).
        config.setProperty("hazelcast.socket.bind.any", "false");
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(port).setPortAutoIncrement(true).setPortCount(20);
        network.setPublicAddress(bind);
        network.getInterfaces().setEnabled(true).addInterface(bind);
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(1).setMembers(members.isEmpty()
                ? List.of(bind + ":" + port) : members);
        config.getExecutorConfig(EXECUTOR).setPoolSize(4);
        return Hazelcast.newHazelcastInstance(config);
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
