package io.cpbench.bench.cli;

import io.cpbench.bench.run.ChaosNemesis;
import io.cpbench.bench.run.ChaosRun;
import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.check.Availability;
import io.cpbench.core.check.AvailabilityResultBuilder;
import io.cpbench.topology.MemberRef;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChaosCommandTest {

    @Test
    void aFailedCheckerNeverExitsZero() {
        assertThat(ExitCodes.of(Status.OK, false, false)).isEqualTo(0);
        assertThat(ExitCodes.of(Status.FAIL, false, false)).isEqualTo(1);
        assertThat(ExitCodes.of(Status.INCOMPLETE, false, false)).isEqualTo(1);
        assertThat(ExitCodes.of((Status) null, false, false)).isEqualTo(1);
        assertThat(ExitCodes.of(Status.UNKNOWN, false, false)).isEqualTo(3);
    }

    @Test
    void nemesesAreFaultDashTarget() {
        assertThat(ChaosNemesis.Plan.parse("partition-leader"))
                .isEqualTo(new ChaosNemesis.Plan(ChaosNemesis.Fault.PARTITION, ChaosNemesis.Target.LEADER));
        assertThat(ChaosNemesis.Plan.parse(" Kill-Random ").text()).isEqualTo("kill-random");
        assertThat(ChaosNemesis.Plan.parse("pause-majority").target()).isEqualTo(ChaosNemesis.Target.MAJORITY);
        assertThatThrownBy(() -> ChaosNemesis.Plan.parse("kill")).hasMessageContaining("give FAULT-TARGET");
        assertThatThrownBy(() -> ChaosNemesis.Plan.parse("kill-everyone")).hasMessageContaining("unknown 'kill-everyone'");
    }

    @Test
    void plansThatCouldNotBeHealedOrCarriedOutAreRefused() {
        assertThatThrownBy(() -> ChaosNemesis.Plan.parse("kill-majority").validate(5)).hasMessageContaining("CP cannot re-admit");
        assertThatThrownBy(() -> ChaosNemesis.Plan.parse("slow-minority").validate(5)).hasMessageContaining("slow delays one member");
        ChaosNemesis.Plan.parse("slow-minority").validate(3); // a minority of 3 is one member
        ChaosNemesis.Plan.parse("kill-minority").validate(5);
    }

    @Test
    void minorityAndMajorityHoldTheLeaderAndHaveTheRightSize() {
        List<MemberRef> five = IntStream.range(0, 5).mapToObj(i -> new MemberRef(i, "127.0.0.1:" + (5701 + i), i == 0)).toList();
        MemberRef leader = five.get(3);
        for (long seed = 0; seed < 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            List<MemberRef> minority = ChaosNemesis.pick(ChaosNemesis.Target.MINORITY, five, leader, 5, random);
            List<MemberRef> majority = ChaosNemesis.pick(ChaosNemesis.Target.MAJORITY, five, leader, 5, random);
            List<MemberRef> follower = ChaosNemesis.pick(ChaosNemesis.Target.FOLLOWER, five, leader, 5, random);
            assertThat(minority).hasSize(2).contains(leader).doesNotHaveDuplicates();
            assertThat(majority).hasSize(3).contains(leader).doesNotHaveDuplicates();
            assertThat(follower).hasSize(1).doesNotContain(leader);
        }
        assertThat(ChaosNemesis.pick(ChaosNemesis.Target.LEADER, five, leader, 5, new SplittableRandom(1))).containsExactly(leader);
        assertThat(ChaosNemesis.Target.MINORITY.size(3)).isEqualTo(1);
        assertThat(ChaosNemesis.Target.MAJORITY.size(3)).isEqualTo(2);
        assertThatThrownBy(() -> ChaosNemesis.pick(ChaosNemesis.Target.MAJORITY, five.subList(0, 2), five.get(0), 5, new SplittableRandom(1)))
                .hasMessageContaining("only 2 members are up");
        assertThatThrownBy(() -> ChaosNemesis.pick(ChaosNemesis.Target.LEADER, five, null, 5, new SplittableRandom(1)))
                .hasMessageContaining("no member leads");
        assertThat(ChaosNemesis.describe(List.of(five.get(0), five.get(3)))).isEqualTo("members 0, 3");
    }

    @Test
    void theFaultTableShowsAGapStillOpenAndNoSuccess() {
        String table = ChaosRun.faultTable(List.of(AvailabilityResultBuilder.builder().fault("pause")
                .target("member 0").injectedAtS(12.0).healedAfterMs(20_000).longestGapMs(8_000).gapOpen(true)
                .errors(Map.of("info OperationTimeoutException", 3L)).build(),
                AvailabilityResultBuilder.builder().fault("pause").target("member 1").injectedAtS(40.0)
                        .healedAfterMs(20_000).firstOkMs(2_400.0).longestGapMs(2_500).okOps(10).errors(Map.of())
                        .build()));
        assertThat(table).contains("pause").contains("20.0s").contains("none").contains("8,000 ms+")
                .contains("3 info OperationTimeoutException")
                .contains("over 2 faults: first ok p50 2,400 ms, max 2,400 ms; longest gap p50 5,250 ms, max 8,000 ms;"
                        + " 1 with no success after the injection");
    }
}
