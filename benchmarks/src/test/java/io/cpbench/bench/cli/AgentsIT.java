package io.cpbench.bench.cli;

import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code load --agents 3}: three agent processes on loopback, which meet the coordinator in a control cluster of
 * their own, load the shared local 3-member cluster ({@link SharedCluster}); the result merges theirs exactly.
 */
@SharedCluster.Uses
@Tag("long") // in CI's -Plong run: it keeps ./mvnw verify under 15 minutes
class AgentsIT {

    @TempDir
    Path work;

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
        RunResult r = CliProcess.onlyResult(work.resolve("runs"));
        assertThat(r.status()).as(r.reason()).isEqualTo(Status.OK);
        LoadResult load = r.load();
        assertThat(load.agents()).hasSize(3).allSatisfy(a -> {
            assertThat(a.outcome()).as(a.agent() + ": " + a.reason()).isNotNull();
            assertThat(a.all().ops()).as(a.agent()).isGreaterThan(0);
        });
        // The agents share the coordinator's host, so their true clock offset is 0: each measured offset must lie
        // within its own stated uncertainty (half the round trip it was measured in; both printed to 0.1 ms).
        java.util.regex.Matcher clock = java.util.regex.Pattern.compile(
                "(agent-\\d): clock ([+-][0-9.]+) ms against the coordinator's \\(±([0-9.]+) ms\\)").matcher(finished.stdout());
        int clocks = 0;
        while (clock.find()) {
            clocks++;
            assertThat(Math.abs(Double.parseDouble(clock.group(2)))).as(clock.group())
                    .isLessThanOrEqualTo(Double.parseDouble(clock.group(3)) + 0.1);
        }
        assertThat(clocks).as(finished.stdout()).isEqualTo(3);
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
        LoadResult load = CliProcess.onlyResult(work.resolve("runs")).load();
        assertThat(load.schedule().due()).isEqualTo(1800);
        assertThat(load.total().all().ops() + load.total().all().errors()).isEqualTo(1800);
        // every op due ran (above), and the measured time covers the whole 6 s schedule (plus the last ops' drain),
        // so op/s cannot exceed the target: agents that each ran the whole rate would show as 900 op/s
        assertThat(load.total().seconds()).isGreaterThanOrEqualTo(6.0 - 0.01);
        assertThat(load.total().all().ops() / load.total().seconds()).isLessThanOrEqualTo(300 * 1.002);
        noAgentLeft(cli);
    }

    @Test
    void anAgentKilledMidRunLeavesTheRunIncompleteWithTheOthersNumbersAndTheCoordinatorEndsItEarly() throws Exception {
        agentLostMidRun(2, "killed", agent -> {
            agent.destroyForcibly();
            return true;
        });
    }

    /**
     * An agent cut off mid-run (frozen with SIGSTOP: it holds its connections but answers nothing, as behind a cut
     * link) is found by the control cluster's heartbeat timeout (5 s) and ends the run as a death does.
     */
    @Test
    void anAgentCutOffMidRunLeavesTheRunIncompleteAndTheCoordinatorEndsItEarly() throws Exception {
        agentLostMidRun(3, "cut off", agent -> signal("STOP", agent) == 0);
    }

    /** What a test does to an agent's process; whether it could. */
    private interface Fault {
        boolean inflict(ProcessHandle agent) throws Exception;
    }

    /**
     * Three agents load for 60 s (an open loop of 300 op/s in all: what is judged is who ended the run and whose
     * numbers it kept, so the load need not take the cores from the tests beside it); {@code fault} strikes agent
     * {@code lost} once all three report. The coordinator must
     * end the run early and exit 1, the run INCOMPLETE with the two others' numbers and none of the lost one's.
     */
    private void agentLostMidRun(int lost, String what, Fault fault) throws Exception {
        CliProcess cli = CliProcess.start(work, SharedCluster.with("load", "--agents", "3", "--mix", "cas",
                "--clients", "3", "--threads", "2", "--rate", "300", "--duration", "60s", "--warmup", "1s", "--cluster-warmup", "0s",
                "--scenario", "client-smart", "--settle", "2s", "--out", "runs"));
        String name = "agent-" + lost;
        ProcessHandle agent = null;
        try {
            assertThat(cli.awaitStderr("[3/3 agents]", 180)).as(cli.stdoutSoFar()).isTrue();
            agent = cli.descendants().stream().filter(p -> p.info().arguments()
                    .map(a -> List.of(a).contains(name)).orElse(false)).findFirst().orElseThrow();
            long struck = System.nanoTime();
            assertThat(fault.inflict(agent)).as(what + " " + name).isTrue();
            CliProcess.Finished finished = cli.finish(60);
            double seconds = (System.nanoTime() - struck) / 1e9;
            System.out.printf(java.util.Locale.ROOT, "%s %s; the coordinator exited %.1f s later, code %d%n", name, what,
                    seconds, finished.exitCode());
            assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.FAILED);
            RunResult r = CliProcess.onlyResult(work.resolve("runs"));
            // the loss ended the run: it did not go on to its 60 s (how soon it ended is printed above, not judged)
            assertThat(r.load().total().seconds()).as("seconds measured").isLessThan(60);
            assertThat(r.status()).isEqualTo(Status.INCOMPLETE);
            assertThat(r.reason()).contains(name + " left the control cluster mid-run");
            List<LoadResult.AgentRow> agents = r.load().agents();
            assertThat(agents).hasSize(3);
            assertThat(agents.get(lost - 1).all()).isNull();
            List<LoadResult.AgentRow> others = agents.stream().filter(a -> !a.agent().equals(name)).toList();
            assertThat(others).hasSize(2).allSatisfy(a -> assertThat(a.all().ops()).as(a.agent()).isGreaterThan(0));
            assertThat(r.load().total().all().ops()).isEqualTo(others.get(0).all().ops() + others.get(1).all().ops());
        } finally {
            if (agent != null && agent.isAlive()) {
                signal("CONT", agent); // a frozen agent the coordinator did not stop can now exit
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
            assertThat(run.status()).as(run.reason()).isEqualTo(io.cpbench.core.status.Status.OK);
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
                "--clients", "2", "--threads", "2", "--rate", "200", "--duration", "60s", "--warmup", "1s", "--cluster-warmup", "0s",
                "--scenario", "client-smart", "--settle", "2s", "--out", "runs"));
        try {
            assertThat(cli.awaitStderr("[2/2 agents]", 180)).as(cli.stdoutSoFar()).isTrue();
            // a few seconds measured, as the live line says
            java.util.regex.Pattern measured = java.util.regex.Pattern.compile("\\[2/2 agents\\] +([2-9]|[1-9][0-9]+)s ");
            org.awaitility.Awaitility.await("2 s measured by both agents").atMost(java.time.Duration.ofSeconds(60))
                    .pollInterval(java.time.Duration.ofMillis(200))
                    .until(() -> measured.matcher(cli.stderrSoFar()).find() || !cli.process.isAlive());
            // the control cluster (the coordinator's member and each agent's) listens on loopback only
            List<ListeningSockets.Listener> listening = ListeningSockets.of(ListeningSockets.withDescendants(cli.process.toHandle()));
            System.out.println("listening while it ran: " + listening);
            assertThat(listening).as("the coordinator's and the two agents' control members").hasSizeGreaterThanOrEqualTo(3)
                    .noneMatch(ListeningSockets.Listener::wildcard)
                    .allSatisfy(l -> assertThat(l.address()).as(l.toString()).startsWith("127."));
            long interrupted = System.nanoTime();
            cli.interrupt();
            CliProcess.Finished finished = cli.finish(60);
            System.out.printf(java.util.Locale.ROOT, "Ctrl-C; the coordinator exited %.1f s later, code %d%n",
                    (System.nanoTime() - interrupted) / 1e9, finished.exitCode());
            assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.INTERRUPTED);
            RunResult r = CliProcess.onlyResult(work.resolve("runs"));
            assertThat(r.status()).isEqualTo(Status.INCOMPLETE);
            LoadResult load = r.load();
            assertThat(load.agents()).hasSize(2).allSatisfy(a -> {
                assertThat(a.outcome()).as(a.agent() + ": " + a.reason()).isEqualTo(Status.INCOMPLETE);
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
