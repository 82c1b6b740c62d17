package io.cpbench.topology;

import com.hazelcast.config.AdvancedNetworkConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.ServerSocketEndpointConfig;
import com.hazelcast.instance.EndpointQualifier;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How members in containers are addressed: by alias (or a gateway proxy) among members, by published port to clients. */
class ContainerSettingsTest {

    static final TopologySpec SPEC = TopologySpec.defaults(Path.of("logs"));

    @Test
    void directMembersJoinByAliasAndTellClientsTheirPublishedPort() {
        PortPlan ports = new PortPlan(6000, 6000, 0);
        ContainerLayout layout = new ContainerLayout(false, false, "10.213.7.", ports, 0);
        List<MemberSettings> settings = ContainerTopology.settings(SPEC, "cpbench-x", layout);

        assertThat(settings).hasSize(5);
        assertThat(settings.get(0).members()).containsExactly("cpbench-x-m0:5702", "cpbench-x-m1:5702",
                "cpbench-x-m2:5702", "cpbench-x-m3:5702", "cpbench-x-m4:5702");
        assertThat(settings.get(2).memberAddress()).isEqualTo("cpbench-x-m2:5702");
        assertThat(settings.get(2).address()).isEqualTo("127.0.0.1:6002");
        assertThat(settings.get(2).outboundPorts()).isNull();
        assertThat(settings).extracting(MemberSettings::priority).containsExactly(1, 0, 0, 0, 0);
        assertThat(SPEC.memberRefs(settings).get(4).address()).isEqualTo("127.0.0.1:6004");
    }

    @Test
    void emulatedMembersJoinThroughGatewayProxiesFromTheirOwnOutboundPorts() {
        PortPlan ports = new PortPlan(6000, 6100, 6200);
        ContainerLayout layout = new ContainerLayout(true, false, "10.213.7.", ports, 6500);
        List<MemberSettings> settings = ContainerTopology.settings(SPEC, "cpbench-x", layout);

        assertThat(settings.get(1).members()).containsExactly("10.213.7.1:6500", "10.213.7.1:6501", "10.213.7.1:6502",
                "10.213.7.1:6503", "10.213.7.1:6504");
        assertThat(settings.get(1).memberAddress()).isEqualTo("10.213.7.1:6501");
        assertThat(settings.get(1).port()).isEqualTo(ContainerTopology.MEMBER_PORT);
        assertThat(settings.get(1).outboundPorts()).isEqualTo(ports.outboundRange(1));
        assertThat(settings.get(1).address()).isEqualTo("127.0.0.1:6001");
        assertThat(layout.ip(3)).isEqualTo("10.213.7.13");
        assertThat(layout.publishedClientPort(3)).isEqualTo(6103);
    }

    @Test
    void aClientEndpointTurnsOnAdvancedNetworkingAndTravelsThroughTheLaunchersArguments() {
        MemberSettings settings = MemberSettings.builder("c", "cpbench-x-m1", 5702,
                        List.of("cpbench-x-m0:5702", "cpbench-x-m1:5702", "cpbench-x-m2:5702"))
                .outboundPorts("6232-6263").failover(FailoverPreset.FAST)
                .clientEndpoint(new MemberSettings.ClientEndpoint(5701, "127.0.0.1:6001")).build();
        Config config = settings.toConfig();

        AdvancedNetworkConfig advanced = config.getAdvancedNetworkConfig();
        assertThat(advanced.isEnabled()).isTrue();
        ServerSocketEndpointConfig member = (ServerSocketEndpointConfig) advanced.getEndpointConfigs().get(EndpointQualifier.MEMBER);
        ServerSocketEndpointConfig client = (ServerSocketEndpointConfig) advanced.getEndpointConfigs().get(EndpointQualifier.CLIENT);
        assertThat(member.getPort()).isEqualTo(5702);
        assertThat(member.getPublicAddress()).isEqualTo("cpbench-x-m1:5702");
        assertThat(member.getOutboundPortDefinitions()).containsExactly("6232-6263");
        assertThat(client.getPort()).isEqualTo(5701);
        assertThat(client.getPublicAddress()).isEqualTo("127.0.0.1:6001");
        assertThat(advanced.getJoin().getTcpIpConfig().getMembers()).containsExactlyElementsOf(settings.members());
        assertThat(config.getProperty("hazelcast.socket.bind.any")).isEqualTo("true");

        MemberLauncher launcher = new MemberLauncher();
        new picocli.CommandLine(launcher).parseArgs(settings.toArgs().toArray(String[]::new));
        assertThat(launcher.settings()).isEqualTo(settings);
    }

