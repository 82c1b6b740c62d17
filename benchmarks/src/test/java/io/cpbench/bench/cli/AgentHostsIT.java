package io.cpbench.bench.cli;

import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Agents started by hand ({@code cpbench agent}, as the lab starts them on each client host) and used by
 * {@code load --agent-hosts}: they serve one run after another, and when their coordinator dies mid-run they stop
 * its load within 10 s and wait for the next run. The cluster under test is {@link SharedCluster}.
 */
@SharedCluster.Uses
@Tag("long") // in CI's -Plong run: it keeps ./mvnw verify under 15 minutes
class AgentHostsIT {

    /** Control ports of their own: the agents 'load --agents' starts in other tests use 5801 up. */
    private static final String HOSTS = "127.0.0.1:5871,127.0.0.1:5872";

    @TempDir
    Path work;

    /** The secret the agents and their coordinators share, made as a user makes it ('agent --new-secret'). */
    private Path secret() throws Exception {
        Path file = work.resolve("control.secret");
        if (!java.nio.file.Files.exists(file)) {
            CliProcess.Finished made = CliProcess.run(work, 60, "agent", "--new-secret", "--secret-file", file.toString());
            assertThat(made.exitCode()).as(made.stdout() + made.stderr()).isZero();
            assertThat(java.nio.file.Files.getPosixFilePermissions(file)).containsExactlyInAnyOrder(
                    java.nio.file.attribute.PosixFilePermission.OWNER_READ, java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        }
        return file;
    }

    private CliProcess agent(int n) throws Exception {
        return CliProcess.start(work.resolve("agent-" + n), "agent", "--control", HOSTS, "--port", "587" + n,
                "--name", "hand-" + n, "--secret-file", secret().toString());
    }

    /**
     * A load on both agents, an open loop of 100 op/s (what is judged is who serves it, not how fast); the live line
     * (on stderr) unless {@code quiet}.
     */
    private String[] load(String duration, String out, boolean quiet) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("load", "--agent-hosts", HOSTS, "--secret-file",
                secret().toString(), "--mix", "cas", "--clients",
                "2", "--threads", "1", "--rate", "100", "--duration", duration, "--warmup", "1s", "--cluster-warmup", "0s", "--scenario",
                "client-smart", "--settle", "2s", "--out", out));
        if (quiet) {
            args.add("--quiet");
        }
        return SharedCluster.with(args.toArray(String[]::new));
    }

    private static LoadResult onlyLoad(Path runs) throws Exception {
        RunResult r = CliProcess.onlyResult(runs);
        assertThat(r.status()).as(r.reason()).isEqualTo(Status.OK);
        return r.load();
    }

    private void aRunOnBothAgents(String out) throws Exception {
        CliProcess.Finished finished = CliProcess.run(work, 180, load("3s", out, true));
        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.OK);
        assertThat(finished.stdout()).contains("2 agents in the control cluster");
        LoadResult load = onlyLoad(work.resolve(out));
        assertThat(load.agents()).extracting(LoadResult.AgentRow::agent).containsExactly("hand-1", "hand-2");
        assertThat(load.total().all().ops()).isEqualTo(load.agents().stream().mapToLong(a -> a.all().ops()).sum())
                .isGreaterThan(0);
    }

    @Test
    void agentsStartedByHandServeRunAfterRunAndStopWhenTheirCoordinatorDies() throws Exception {
        CliProcess agent1 = agent(1);
        CliProcess agent2 = agent(2);
        try {
            assertThat(agent1.awaitStdout("waiting for runs", 90)).as(agent1.stdoutSoFar()).isTrue();
            assertThat(agent2.awaitStdout("waiting for runs", 90)).as(agent2.stdoutSoFar()).isTrue();

            aRunOnBothAgents("runs-1");

            CliProcess coordinator = CliProcess.start(work, load("60s", "runs-2", false));
            try {
                assertThat(coordinator.awaitStderr("[2/2 agents]", 180)).as(coordinator.stdoutSoFar()).isTrue();
                // a second coordinator, while the first one's run goes on: one line naming the first, and it leaves
                CliProcess.Finished second = CliProcess.run(work, 120, load("3s", "runs-second", true));
                System.out.println("a second coordinator: exit " + second.exitCode() + ", " + second.stderr().strip());
                assertThat(second.exitCode()).as(second.stdout() + second.stderr()).isNotZero();
                assertThat(second.stderr()).contains("these agents serve another coordinator, at 127.0.0.1:");
                assertThat(coordinator.process.isAlive()).as("the first run goes on").isTrue();
                long killed = System.nanoTime();
                coordinator.process.destroyForcibly();
                for (CliProcess agent : List.of(agent1, agent2)) {
                    // stopped by the loss, not by its 60 s running out: the message says why, and it came sooner
                    boolean stopped = agent.awaitStdout("ended (stopped)", 50);
                    double seconds = (System.nanoTime() - killed) / 1e9;
                    System.out.printf(java.util.Locale.ROOT, "coordinator killed; %s%n  (%.1f s after the kill)%n",
                            agent.stdoutSoFar().lines().filter(l -> l.contains("ended (stopped)")).findFirst()
                                    .orElse("no run stopped"), seconds);
                    assertThat(stopped).as(agent.stdoutSoFar()).isTrue();
                    assertThat(agent.stdoutSoFar()).contains("the coordinator left the control cluster; stopping its run");
                    assertThat(agent.process.isAlive()).as("the agent waits for the next run").isTrue();
                }
            } finally {
                coordinator.stop();
            }

            aRunOnBothAgents("runs-3");
        } finally {
            agent1.stop();
            agent2.stop();
        }
        assertThat(List.of(agent1.process, agent2.process)).noneMatch(Process::isAlive);
    }

    /**
     * A sweep pins the agents of its first cell: when one of them is killed during the first cell, the second cell
     * runs on the one left, names the one that left, and is INCOMPLETE. (A kill is used rather than a third agent
     * joining: how long a new agent's JVM takes to join depends on the machine's load, a kill does not.)
     */
    @Test
    void aSweepKeepsTheAgentsOfItsFirstCellAndNamesOneThatLeft() throws Exception {
        CliProcess agent1 = agent(1);
        CliProcess agent2 = agent(2);
        try {
            assertThat(agent1.awaitStdout("waiting for runs", 90)).as(agent1.stdoutSoFar()).isTrue();
            assertThat(agent2.awaitStdout("waiting for runs", 90)).as(agent2.stdoutSoFar()).isTrue();
            CliProcess sweep = CliProcess.start(work, SharedCluster.with("sweep", "--agent-hosts", HOSTS,
                    "--secret-file", secret().toString(), "--scenario", "client-smart", "--clients", "2",
                    "--threads", "1,2", "--duration", "15s", "--warmup", "1s", "--repeats", "1",
                    "--cluster-warmup", "0s", "--settle", "2s", "--out", "runs-pinned"));
            try {
                assertThat(sweep.awaitStdout("hand-2: 1 client", 180)).as(sweep.stdoutSoFar()).isTrue();
                // the first cell is under way once the agent says its part started (its log line)
                assertThat(agent2.awaitStdout("hand-2: started run ", 120)).as(agent2.stdoutSoFar()).isTrue();
                agent2.process.destroyForcibly().waitFor();
                CliProcess.Finished finished = sweep.finish(240);
                System.out.println("a sweep with an agent killed in its first cell:\n" + finished.stdout());
                assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isNotEqualTo(ExitCodes.BAD_INPUT);
            } finally {
                sweep.stop();
            }
            Path runDir;
            try (java.util.stream.Stream<Path> dirs = java.nio.file.Files.list(work.resolve("runs-pinned"))) {
                runDir = dirs.filter(java.nio.file.Files::isDirectory).findFirst().orElseThrow();
            }
            List<io.cpbench.core.sweep.CellRun> runs = io.cpbench.core.sweep.SweepFile.read(runDir).runs();
            assertThat(runs).hasSize(2);
            assertThat(runs.get(0).status()).as(runs.get(0).reason()).isNotEqualTo(Status.OK);
            assertThat(runs.get(1).status()).isEqualTo(Status.INCOMPLETE);
            assertThat(runs.get(1).reason()).contains("hand-2 left the control cluster since the first run");
            assertThat(runs.get(1).agents()).extracting(io.cpbench.core.sweep.CellRun.Agent::name).containsExactly("hand-1");
            assertThat(runs.get(1).ops()).as("the second cell ran, on the agent left").isGreaterThan(0);
        } finally {
            agent1.stop();
            agent2.stop();
        }
    }
}
