package io.cpbench.topology;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.cp.RaftAlgorithmConfig;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FailoverPresetTest {

    private static MemberSettings member(FailoverPreset preset) {
        return MemberSettings.builder("c", "127.0.0.1", 5702, List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703")).failover(preset).build();
    }

    private static void assertRaft(Config config, long heartbeatMillis, int missedBeats, long electionTimeoutMillis) {
        RaftAlgorithmConfig raft = config.getCPSubsystemConfig().getRaftAlgorithmConfig();
        assertThat(raft.getLeaderHeartbeatPeriodInMillis()).isEqualTo(heartbeatMillis);
        assertThat(raft.getMaxMissedLeaderHeartbeatCount()).isEqualTo(missedBeats);
        assertThat(raft.getLeaderElectionTimeoutInMillis()).isEqualTo(electionTimeoutMillis);
    }

    @Test
    void defaultIsHazelcastsOwnRaftTimingAndSetsNoProperty() {
        RaftAlgorithmConfig hazelcasts = new RaftAlgorithmConfig();
        Config config = member(FailoverPreset.DEFAULTS).toConfig();
        assertRaft(config, hazelcasts.getLeaderHeartbeatPeriodInMillis(), hazelcasts.getMaxMissedLeaderHeartbeatCount(),
                hazelcasts.getLeaderElectionTimeoutInMillis());
        assertThat(config.getCPSubsystemConfig().isFailOnIndeterminateOperationState()).isFalse();
        assertThat(config.getProperty("hazelcast.max.no.heartbeat.seconds")).isNull();
        ClientConfig client = new ClientConfig();
        FailoverPreset.DEFAULTS.apply(client);
        assertThat(client.getProperties()).isEmpty();
    }

    @Test
    void fastReachesTheMembersThroughTheLaunchersArguments() {
        FailoverPreset fast = FailoverPreset.FAST;
        MemberSettings settings = member(fast);
        MemberLauncher launcher = new MemberLauncher();
        new picocli.CommandLine(launcher).parseArgs(settings.toArgs().toArray(String[]::new));
        assertThat(launcher.settings()).isEqualTo(settings);

        Config config = launcher.settings().toConfig();
        RaftAlgorithmConfig raft = config.getCPSubsystemConfig().getRaftAlgorithmConfig();
        assertThat(raft.getLeaderHeartbeatPeriodInMillis()).isEqualTo(50);
        assertThat(raft.getMaxMissedLeaderHeartbeatCount()).isEqualTo(3);
        assertThat(raft.getLeaderElectionTimeoutInMillis()).isEqualTo(50);
        assertThat(config.getCPSubsystemConfig().isFailOnIndeterminateOperationState()).isTrue();
        assertThat(config.getProperty("hazelcast.max.no.heartbeat.seconds")).isEqualTo("5");
        assertThat(config.getProperty("hazelcast.heartbeat.interval.seconds")).isEqualTo("1");
        assertThat(config.getProperty("hazelcast.invocation.retry.pause.millis")).isEqualTo("50");
        assertThat(config.getProperty("hazelcast.merge.first.run.delay.seconds")).isEqualTo("5");
    }

    @Test
    void fastDetectsAFailedLeaderSoonerThanTheDefaultsOnEveryDetector() {
        FailoverPreset d = FailoverPreset.DEFAULTS;
        FailoverPreset f = FailoverPreset.FAST;
        // a follower gives up on the leader after missed x period, and its check runs every [election timeout, +1 s]
        assertThat(f.leaderHeartbeatMillis() * f.maxMissedHeartbeats())
                .isLessThan(d.leaderHeartbeatMillis() * d.maxMissedHeartbeats() / 10);
        assertThat(f.electionTimeoutMillis()).isLessThan(d.electionTimeoutMillis());
        // the heartbeat timeout must still span several beats, or one late beat starts an election
        assertThat(f.maxMissedHeartbeats()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void fastSetsTheClientsAndSaysWhatItSets() {
        ClientConfig client = new ClientConfig();
        FailoverPreset.FAST.apply(client);
        assertThat(client.getProperty("hazelcast.client.heartbeat.timeout")).isEqualTo("2000");
        assertThat(client.getProperty("hazelcast.client.heartbeat.interval")).isEqualTo("400");
        assertThat(client.getProperty("hazelcast.client.invocation.retry.pause.millis")).isEqualTo("50");
        assertThat(client.getProperty("hazelcast.client.fail.on.indeterminate.operation.state")).isEqualTo("true");
        assertThat(FailoverPreset.FAST.describe()).startsWith("fast (Raft heartbeat 50 ms x 3, election 50 ms; members:");
    }

    @Test
    void anUnknownPresetIsNamedWithTheKnownOnes() {
        assertThat(FailoverPreset.of(" FAST ")).isSameAs(FailoverPreset.FAST);
        assertThatThrownBy(() -> FailoverPreset.of("quick"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown failover preset 'quick'; known: default, fast, fast-raft");
    }

    @Test
    void fastRaftIsFastsRaftAndClientsWithHazelcastsMemberFailureDetection() {
        FailoverPreset fast = FailoverPreset.FAST;
        FailoverPreset raft = FailoverPreset.of("fast-raft");
        Config config = member(raft).toConfig();
        assertRaft(config, fast.leaderHeartbeatMillis(), fast.maxMissedHeartbeats(), fast.electionTimeoutMillis());
        assertThat(config.getCPSubsystemConfig().isFailOnIndeterminateOperationState()).isTrue();
        // no member is declared dead sooner than Hazelcast's 60 s, so none merges back after a pause
        assertThat(config.getProperty("hazelcast.max.no.heartbeat.seconds")).isNull();
        assertThat(config.getProperty("hazelcast.heartbeat.interval.seconds")).isNull();
        assertThat(config.getProperty("hazelcast.merge.first.run.delay.seconds")).isNull();
        assertThat(config.getProperty("hazelcast.invocation.retry.pause.millis")).isEqualTo("50");
        ClientConfig fastClient = new ClientConfig();
        fast.apply(fastClient);
        ClientConfig raftClient = new ClientConfig();
        raft.apply(raftClient);
        assertThat(raftClient.getProperties()).isEqualTo(fastClient.getProperties());
        assertThat(raft.describe()).contains("members: dead after Hazelcast's 60 s of silence, retry every 50 ms");
    }
}