    @Test
    void withoutAClientEndpointMembersKeepOneEndpoint() {
        MemberSettings plain = MemberSettings.builder("c", "127.0.0.1", 5701, List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703")).priority(1).build();
        assertThat(plain.toConfig().getAdvancedNetworkConfig().isEnabled()).isFalse();
        assertThat(plain.toArgs()).doesNotContain("--client-port");
        assertThat(plain.address()).isEqualTo(plain.memberAddress());
    }

    @Test
    void aClientPortNeedsItsAddress() {
        MemberLauncher launcher = new MemberLauncher();
        new picocli.CommandLine(launcher).parseArgs("--cluster-name", "c", "--port", "5702", "--members",
                "a:5702,b:5702,c:5702", "--client-port", "5701");
        assertThatThrownBy(launcher::settings).hasMessageContaining("--client-port and --client-public-address go together");
        assertThatThrownBy(() -> new MemberSettings.ClientEndpoint(5701, "localhost")).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A stock member reads its settings from XML: parsed as Hazelcast parses it, the XML gives the endpoints, join list,
     * cluster name, priority and rebalance period that {@link MemberSettings#toConfig()} gives cp-bench's members.
     */
    @Test
    void aStockMembersXmlSaysWhatItsSettingsSay() {
        MemberSettings container = MemberSettings.builder("cpbench-x", "cpbench-x-m1", 5702,
                        List.of("cpbench-x-m0:5702", "cpbench-x-m1:5702", "cpbench-x-m2:5702")).priority(1).rebalancePeriodSeconds(7)
                .clientEndpoint(new MemberSettings.ClientEndpoint(5701, "127.0.0.1:6001")).build();
        Config fromXml = new com.hazelcast.config.InMemoryXmlConfig(StockXml.of(container, 2));
        Config fromCode = container.toConfig();

        AdvancedNetworkConfig advanced = fromXml.getAdvancedNetworkConfig();
        assertThat(advanced.isEnabled()).isTrue();
        for (EndpointQualifier q : List.of(EndpointQualifier.MEMBER, EndpointQualifier.CLIENT)) {
            ServerSocketEndpointConfig xml = (ServerSocketEndpointConfig) advanced.getEndpointConfigs().get(q);
            ServerSocketEndpointConfig code = (ServerSocketEndpointConfig) fromCode.getAdvancedNetworkConfig().getEndpointConfigs().get(q);
            assertThat(xml.getPort()).as(q.toString()).isEqualTo(code.getPort());
            assertThat(xml.isPortAutoIncrement()).as(q.toString()).isFalse();
            assertThat(xml.getPublicAddress()).as(q.toString()).isEqualTo(code.getPublicAddress());
        }
        assertThat(advanced.getJoin().getTcpIpConfig().getMembers()).containsExactlyElementsOf(container.members());
        assertThat(advanced.getJoin().getMulticastConfig().isEnabled()).isFalse();
        assertThat(fromXml.getClusterName()).isEqualTo("cpbench-x");
        assertThat(fromXml.getCPSubsystemConfig().getCPMemberCount()).isEqualTo(3);
        assertThat(fromXml.getCPSubsystemConfig().getCPMemberPriority()).isEqualTo(1);
        assertThat(fromXml.getProperty("hazelcast.raft.leadership.rebalance.period")).isEqualTo("7");
        assertThat(fromXml.getProperty("hazelcast.diagnostics.metrics.period.seconds")).isEqualTo("2");

        MemberSettings local = MemberSettings.builder("s", "127.0.0.1", 5801,
                List.of("127.0.0.1:5801", "127.0.0.1:5802", "127.0.0.1:5803")).build();
        Config plain = new com.hazelcast.config.InMemoryXmlConfig(StockXml.of(local, 60));
        assertThat(plain.getAdvancedNetworkConfig().isEnabled()).isFalse();
        assertThat(plain.getNetworkConfig().getPort()).isEqualTo(5801);
        assertThat(plain.getNetworkConfig().getPublicAddress()).isEqualTo("127.0.0.1:5801");
        assertThat(plain.getNetworkConfig().getInterfaces().getInterfaces()).containsExactly("127.0.0.1");
        assertThat(plain.getNetworkConfig().getJoin().getTcpIpConfig().getMembers()).containsExactlyElementsOf(local.members());
        assertThat(plain.getCPSubsystemConfig().getCPMemberPriority()).isZero();
        assertThat(plain.getProperty("hazelcast.metrics.collection.frequency")).isEqualTo("5");
    }
}
