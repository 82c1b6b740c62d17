package io.cpbench.core;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;

import java.util.ArrayList;
import java.util.List;

/** Embedded members forming one CP group on 127.0.0.1, for core's integration tests (core knows no topology module). */
public final class TestCluster {

    private TestCluster() {
    }

    /** {@code size} members on ports {@code basePort}..{@code basePort + size - 1}, every one a CP member. */
    public static List<HazelcastInstance> cpGroup(String clusterName, int basePort, int size) {
        List<HazelcastInstance> members = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            Config config = new Config().setClusterName(clusterName);
            config.setProperty("hazelcast.phone.home.enabled", "false");
            config.getNetworkConfig().setPort(basePort).setPortAutoIncrement(true);
            JoinConfig join = config.getNetworkConfig().getJoin();
            join.getMulticastConfig().setEnabled(false);
            join.getAutoDetectionConfig().setEnabled(false);
            for (int p = 0; p < size; p++) {
                join.getTcpIpConfig().setEnabled(true).addMember("127.0.0.1:" + (basePort + p));
            }
            config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
            config.getCPSubsystemConfig().setCPMemberCount(size);
            members.add(Hazelcast.newHazelcastInstance(config));
        }
        return members;
    }
}
