package io.cpbench.bench.cli;

import io.cpbench.core.load.LoadResult;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.Status;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code load --agents 3}: three agent processes on loopback, which meet the coordinator in a control cluster of
 * their own, load the shared local 3-member cluster ({@link SharedCluster}); the result merges theirs exactly.
 */
@SharedCluster.Uses
@Tag("long") // in CI's -Plong run: it keeps ./mvnw verify under 15 minutes
class AgentsIT {

    @TempDir
    Path work;

    /** The one result of the one run directory under {@code runs}. */
    static RunResult onlyResult(Path runs) throws Exception {
        Path runDir;
        try (Stream<Path> dirs = Files.list(runs)) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        List<RunResult> results = ResultFiles.readAll(List.of(runDir));
        assertThat(results).hasSize(1);
        return results.get(0);
    }

    private static void noAgentLeft(CliProcess cli) throws InterruptedException {
        List<ProcessHandle> left = cli.descendants().stream().filter(ProcessHandle::isAlive).toList();
        for (ProcessHandle p : left) {
            p.onExit().completeOnTimeout(p, 10, TimeUnit.SECONDS).join();
        }
        assertThat(left.stream().filter(ProcessHandle::isAlive)).as("agent processes left behind").isEmpty();
    }

    @Test
    void threeAgentsMergeIntoOneResultWhoseCountsAndHistogramAreTheirSum() throws Exception {
        CliProcess cli = CliProcess.start(work, SharedCluster.with("load", "--agents", "3", "--mix", "cas=3,increment=1",
                "--clients", "3", "--threads", "2", "--duration", "4s", "--warmup", "1s", "--cluster-warmup", "0s",
                "--scenario", "client-smart", "--settle", "2s", "--out", "runs"));
        CliProcess.Finished finished = cli.finish(240);
        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.OK);
        assertThat(finished.stdout()).contains("3 agents joined the control cluster").contains("agent-1: clock")
                .contains("agent-3 (");
        RunResult r = onlyResult(work.resolve("runs"));
        assertThat(r.status()).as(r.reason()).isEqualTo(Status.OK);
        LoadResult load = r.load();
        assertThat(load.agents()).hasSize(3).allSatisfy(a -> {
            assertThat(a.outcome()).as(a.agent() + ": " + a.reason()).isNotNull();
            assertThat(a.all().ops()).as(a.agent()).isGreaterThan(0);
            assertThat(Math.abs(a.clockOffsetMs())).isLessThan(100);
        });
        long sum = load.agents().stream().mapToLong(a -> a.all().ops()).sum();
        assertThat(load.total().all().ops()).isEqualTo(sum);
        assertThat(load.total().all().errors()).isEqualTo(load.agents().stream().mapToLong(a -> a.all().errors()).sum());
        // the merged histogram is the union of the agents' own: every count in every bucket
        Histogram union = new Histogram(3);
        load.agents().forEach(a -> a.histograms().values().forEach(h -> union.add(RunResult.decode(h))));
        Histogram merged = new Histogram(3);
        load.histograms().values().forEach(h -> merged.add(RunResult.decode(h)));
        assertThat(merged).isEqualTo(union);
        assertThat(merged.getTotalCount()).isEqualTo(sum);
        // each agent worked on objects of its own and checked them
        assertThat(load.invariants()).extracting(LoadResult.InvariantResult::name)
                .anyMatch(n -> n.startsWith("agent-1: ")).anyMatch(n -> n.startsWith("agent-3: "));
        noAgentLeft(cli);
    }

    @Test
    void anOpenLoopRateSplitBetweenAgentsAddsUpToItsTarget() throws Exception {
        CliProcess cli = CliProcess.start(work, SharedCluster.with("load", "--agents", "3", "--mix", "get",
                "--clients", "3", "--threads", "4", "--rate", "300", "--duration", "6s", "--warmup", "1s",
                "--cluster-warmup", "0s", "--scenario", "client-smart", "--settle", "2s", "--quiet", "--out", "runs"));
        CliProcess.Finished finished = cli.finish(240);
        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.OK);
        LoadResult load = onlyResult(work.resolve("runs")).load();
        assertThat(load.schedule().due()).isEqualTo(1800);
        assertThat(load.total().all().ops() + load.total().all().errors()).isEqualTo(1800);
        assertThat(load.total().all().ops() / load.total().seconds()).isCloseTo(300, within(3.0));
        noAgentLeft(cli);
    }

    @Test
    void anAgentKilledMidRunLeavesTheRunIncompleteWithTheOthersNumbersAndTheCoordinatorEndsWithin10s() throws Exception {
        CliProcess cli = CliProcess.start(work, SharedCluster.with("load", "--agents", "3", "--mix", "cas",
                "--clients", "3", "--threads", "2", "--duration", "60s", "--warmup", "1s", "--cluster-warmup", "0s",
                "--scenario", "client-smart", "--settle", "2s", "--out", "runs"));
        try {
            assertThat(cli.awaitStderr("[3/3 agents]", 180)).as(cli.stdoutSoFar()).isTrue();
            Optional<ProcessHandle> agent2 = cli.descendants().stream().filter(p -> p.info().arguments()
                    .map(a -> List.of(a).contains("agent-2")).orElse(false)).findFirst();
            assertThat(agent2).as("agent-2's process").isPresent();
            long killed = System.nanoTime();
            agent2.get().destroyForcibly();
            CliProcess.Finished finished = cli.finish(60);
            double seconds = (System.nanoTime() - killed) / 1e9;
            System.out.printf(java.util.Locale.ROOT, "agent-2 killed; the coordinator exited %.1f s later, code %d%n",
                    seconds, finished.exitCode());
            assertThat(seconds).as("seconds from the kill to the coordinator's exit").isLessThan(10);
            assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.FAILED);
            RunResult r = onlyResult(work.resolve("runs"));
            assertThat(r.status()).isEqualTo(Status.INCOMPLETE);
            assertThat(r.reason()).contains("agent-2 left the control cluster mid-run");
            LoadResult load = r.load();
            assertThat(load.agents()).hasSize(3);
            assertThat(load.agents().get(1).all()).isNull();
            assertThat(List.of(load.agents().get(0), load.agents().get(2))).allSatisfy(a ->
                    assertThat(a.all().ops()).as(a.agent()).isGreaterThan(0));
            assertThat(load.total().all().ops()).isEqualTo(load.agents().get(0).all().ops() + load.agents().get(2).all().ops());
            noAgentLeft(cli);
        } finally {
            cli.stop();
        }
    }

    /**
     * An agent cut off mid-run (frozen with SIGSTOP: it holds its connections but answers nothing, as behind a cut
     * link) is found by the control cluster's heartbeat timeout (5 s) and ends the run as a death does.
     */
    @Test
    void anAgentCutOffMidRunLeavesTheRunIncompleteAndTheCoordinatorEndsWithin10s() throws Exception {
        CliProcess cli = CliProcess.start(work, SharedCluster.with("load", "--agents", "3", "--mix", "cas",
                "--clients", "3", "--threads", "2", "--duration", "60s", "--warmup", "1s", "--cluster-warmup", "0s",
                "--scenario", "client-smart", "--settle", "2s", "--out", "runs"));
        ProcessHandle frozen = null;
        try {
            assertThat(cli.awaitStderr("[3/3 agents]", 180)).as(cli.stdoutSoFar()).isTrue();
            frozen = cli.descendants().stream().filter(p -> p.info().arguments()
                    .map(a -> List.of(a).contains("agent-3")).orElse(false)).findFirst().orElseThrow();
            long cut = System.nanoTime();
            assertThat(signal("STOP", frozen)).as("kill -STOP's exit code").isZero();
            CliProcess.Finished finished = cli.finish(60);
            double seconds = (System.nanoTime() - cut) / 1e9;
            System.out.printf(java.util.Locale.ROOT, "agent-3 cut off; the coordinator exited %.1f s later, code %d%n",
                    seconds, finished.exitCode());
            assertThat(seconds).as("seconds from the cut to the coordinator's exit").isLessThan(10);
            assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.FAILED);
            RunResult r = onlyResult(work.resolve("runs"));
            assertThat(r.status()).isEqualTo(Status.INCOMPLETE);
            assertThat(r.reason()).contains("agent-3 left the control cluster mid-run");
            LoadResult load = r.load();
            assertThat(load.agents().get(2).all()).isNull();
            assertThat(load.total().all().ops()).isEqualTo(load.agents().get(0).all().ops() + load.agents().get(1).all().ops());
        } finally {
            if (frozen != null && frozen.isAlive()) {
                signal("CONT", frozen); // the coordinator stops it by force; should it not have, it can now exit
            }
            cli.stop();
        }
        noAgentLeft(cli);
    }

    private static int signal(String signal, ProcessHandle process) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).as("kill -" + signal).isTrue();
        return kill.exitValue();
    }

    /** {@code sweep --agents 2}: every cell's load is split between the agents, and each cell run lists their shares. */
    @Test
    void aSweepOnAgentsMergesEveryCellAndListsEachAgentsShare() throws Exception {
        CliProcess cli = CliProcess.start(work, SharedCluster.with("sweep", "--agents", "2", "--scenario", "client-smart",
                "--clients", "2", "--threads", "1,2", "--duration", "3s", "--warmup", "1s", "--repeats", "1",
                "--cluster-warmup", "0s", "--settle", "2s", "--out", "runs"));
        CliProcess.Finished finished = cli.finish(240);
        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.OK);
        assertThat(finished.stdout()).contains("2 agents joined the control cluster");
        Path runDir;
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        List<io.cpbench.core.sweep.CellRun> runs = io.cpbench.core.sweep.SweepFile.read(runDir).runs();
        assertThat(runs).hasSize(2).allSatisfy(run -> {
            assertThat(run.status()).as(run.reason()).isEqualTo("OK");
            assertThat(run.agents()).extracting(io.cpbench.core.sweep.CellRun.Agent::name).containsExactly("agent-1", "agent-2");
            assertThat(run.agents()).allSatisfy(a -> assertThat(a.ops()).as(a.name()).isGreaterThan(0));
            assertThat(run.ops()).isEqualTo(run.agents().stream().mapToLong(io.cpbench.core.sweep.CellRun.Agent::ops).sum());
        });
        noAgentLeft(cli);
    }

    /** Ctrl-C on the coordinator stops every agent; their numbers are kept, the run INCOMPLETE, exit 130. */
    @Test
    void ctrlCOnTheCoordinatorStopsEveryAgentAndKeepsTheirNumbers() throws Exception {
        CliProcess cli = CliProcess.start(work, SharedCluster.with("load", "--agents", "2", "--mix", "cas",
                "--clients", "2", "--threads", "2", "--duration", "60s", "--warmup", "1s", "--cluster-warmup", "0s",
                "--scenario", "client-smart", "--settle", "2s", "--out", "runs"));
        try {
            assertThat(cli.awaitStderr("[2/2 agents]", 180)).as(cli.stdoutSoFar()).isTrue();
            Thread.sleep(2_000); // a few seconds measured
            long interrupted = System.nanoTime();
            cli.interrupt();
            CliProcess.Finished finished = cli.finish(60);
            System.out.printf(java.util.Locale.ROOT, "Ctrl-C; the coordinator exited %.1f s later, code %d%n",
                    (System.nanoTime() - interrupted) / 1e9, finished.exitCode());
            assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.INTERRUPTED);
            RunResult r = onlyResult(work.resolve("runs"));
            assertThat(r.status()).isEqualTo(Status.INCOMPLETE);
            LoadResult load = r.load();
            assertThat(load.agents()).hasSize(2).allSatisfy(a -> {
                assertThat(a.outcome()).as(a.agent() + ": " + a.reason()).isEqualTo(io.cpbench.core.run.Outcome.INTERRUPTED);
                assertThat(a.all().ops()).as(a.agent()).isGreaterThan(0);
            });
            assertThat(load.total().all().ops()).isEqualTo(load.agents().get(0).all().ops() + load.agents().get(1).all().ops());
            assertThat(load.total().seconds()).as("stopped well before its 60 s").isLessThan(30);
            noAgentLeft(cli);
        } finally {
            cli.stop();
        }
    }
}
