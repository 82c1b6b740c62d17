package io.cpbench.topology;

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

    @Test
    void rejectsImpossibleSpecs() {
        assertThatThrownBy(() -> new TopologySpec(2, 0, "127.0.0.1", 0, 5, TopologySpec.DEFAULT_SETTLE,
                TopologySpec.DEFAULT_STARTUP_TIMEOUT, Path.of("x"), List.of(), true)).hasMessageContaining("3-9");
        assertThatThrownBy(() -> new TopologySpec(5, 5, "127.0.0.1", 0, 5, TopologySpec.DEFAULT_SETTLE,
                TopologySpec.DEFAULT_STARTUP_TIMEOUT, Path.of("x"), List.of(), true)).hasMessageContaining("priority member index");
    }
}
