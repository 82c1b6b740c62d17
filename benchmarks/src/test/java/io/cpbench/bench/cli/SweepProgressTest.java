package io.cpbench.bench.cli;

import io.cpbench.bench.run.SweepRun;
import io.cpbench.core.sweep.CellRun;
import io.cpbench.core.sweep.CellRunBuilder;
import io.cpbench.core.sweep.SweepCell;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The sweep's time left, on a clock the test moves: a cluster's start is not extrapolated as if every cell paid it. */
class SweepProgressTest {

    private static final long S = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong(0);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);

    private CellRun cell(long seconds) {
        now.addAndGet(seconds * S);
        return CellRunBuilder.builder().repeat(1).cell(new SweepCell("client-smart", 1, 4, null)).status(io.cpbench.core.status.Status.OK)
                .seconds(10).ops(1000).opsPerSecond(100).latency(new CellRun.Latencies(1, 1, 1, 1, 1)).sloActual(1)
                .build();
    }

    /** A sweep of {@code cells} cell runs on {@code clusters} clusters, the first of which took {@code startSeconds}. */
    private SweepRun.Progress started(int cells, int clusters, long startSeconds) {
        SweepRun.Progress p = new SweepRun.Progress(console, cells, clusters, null, new ArrayList<>(), now::get);
        p.clusterStarting();
        now.addAndGet(startSeconds * S);
        return p;
    }

    @Test
    void aFreshClusterPerRepeatCountsTheClustersStillToStartNotTheFirstCellsShareOfOne() {
        // 3 repeats of 18 cells, a cluster per repeat; a cluster costs 60 s (start + warm-up), a cell 13 s
        SweepRun.Progress p = started(54, 3, 60);
        p.run(() -> cell(13));
        assertThat(p.secondsLeft()).isEqualTo(53 * 13 + 2 * 60);
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("[1/54 repeat 1, 1m13s elapsed, ~13m29s left] client-smart");

        for (int i = 0; i < 17; i++) {
            p.run(() -> cell(13));
        }
        p.clusterStarting(); // the second repeat's cluster, 50 s this time
        now.addAndGet(50 * S);
        p.run(() -> cell(13));
        assertThat(p.secondsLeft()).isEqualTo(35 * 13 + 55);
    }

    @Test
    void oneClusterForTheWholeSweepLeavesOnlyCells() {
        SweepRun.Progress p = started(10, 1, 45);
        p.run(() -> cell(12));
        p.run(() -> cell(14));
        assertThat(p.secondsLeft()).isEqualTo(8 * 13);
        assertThat(p.elapsedSeconds()).isEqualTo(71.0);
    }
}
