package io.cpbench.bench.cli;

import io.cpbench.core.check.Availability;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.cpbench.core.check.Linearizability.Verdict.LINEARIZABLE;
import static io.cpbench.core.check.Linearizability.Verdict.NOT_LINEARIZABLE;
import static io.cpbench.core.check.Linearizability.Verdict.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChaosCommandTest {

    @Test
    void aFailedCheckerNeverExitsZero() {
        assertThat(ChaosCommand.exitCode(LINEARIZABLE, true)).isEqualTo(0);
        assertThat(ChaosCommand.exitCode(NOT_LINEARIZABLE, true)).isEqualTo(1);
        assertThat(ChaosCommand.exitCode(LINEARIZABLE, false)).isEqualTo(1);
        assertThat(ChaosCommand.exitCode(UNKNOWN, false)).isEqualTo(1);
        assertThat(ChaosCommand.exitCode(UNKNOWN, true)).isEqualTo(3);
    }

    @Test
    void nemesesAreFaultDashTarget() {
        assertThat(ChaosCommand.Nemesis.parse("partition-leader"))
                .isEqualTo(new ChaosCommand.Nemesis(ChaosCommand.Fault.PARTITION, ChaosCommand.Target.LEADER));
        assertThat(ChaosCommand.Nemesis.parse(" Kill-Random ").text()).isEqualTo("kill-random");
        assertThatThrownBy(() -> ChaosCommand.Nemesis.parse("kill")).hasMessageContaining("give FAULT-TARGET");
        assertThatThrownBy(() -> ChaosCommand.Nemesis.parse("kill-everyone")).hasMessageContaining("unknown 'kill-everyone'");
    }

    @Test
    void theFaultTableShowsAGapStillOpenAndNoSuccess() {
        String table = ChaosCommand.faultTable(List.of(new Availability.Result("pause", "member 0", 12.0, 20_000, null,
                8_000, true, 0, Map.of("info OperationTimeoutException", 3L))));
        assertThat(table).contains("pause").contains("20.0s").contains("none").contains("8,000 ms+")
                .contains("3 info OperationTimeoutException");
    }
}
