package io.cpbench.bench.cli;

import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stopping a run (Ctrl-C, SIGTERM) keeps what it measured, marked INCOMPLETE, and leaves no process behind. run, load
 * and chaos start clusters of their own, to show their members stop too; ab and sweep attach to the shared cluster
 * ({@link SharedCluster}), where what must stop is their own client processes and the cluster must stay up.
 */
@SharedCluster.Uses
@org.junit.jupiter.api.Tag("long") // in CI's -Plong run: it keeps ./mvnw verify under 15 minutes
class InterruptIT {

    @TempDir
    Path work;

    @Test
    void anInterruptedRunLeavesAnIncompleteResultAndNoMembers() throws Exception {
        CliProcess cli = CliProcess.start(work, "run", "--scenario", "client-leader", "--ops", "10000000",
                "--members", "3", "--warmup", "0", "--settle", "2s", "--cluster-warmup", "0", "--progress", "1s",
                "--out", "runs");
        assertThat(cli.awaitStderr("measure", 300)).as("measuring: " + cli.stderrSoFar()).isTrue();
        List<ProcessHandle> members = cli.process.descendants().toList();
        assertThat(members).hasSize(3);

        cli.interrupt(); // Ctrl-C
        CliProcess.Finished finished = cli.finish(120);

        assertThat(finished.exitCode()).isEqualTo(ExitCodes.INTERRUPTED);
        assertThat(finished.stderr()).contains("interrupted; keeping what was measured")
                .contains("cpbench run: 1 INCOMPLETE of 1 result: client-leader round 1 INCOMPLETE");
        assertAllEnded(members);
        Path result;
        try (Stream<Path> files = Files.walk(work.resolve("runs"))) {
            result = files.filter(p -> p.toString().endsWith("client-leader.json")).findFirst().orElseThrow();
        }
        RunResult r = ResultFiles.read(result);
        assertThat(r.status()).isEqualTo(Status.INCOMPLETE);
        assertThat(r.measured().ops()).isPositive().isLessThan(10_000_000);
        assertThat(r.decodeHistogram().getTotalCount()).isEqualTo(r.measured().ops());
        assertThat(Files.exists(result.resolveSibling("table.md"))).isTrue();
    }

    @Test
    void ctrlCWhileMembersStartSaysSoAndStopsThem() throws Exception {
        CliProcess cli = CliProcess.start(work, "run", "--scenario", "client-leader", "--progress", "1s", "--out", "runs");
        assertThat(cli.awaitStderr("starting: ", 120)).as("start progress: " + cli.stderrSoFar()).isTrue();
        List<ProcessHandle> members = cli.process.descendants().toList();
        assertThat(members).as("member JVMs launched").isNotEmpty();

        cli.interrupt();
        CliProcess.Finished finished = cli.finish(120);

        assertThat(finished.exitCode()).isEqualTo(ExitCodes.INTERRUPTED);
        assertThat(finished.stderr()).contains("cp-bench: interrupted while the cluster was starting; stopping what was started");
        assertAllEnded(members);
        // What the run leaves is the members' logs, evidence of how far it got, and the hosts files they were started
        // with (EmulatedLinks); no results, no empty directories.
        try (Stream<Path> files = Files.walk(work.resolve("runs"))) {
            assertThat(files.filter(Files::isRegularFile).map(p -> p.getFileName().toString())).isNotEmpty()
                    .allMatch(name -> name.startsWith("member-") && (name.contains(".log") || name.endsWith(".hosts")));
        }
    }

    @Test
    void anInterruptedLoadKeepsItsNumbersAsIncompleteAndStopsTheMembers() throws Exception {
        CliProcess cli = CliProcess.start(work, "load", "--mix", "cas,increment", "--clients", "2", "--threads", "2",
                "--duration", "10m", "--warmup", "0s", "--cluster-warmup", "0s", "--members", "3", "--settle", "2s",
                "--out", "runs");
        assertThat(cli.awaitStderr("stage 1/1", 300)).as("live line: " + cli.stderrSoFar()).isTrue();
        List<ProcessHandle> members = cli.process.descendants().toList();
        assertThat(members).hasSize(3);

        cli.interrupt();
        CliProcess.Finished finished = cli.finish(120);

        assertThat(finished.exitCode()).isEqualTo(ExitCodes.INTERRUPTED);
        assertThat(finished.stderr()).contains("cpbench load: 1 INCOMPLETE of 1 result: client-leader round 1 INCOMPLETE");
        assertAllEnded(members);
        Path result;
        try (Stream<Path> files = Files.walk(work.resolve("runs"))) {
            result = files.filter(p -> p.toString().endsWith("client-leader.load.json")).findFirst().orElseThrow();
        }
        RunResult r = ResultFiles.read(result);
        assertThat(r.status()).isEqualTo(Status.INCOMPLETE);
        assertThat(r.load().outcome()).isEqualTo(Status.INCOMPLETE);
        assertThat(r.measured().ops()).isPositive();
        assertThat(r.measured().durationSeconds()).isLessThan(300);
        // the counter was still checked: interrupted ops are unknown, never lost
        assertThat(r.load().invariants()).singleElement().satisfies(i -> assertThat(i.holds()).as(i.evidence()).isTrue());
        assertThat(Files.readAllLines(result.resolveSibling("01-client-leader.load").resolve("load.csv"))).hasSizeGreaterThan(1);
    }

