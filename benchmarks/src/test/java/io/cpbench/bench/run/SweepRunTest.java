package io.cpbench.bench.run;

import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.status.Status;
import io.cpbench.core.sweep.CellRun;
import io.cpbench.core.sweep.CellRunBuilder;
import io.cpbench.core.sweep.SweepCell;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A sweep's exit code follows its cell runs' statuses through the one mapping. */
class SweepRunTest {

    private static CellRun run(int repeat, Status status) {
        return CellRunBuilder.builder().repeat(repeat).cell(new SweepCell("client-smart", 1, 2, null)).status(status)
                .reason(status == Status.OK ? null : "why").seconds(1).ops(100).opsPerSecond(100).build();
    }

    @Test
    void aFailedCellFailsTheSweep() {
        // the bug this guards against: a String was compared with the Status, so a FAIL cell exited 0
        assertThat(ExitCodes.of(SweepRun.status(List.of(run(1, Status.OK), run(2, Status.FAIL), run(3, Status.UNSTABLE))), false, false))
                .isEqualTo(ExitCodes.FAILED);
    }

    @Test
    void unstableCellsAreNotAFailureAndALostAgentIs() {
        assertThat(ExitCodes.of(SweepRun.status(List.of(run(1, Status.OK), run(2, Status.UNSTABLE))), false, false)).isEqualTo(ExitCodes.OK);
        assertThat(ExitCodes.of(SweepRun.status(List.of()), false, false)).isEqualTo(ExitCodes.OK);
        assertThat(ExitCodes.of(SweepRun.status(List.of(run(1, Status.OK), run(2, Status.INCOMPLETE))), false, false))
                .isEqualTo(ExitCodes.FAILED);
    }

    @Test
    void anInterruptionWins() {
        assertThat(ExitCodes.of(SweepRun.status(List.of(run(1, Status.FAIL))), true, false)).isEqualTo(ExitCodes.INTERRUPTED);
    }
}
