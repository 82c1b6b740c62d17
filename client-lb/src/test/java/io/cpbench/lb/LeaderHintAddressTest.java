package io.cpbench.lb;

import com.hazelcast.config.AdvancedNetworkConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.ServerSocketEndpointConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPMember;
import com.hazelcast.cp.CPSubsystemManagementService;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.spi.impl.NodeEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LeaderHint#clientAddress} names every CP member by the address its clients use, on real members with
 * advanced networking (members talk on one port, clients on another, as in containers or behind cp-bench's network
 * emulator), and also a member promoted into CP after the start: Hazelcast gives that one a CP UUID of its own, not its
 * cluster member's (a restarted member is promoted so). Before the lookup fell back to the member address, such a
 * member was named by its member-protocol port, which no client reaches, and a leader-aware balancer lost the
 * leader after a restarted member led again.
 */
class LeaderHintAddressTest {

    private static final int CP_MEMBERS = 3;

    private final List<HazelcastInstance> members = new ArrayList<>();

    @AfterEach
    void stopMembers() {
        members.forEach(HazelcastInstance::shutdown);
    }

    @Test
    void everyCpMemberIsNamedByItsClientAddressAPromotedOneToo() throws Exception {
        int[] ports = freePorts(2 * (CP_MEMBERS + 1)); // held together, so no two are the same
        int[] memberPorts = java.util.Arrays.copyOfRange(ports, 0, CP_MEMBERS + 1);
        int[] clientPorts = java.util.Arrays.copyOfRange(ports, CP_MEMBERS + 1, ports.length);
        String cluster = "leader-hint-" + UUID.randomUUID();
        List<String> joinList = new ArrayList<>();
        for (int port : memberPorts) {
            joinList.add("127.0.0.1:" + port);
        }
        // The CP members start together, so each finds the others at once; the fourth joins after CP discovery ended.
        List<CompletableFuture<HazelcastInstance>> starting = new ArrayList<>();
        for (int i = 0; i < CP_MEMBERS; i++) {
            Config config = config(cluster, memberPorts[i], clientPorts[i], joinList);
            starting.add(CompletableFuture.supplyAsync(() -> Hazelcast.newHazelcastInstance(config)));
        }
        for (CompletableFuture<HazelcastInstance> member : starting) {
            members.add(member.get(120, TimeUnit.SECONDS));
        }
        CPSubsystemManagementService cp = members.get(0).getCPSubsystem().getCPSubsystemManagementService();
        assertThat(cp.awaitUntilDiscoveryCompleted(120, TimeUnit.SECONDS)).as("CP discovery completed").isTrue();

        HazelcastInstance late = Hazelcast.newHazelcastInstance(
                config(cluster, memberPorts[CP_MEMBERS], clientPorts[CP_MEMBERS], joinList));
        members.add(late);
        late.getCPSubsystem().getCPSubsystemManagementService().promoteToCPMember()
                .toCompletableFuture().get(120, TimeUnit.SECONDS);
        CPMember promoted = late.getCPSubsystem().getLocalCPMember();
        assertThat(promoted).as("the late member is a CP member").isNotNull();
        assertThat(promoted.getUuid()).as("the case under test: a CP UUID that is not the member's UUID")
                .isNotEqualTo(late.getCluster().getLocalMember().getUuid());

        Collection<CPMember> cpMembers = cp.getCPMembers().toCompletableFuture().get(60, TimeUnit.SECONDS);
        assertThat(cpMembers).hasSize(CP_MEMBERS + 1);
        for (HazelcastInstance asker : members) {
            NodeEngine engine = ((HazelcastInstanceProxy) asker).getOriginal().node.getNodeEngine();
            for (CPMember member : cpMembers) {
                int index = indexOf(memberPorts, member.getAddress().getPort());
                assertThat(LeaderHint.clientAddress(engine, member.getUuid(), member.getAddress()))
                        .as("CP member %s (member port %d) as member %s names it", member.getUuid(),
                                memberPorts[index], asker.getCluster().getLocalMember().getAddress())
                        .isEqualTo("127.0.0.1:" + clientPorts[index]);
            }
        }
    }

    /** Members on {@code memberPort}, clients on {@code clientPort}, both bound to 127.0.0.1 only. */
    private static Config config(String cluster, int memberPort, int clientPort, List<String> joinList) {
        Config config = new Config().setClusterName(cluster);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "none");
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.setProperty("hazelcast.local.localAddress", "127.0.0.1");
        AdvancedNetworkConfig advanced = config.getAdvancedNetworkConfig().setEnabled(true);
        advanced.setMemberEndpointConfig(new ServerSocketEndpointConfig().setPort(memberPort).setPortAutoIncrement(false)
                .setPublicAddress("127.0.0.1:" + memberPort));
        advanced.setClientEndpointConfig(new ServerSocketEndpointConfig().setPort(clientPort).setPortAutoIncrement(false)
                .setPublicAddress("127.0.0.1:" + clientPort));
        JoinConfig join = advanced.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setMembers(joinList).setConnectionTimeoutSeconds(1);
        config.getCPSubsystemConfig().setCPMemberCount(CP_MEMBERS).setGroupSize(CP_MEMBERS);
        return config;
    }

    private static int[] freePorts(int n) throws IOException {
        int[] ports = new int[n];
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(socket);
                ports[i] = socket.getLocalPort();
            }
        } finally {
            for (ServerSocket socket : held) {
                socket.close();
            }
        }
        return ports;
    }

    private static int indexOf(int[] ports, int port) {
        for (int i = 0; i < ports.length; i++) {
            if (ports[i] == port) {
                return i;
            }
        }
        throw new AssertionError("no member has member port " + port);
    }
}
