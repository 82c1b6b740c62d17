package io.cpbench.bench.run;

import io.cpbench.bench.cluster.ClusterChoice;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cluster choice refuses what cannot work before anything starts, naming the option; it needs no cluster. */
class ClusterChoiceTest {

    @Test
    void theDefaultsAreFiveLocalMembersBehindTheEmulator() {
        ClusterChoice choice = ClusterChoice.builder().build();
        assertThat(choice.describe()).isEqualTo("5 local members, network emulated");
        assertThat(choice.startsMembers()).isTrue();
        assertThat(choice.memberCount()).isEqualTo(5);
        assertThat(choice.canSlowAMemberDown()).isTrue();
        assertThat(choice.whyNoFaults()).isEmpty();
    }

    @Test
    void badRangesAndNamesAreRefusedWithTheOptionNamed() {
        assertRefused(ClusterChoice.builder().members(2), "--members must be 3-9 (a CP group), was 2");
        assertRefused(ClusterChoice.builder().topology("cloud"), "unknown topology 'cloud'");
        assertRefused(ClusterChoice.builder().network("fast"), "unknown network path 'fast'; choose emulated, emulated-all, direct");
        assertRefused(ClusterChoice.builder().basePort(80), "--base-port must be 1024-65530");
        assertRefused(ClusterChoice.builder().settle(Duration.ofSeconds(30)).startupTimeout(Duration.ofSeconds(20)),
                "--settle 30s must be shorter than --startup-timeout 20s");
        assertRefused(ClusterChoice.builder().failover("slow"), "--failover: ");
        assertRefused(ClusterChoice.builder().memberSettings(List.of("io-threads=banana")), "--member-setting: ");
    }

    @Test
    void attachNeedsAddressesAndStartsNothing() {
        assertRefused(ClusterChoice.builder().topology("attach"), "--topology attach needs --connect");
        assertRefused(ClusterChoice.builder().connect(List.of("127.0.0.1:5701")), "--connect is for --topology attach");
        assertRefused(ClusterChoice.builder().topology("attach").connect(List.of("127.0.0.1:5701")).noPriority(true),
                "--no-priority applies to the members cp-bench starts");
        ClusterChoice attach = ClusterChoice.builder().topology("attach").connect(List.of("127.0.0.1:5701")).build();
        assertThat(attach.startsMembers()).isFalse();
        assertThat(attach.canSlowAMemberDown()).isFalse();
        assertThat(attach.whyNoFaults()).hasValueSatisfying(why -> assertThat(why).contains("--topology attach has neither"));
    }

    @Test
    void theSlowMemberMustBeAFollower() {
        assertRefused(ClusterChoice.builder().slowMember(0), "--slow-member 0 is the priority member, which leads;"
                + " network (b) needs the slow member to be a follower: choose one of 1, 2, 3, 4");
        assertRefused(ClusterChoice.builder().slowMember(5), "--slow-member must be a member's index, 0-4 with 5 members");
        assertThat(ClusterChoice.builder().slowMember(2).build().links().slowMember()).isEqualTo(2);
        assertThat(ClusterChoice.builder().build().links().slowMember()).as("the default: the last member").isEqualTo(4);
        assertThat(ClusterChoice.builder().network("emulated-all").build().links().all()).isTrue();
    }

    @Test
    void everyLinkProxiedSwitchesOnlyTheEmulatedPath() {
        ClusterChoice emulated = ClusterChoice.builder().build();
        assertThat(emulated.everyLinkProxied().describe()).isEqualTo("5 local members, network emulated-all");
        assertThat(emulated.describe()).as("the original is unchanged").isEqualTo("5 local members, network emulated");
        ClusterChoice direct = ClusterChoice.builder().network("direct").build();
        assertThat(direct.everyLinkProxied()).isSameAs(direct);
    }

    private static void assertRefused(io.cpbench.bench.cluster.ClusterChoiceBuilder builder, String message) {
        assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }
}
