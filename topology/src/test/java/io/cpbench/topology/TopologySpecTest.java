package io.cpbench.topology;

import io.cpbench.topology.net.EmulatedLinks;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopologySpecTest {

    @Test
    void everyMemberGetsTheSameClusterAndMemberListAndOnlyOneHasPriority() {
        List<MemberSettings> settings = TopologySpec.defaults(Path.of("logs")).memberSettings(new PortPlan(15701, 15801, 15901));

        assertThat(settings).hasSize(5);
        assertThat(settings).extracting(MemberSettings::clusterName).containsOnly(settings.get(0).clusterName());
        assertThat(settings).extracting(MemberSettings::members)
                .containsOnly(List.of("127.0.0.1:15701", "127.0.0.1:15702", "127.0.0.1:15703", "127.0.0.1:15704", "127.0.0.1:15705"));
        assertThat(settings).filteredOn(s -> s.priority() > 0).extracting(MemberSettings::publicPort).containsExactly(15701);
    }

    @Test
    void memberConfigHasCpGroupOfAllMembersPriorityAndRebalancePeriod() {
        MemberSettings settings = TopologySpec.defaults(Path.of("logs")).memberSettings(new PortPlan(15701, 15801, 15901)).get(0);

        var config = settings.toConfig();

        assertThat(config.getCPSubsystemConfig().getCPMemberCount()).isEqualTo(5);
        assertThat(config.getCPSubsystemConfig().getGroupSize()).isEqualTo(5);
        assertThat(config.getCPSubsystemConfig().getCPMemberPriority()).isEqualTo(1);
        assertThat(config.getProperty("hazelcast.raft.leadership.rebalance.period")).isEqualTo("5");
        assertThat(config.getNetworkConfig().getJoin().getMulticastConfig().isEnabled()).isFalse();
    }

    @Test
    void withEmulationAMemberBindsOnePortAnnouncesItsProxyAndConnectsFromItsOwnRange() {
        MemberSettings settings = TopologySpec.defaults(Path.of("logs")).memberSettings(new PortPlan(15701, 15801, 15901)).get(1);

        var network = settings.toConfig().getNetworkConfig();

        assertThat(network.getPort()).isEqualTo(15802);
        assertThat(network.getPublicAddress()).isEqualTo("127.0.0.1:15702");
        assertThat(network.getOutboundPortDefinitions()).containsExactly("15933-15964");
        assertThat(network.getJoin().getTcpIpConfig().getMembers()).contains("127.0.0.1:15701", "127.0.0.1:15705");
    }

    @Test
    void launcherArgumentsRoundTripToTheSameSettings() {
        MemberSettings settings = TopologySpec.defaults(Path.of("logs")).memberSettings(new PortPlan(15701, 15801, 15901)).get(2);
        MemberLauncher launcher = new MemberLauncher();

        new picocli.CommandLine(launcher).parseArgs(settings.toArgs().toArray(String[]::new));

        assertThat(launcher.settings()).isEqualTo(settings);
    }

    static final PortPlan LEAN = new PortPlan(15701, 15801, 16001, 15905, EmulatedLinks.slowMember(4));

    @Test
    void withOnlyTheSlowMembersLinksProxiedMembersAnnounceNamesToMembersAndClientsReachTheSlowOneThroughItsProxy() {
        MemberSettings settings = TopologySpec.defaults(Path.of("logs")).memberSettings(LEAN).get(1);

        var config = settings.toConfig();
        var advanced = config.getAdvancedNetworkConfig();

        assertThat(advanced.isEnabled()).isTrue();
        assertThat(config.getProperty("hazelcast.socket.bind.any")).isEqualTo("false");
        assertThat(config.getProperty("hazelcast.local.localAddress")).isEqualTo("127.0.0.1");
        var member = (com.hazelcast.config.ServerSocketEndpointConfig) advanced.getEndpointConfigs()
                .get(com.hazelcast.instance.EndpointQualifier.MEMBER);
        assertThat(member.getPort()).isEqualTo(15802);
        assertThat(member.getPublicAddress()).isEqualTo("cpbench-member-1:15802");
        assertThat(member.getOutboundPortDefinitions()).containsExactly("16033-16064");
        var client = (com.hazelcast.config.ServerSocketEndpointConfig) advanced.getEndpointConfigs()
                .get(com.hazelcast.instance.EndpointQualifier.CLIENT);
        assertThat(client.getPort()).as("clients reach a member other than the slow one directly").isEqualTo(15702);
        assertThat(client.getPublicAddress()).isEqualTo("127.0.0.1:15702");
        var slowClient = (com.hazelcast.config.ServerSocketEndpointConfig) TopologySpec.defaults(Path.of("logs"))
                .memberSettings(LEAN).get(4).toConfig().getAdvancedNetworkConfig().getEndpointConfigs()
                .get(com.hazelcast.instance.EndpointQualifier.CLIENT);
        assertThat(slowClient.getPort()).as("the slow member, behind its proxy").isEqualTo(15905);
        assertThat(slowClient.getPublicAddress()).isEqualTo("127.0.0.1:15705");
        assertThat(advanced.getJoin().getTcpIpConfig().getMembers()).contains("cpbench-member-0:15801", "cpbench-member-4:15805");
        assertThat(settings.address()).isEqualTo("127.0.0.1:15702");

        MemberLauncher launcher = new MemberLauncher();
        new picocli.CommandLine(launcher).parseArgs(settings.toArgs().toArray(String[]::new));
        assertThat(launcher.settings()).isEqualTo(settings);
    }

    @Test
    void aMemberNameResolvesToTheProxyExactlyWhenOneEndOfTheLinkIsTheSlowMember() {
        EmulatedLinks links = EmulatedLinks.slowMember(4);

        String slow = links.hostsFile(4, 5, "127.0.0.1");
        String other = links.hostsFile(1, 5, "127.0.0.1");

        assertThat(slow).contains("127.0.0.2 cpbench-member-0\n", "127.0.0.2 cpbench-member-3\n", "127.0.0.1 cpbench-member-4\n");
        assertThat(other).contains("127.0.0.1 cpbench-member-0\n", "127.0.0.1 cpbench-member-1\n", "127.0.0.2 cpbench-member-4\n");
        assertThat(other.lines().filter(l -> l.startsWith("127.0.0.1 localhost"))).hasSize(1);
        assertThatThrownBy(() -> EmulatedLinks.ALL.hostsFile(1, 5, "127.0.0.1")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theSlowMemberWhoseLinksAreProxiedMustBeAFollowerOfTheCluster() {
        TopologySpec spec = TopologySpec.defaults(Path.of("logs"));

        assertThatThrownBy(() -> spec.withLinks(EmulatedLinks.slowMember(5))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0-4");
        assertThatThrownBy(() -> spec.withLinks(EmulatedLinks.slowMember(0))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("priority member");
        assertThat(spec.withLinks(EmulatedLinks.ALL).links().all()).isTrue();
    }

    @Test
    void rejectsImpossibleSpecs() {
        assertThatThrownBy(() -> TopologySpec.builder(Path.of("x")).members(2).build()).hasMessageContaining("3-9");
        assertThatThrownBy(() -> TopologySpec.builder(Path.of("x")).priorityIndex(5).build())
                .hasMessageContaining("priority member index");
    }
}
