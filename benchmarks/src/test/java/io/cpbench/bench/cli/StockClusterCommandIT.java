package io.cpbench.bench.cli;

import io.cpbench.bench.service.ExitCodes;
import io.cpbench.topology.StockCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cpbench stock-cluster} is a run like the others: its members' configurations and logs are in its run
 * directory, and Ctrl-C stops them through the run service (exit 130, no member process left).
 */
@Tag("long") // in CI's -Plong run
class StockClusterCommandIT {

    @TempDir
    Path work;

    @Test
    void runsUntilCtrlCThenStopsEveryMemberAndKeepsTheirLogs() throws Exception {
        String name = "stock-cmd-" + ProcessHandle.current().pid();
        CliProcess cli = CliProcess.start(work, "stock-cluster", "--members", "3", "--base-port", "0", "--cluster-name",
                name, "--dir", "runs");
        List<ProcessHandle> members;
        try {
            assertThat(cli.awaitStdout("Ctrl-C stops every member.", 180)).as(cli.stdoutSoFar() + cli.stderrSoFar()).isTrue();
            assertThat(cli.stdoutSoFar()).contains("cluster '" + name + "' up: ").contains("attach with: --topology attach");
            members = cli.descendants().stream().filter(p -> p.info().arguments()
                    .map(a -> List.of(a).contains(StockCluster.STARTER)).orElse(false)).toList();
            assertThat(members).as("the members' JVMs").hasSize(3);
            cli.interrupt();
            CliProcess.Finished finished = cli.finish(90);
            assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.INTERRUPTED);
            // Ctrl-C is this run's normal end: it says what it does, not that a measurement was cut short
            assertThat(finished.stderr()).contains("cp-bench: stopping the members ...")
                    .doesNotContain("keeping what was measured");
        } finally {
            cli.stop();
        }
        // killed before the command exited; gone once the system has reaped them (a wait on that state, not a sleep)
        org.awaitility.Awaitility.await("no member process left").atMost(java.time.Duration.ofSeconds(60))
                .pollInterval(java.time.Duration.ofMillis(200)).until(() -> members.stream().noneMatch(ProcessHandle::isAlive));
        Path runDir;
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        assertThat(runDir.getFileName().toString()).endsWith("-stock-cluster");
        try (Stream<Path> files = Files.list(runDir.resolve("members"))) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .contains("member-0.log", "member-1.log", "member-2.log", "member-0.xml");
        }
    }
}
