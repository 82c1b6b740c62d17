package io.cpbench.bench.cli;

import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Stopping a run (Ctrl-C, SIGTERM) keeps what it measured, marked INCOMPLETE, and leaves no member behind. */
class InterruptIT {

    @TempDir
    Path work;

    @Test
    void anInterruptedRunLeavesAnIncompleteResultAndNoMembers() throws Exception {
        CliProcess cli = CliProcess.start(work, "run", "--scenario", "client-leader", "--ops", "10000000",
                "--warmup", "0", "--settle", "2s", "--cluster-warmup", "0", "--progress", "1s", "--out", "runs");
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (!cli.stderrSoFar().contains("measure") && cli.process.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(cli.process.isAlive()).as("still measuring: " + cli.stderrSoFar()).isTrue();
        List<ProcessHandle> members = cli.process.descendants().toList();
        assertThat(members).hasSize(5);

        cli.process.destroy(); // SIGTERM: the JVM runs the same shutdown path as for Ctrl-C
        CliProcess.Finished finished = cli.finish(120);

        assertThat(finished.stderr()).contains("interrupted; keeping what was measured");
        for (ProcessHandle member : members) {
            member.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(member.isAlive()).isFalse();
        }
        Path result;
        try (Stream<Path> files = Files.walk(work.resolve("runs"))) {
            result = files.filter(p -> p.toString().endsWith("client-leader.json")).findFirst().orElseThrow();
        }
        RunResult r = ResultFiles.read(result);
        assertThat(r.status()).isEqualTo(Status.INCOMPLETE);
        assertThat(r.ops()).isPositive().isLessThan(10_000_000);
        assertThat(r.decodeHistogram().getTotalCount()).isEqualTo(r.ops());
        assertThat(Files.exists(result.resolveSibling("table.md"))).isTrue();
    }
}
