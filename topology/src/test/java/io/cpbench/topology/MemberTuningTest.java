package io.cpbench.topology;

import com.hazelcast.config.Config;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemberTuningTest {

    @Test
    void eachKnobSetsItsHazelcastSettingAndTravelsThroughTheLaunchersArguments() {
        MemberTuning tuning = MemberTuning.parse(List.of("operation-threads=3", "io-threads=1", "generic-threads=2",
                "raft-uncommitted-entries=400", "raft-append-batch=25"));
        MemberSettings settings = MemberSettings.builder("c", "127.0.0.1", 5701, List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703")).priority(1)
                .tuning(tuning).build();
        Config config = settings.toConfig();
        assertThat(config.getProperty("hazelcast.operation.thread.count")).isEqualTo("3");
        assertThat(config.getProperty("hazelcast.io.thread.count")).isEqualTo("1");
        assertThat(config.getProperty("hazelcast.operation.generic.thread.count")).isEqualTo("2");
        assertThat(config.getCPSubsystemConfig().getRaftAlgorithmConfig().getUncommittedEntryCountToRejectNewAppends()).isEqualTo(400);
        assertThat(config.getCPSubsystemConfig().getRaftAlgorithmConfig().getAppendRequestMaxEntryCount()).isEqualTo(25);

        MemberLauncher launcher = new MemberLauncher();
        new picocli.CommandLine(launcher).parseArgs(settings.toArgs().toArray(String[]::new));
        assertThat(launcher.settings()).isEqualTo(settings);
    }

    /** The CP Subsystem's settings a run may set; the at-most-once switch is read back as the counter check needs it. */
    @Test
    void theCpSubsystemSettingsReachTheConfigAndTheSwitchIsTrueOrFalse() {
        MemberTuning tuning = MemberTuning.parse(List.of("fail-on-indeterminate-operation-state=true",
                "session-ttl-seconds=60", "session-heartbeat-seconds=2", "missing-member-removal-seconds=0"));
        MemberSettings settings = MemberSettings.builder("c", "127.0.0.1", 5701, List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703")).priority(1)
                .tuning(tuning).build();
        com.hazelcast.config.cp.CPSubsystemConfig cp = settings.toConfig().getCPSubsystemConfig();
        assertThat(cp.isFailOnIndeterminateOperationState()).isTrue();
        assertThat(cp.getSessionTimeToLiveSeconds()).isEqualTo(60);
        assertThat(cp.getSessionHeartbeatIntervalSeconds()).isEqualTo(2);
        assertThat(cp.getMissingCPMemberAutoRemovalSeconds()).isZero();
        assertThat(tuning.atMostOnce()).isTrue();
        assertThat(tuning.describe()).startsWith("fail-on-indeterminate-operation-state=true, session-ttl-seconds=60");
        MemberLauncher launcher = new MemberLauncher();
        new picocli.CommandLine(launcher).parseArgs(settings.toArgs().toArray(String[]::new));
        assertThat(launcher.settings()).isEqualTo(settings);

        MemberTuning off = MemberTuning.parse(List.of("fail-on-indeterminate-operation-state=false"));
        assertThat(off.atMostOnce()).isFalse();
        assertThat(MemberSettings.builder("c", "127.0.0.1", 5701, List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703")).tuning(off).build().toConfig()
                .getCPSubsystemConfig().isFailOnIndeterminateOperationState()).isFalse();
        assertThat(MemberTuning.NONE.atMostOnce()).as("Hazelcast's default: at least once").isFalse();
        assertThatThrownBy(() -> MemberTuning.parse(List.of("fail-on-indeterminate-operation-state=1")))
                .hasMessageContaining("must be true or false");
    }

    @Test
    void noTuningLeavesHazelcastsDefaultsAndAddsNoArguments() {
        MemberSettings plain = MemberSettings.builder("c", "127.0.0.1", 5701, List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703")).priority(1).build();
        assertThat(plain.tuning()).isEqualTo(MemberTuning.NONE);
        assertThat(plain.toArgs()).doesNotContain("--tune");
        Config config = plain.toConfig();
        assertThat(config.getProperty("hazelcast.operation.thread.count")).isNull();
        assertThat(config.getCPSubsystemConfig().getRaftAlgorithmConfig().getUncommittedEntryCountToRejectNewAppends()).isEqualTo(100);
    }

    @Test
    void badSettingsAreNamed() {
        assertThatThrownBy(() -> MemberTuning.parse(List.of("threads=2"))).hasMessageContaining("unknown member setting 'threads'");
        assertThatThrownBy(() -> MemberTuning.parse(List.of("io-threads=x"))).hasMessageContaining("whole number");
        assertThatThrownBy(() -> MemberTuning.parse(List.of("io-threads"))).hasMessageContaining("KNOB=VALUE");
        assertThatThrownBy(() -> MemberTuning.parse(List.of("raft-append-batch=0"))).hasMessageContaining("1-100000, was 0");
        assertThat(MemberTuning.parse(List.of("io-threads=1")).with(MemberTuning.parse(List.of("io-threads=2"))).values())
                .containsEntry("io-threads", 2);
    }
}