    @Test
    void anInterruptedAbKeepsThePairsItMeasuredAndStopsItsClients() throws Exception {
        CliProcess cli = CliProcess.start(work, SharedCluster.with("ab", "--settle", "2s",
                "--warmup", "1s", "--slice", "200ms", "--until-ci", "0", "--max-pairs", "5000", "--out", "ab"));
        assertThat(cli.awaitStdout("warm-up:", 300)).as("pairs begin: " + cli.stdoutSoFar()).isTrue();
        // two pairs measured: slices.csv gets each pair's turns as the pair ends
        org.awaitility.Awaitility.await("two pairs in slices.csv").atMost(java.time.Duration.ofSeconds(60))
                .pollInterval(java.time.Duration.ofMillis(100)).until(() -> slicesSoFar(work.resolve("ab")) >= 1 + 4);
        List<ProcessHandle> started = cli.process.descendants().toList();
        assertThat(started.stream().filter(p -> p.info().commandLine().orElse("").contains("ab-worker"))).hasSize(2);

        cli.interrupt();
        CliProcess.Finished finished = cli.finish(120);

        assertThat(finished.exitCode()).as(finished.stderr()).isEqualTo(ExitCodes.INTERRUPTED);
        assertAllEnded(started);
        Path table;
        try (Stream<Path> files = Files.walk(work.resolve("ab"))) {
            table = files.filter(p -> p.getFileName().toString().equals("table.md")).findFirst().orElseThrow();
        }
        assertThat(Files.readString(table)).contains("INCOMPLETE: interrupted after").contains("| ab ");
        assertThat(Files.readAllLines(table.resolveSibling("slices.csv")).size()).isGreaterThan(4);
        assertSharedClusterUp();
    }

    @Test
    void anInterruptedSweepAnalysesTheCellsItMeasuredAndMarksThemIncomplete() throws Exception {
        CliProcess cli = CliProcess.start(work, SharedCluster.with("sweep", "--scenario", "client-leader", "--threads",
                "1,2,4", "--duration", "2s", "--warmup", "0s", "--repeats", "5", "--cluster-warmup", "0s",
                "--settle", "2s", "--out", "sweeps"));
        assertThat(cli.awaitStdout("[2/15 repeat 1", 300)).as("two cells: " + cli.stdoutSoFar()).isTrue();

        cli.interrupt();
        CliProcess.Finished finished = cli.finish(120);

        assertThat(finished.exitCode()).as(finished.stderr()).isEqualTo(ExitCodes.INTERRUPTED);
        assertSharedClusterUp();
        assertThat(finished.stdout()).contains("INCOMPLETE: not every cell");
        Path json;
        try (Stream<Path> files = Files.walk(work.resolve("sweeps"))) {
            json = files.filter(p -> p.getFileName().toString().equals("sweep.json")).findFirst().orElseThrow();
        }
        assertThat(Files.readString(json)).contains("\"status\" : \"INCOMPLETE\"");
        List<String> rows = Files.readAllLines(json.resolveSibling("cells.csv"));
        assertThat(rows.size() - 1).isBetween(2, 14);
        assertThat(rows.get(1)).contains(",OK,");
    }

    @Test
    void ctrlCWhileTheLeaderIsPausedResumesItStopsEveryMemberAndChecksTheHistorySoFar() throws Exception {
        CliProcess cli = CliProcess.start(work, "chaos", "--nemesis", "pause-leader", "--members", "3", "--failover", "fast",
                "--fault-for", "60s", "--interval", "3s", "--duration", "5m", "--clients", "1", "--threads", "2",
                "--cluster-warmup", "1s", "--quiet", "--out", "runs");
        assertThat(cli.awaitStdout("pause member", 300)).as("a pause: " + cli.stdoutSoFar()).isTrue();
        List<ProcessHandle> processes = cli.process.descendants().toList();
        List<ProcessHandle> stopped = processes.stream()
                .filter(p -> processState(p).equals("T")).toList();
        assertThat(stopped).as("the paused leader").hasSize(1);

        cli.interrupt();
        CliProcess.Finished finished = cli.finish(180);

        assertThat(finished.exitCode()).as(finished.stderr()).isEqualTo(ExitCodes.INTERRUPTED);
        assertAllEnded(processes); // the members, and the pause's watchdog
        assertThat(finished.stdout()).contains("linearizability: linearizable").contains("over 1 fault: first ok");
        Path history;
        try (Stream<Path> files = Files.walk(work.resolve("runs"))) {
            history = files.filter(p -> p.getFileName().toString().equals("history.jsonl")).findFirst().orElseThrow();
        }
        assertThat(Files.readAllLines(history)).hasSizeGreaterThan(100);
        assertThat(Files.readString(history.resolveSibling("chaos.json"))).contains("\"nemesis\" : \"pause-leader\"");
    }

    /** The process's state letter from /proc (T: stopped). */
    private static String processState(ProcessHandle p) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    /** The shared cluster that ab and sweep attached to is still up: an interrupt stops what the run started, only. */
    /** Lines in the ab run's slices.csv so far, its header included; 0 before it exists. */
    private static long slicesSoFar(Path out) throws java.io.IOException {
        if (!Files.isDirectory(out)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(out)) {
            Path slices = files.filter(p -> p.getFileName().toString().equals("slices.csv")).findFirst().orElse(null);
            return slices == null ? 0 : Files.readAllLines(slices).size();
        }
    }

    private static void assertSharedClusterUp() {
        assertThat(SharedCluster.topology().members()).allMatch(SharedCluster.topology()::isAlive);
    }

    private static void assertAllEnded(List<ProcessHandle> members) throws Exception {
        for (ProcessHandle member : members) {
            member.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(member.isAlive()).isFalse();
        }
    }
}
