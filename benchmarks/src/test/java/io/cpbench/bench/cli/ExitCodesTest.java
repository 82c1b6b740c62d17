package io.cpbench.bench.cli;

import io.cpbench.bench.results.RunLines;
import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The exit code and the stderr summary a finished run gets from its results; the processes' codes are in the ITs. */
class ExitCodesTest {

    static final List<RunResult> REFERENCE = ResultFiles.readAll(List.of(Path.of("../results/reference/local-2core-quick-a")));

    static RunResult with(RunResult r, Status status, String reason) {
        return r.toBuilder().status(status, reason).build();
    }

    static List<RunResult> replacing(int index, Status status, String reason) {
        List<RunResult> results = new java.util.ArrayList<>(REFERENCE);
        results.set(index, with(results.get(index), status, reason));
        return results;
    }

    /** A load result whose one threshold failed, and whose status is {@code status}. */
    static RunResult loadWith(RunResult r, Status status, boolean thresholdPassed) {
        io.cpbench.core.load.LoadResult l = r.load();
        io.cpbench.core.load.LoadResult judged = io.cpbench.core.load.LoadResultBuilder.builder(l).thresholds(
                List.of(new io.cpbench.core.load.LoadResult.ThresholdResult("cas:p99<1ms", thresholdPassed, "8.76ms")))
                .build();
        return r.toBuilder().status(status, null).load(judged).build();
    }

    /** A crossed threshold is its result's status, BREACHED (LoadVerdictTest), and 99 is that status's code. */
    @Test
    void loadRunsAre99OnACrossedThresholdButAFailOrAnInterruptComesFirst() {
        List<RunResult> loads = ResultFiles.readAll(List.of(Path.of("../results/reference/local-2core-load-seed000")));
        assertThat(loads).hasSize(6).allSatisfy(r -> assertThat(r.load()).isNotNull());
        assertThat(ExitCodes.of(loads, false, false)).isEqualTo(ExitCodes.OK);
        List<RunResult> crossed = new java.util.ArrayList<>(loads);
        crossed.set(1, loadWith(loads.get(1), Status.BREACHED, false));
        assertThat(ExitCodes.of(crossed, false, false)).isEqualTo(ExitCodes.THRESHOLDS);
        assertThat(ExitCodes.of(crossed, false, true)).isEqualTo(ExitCodes.THRESHOLDS);
        crossed.set(2, loadWith(loads.get(2), Status.FAIL, true)); // an invariant broke
        assertThat(ExitCodes.of(crossed, false, false)).isEqualTo(ExitCodes.FAILED);
        assertThat(ExitCodes.of(crossed, true, false)).isEqualTo(ExitCodes.INTERRUPTED);
        List<RunResult> passed = new java.util.ArrayList<>(loads);
        passed.set(0, loadWith(loads.get(0), Status.OK, true));
        assertThat(ExitCodes.of(passed, false, false)).isEqualTo(ExitCodes.OK);
    }

    @Test
    void allOkIsZeroAndSaysNothing() {
        assertThat(REFERENCE).hasSizeGreaterThan(4).allSatisfy(r -> assertThat(r.status()).isEqualTo(Status.OK));
        assertThat(ExitCodes.of(REFERENCE, false, true)).isEqualTo(ExitCodes.OK);
        assertThat(RunLines.notOk("matrix", REFERENCE)).isNull();
    }

    @Test
    void aFailedRowIsOneWithOrWithoutStrict() {
        List<RunResult> results = replacing(2, Status.FAIL, "the slow member member-4 leads; network (b) needs it to be a follower");
        assertThat(ExitCodes.of(results, false, false)).isEqualTo(ExitCodes.FAILED);
        assertThat(ExitCodes.of(results, false, true)).isEqualTo(ExitCodes.FAILED);
        RunResult failed = results.get(2);
        assertThat(RunLines.notOk("matrix", results)).isEqualTo("cpbench matrix: 1 FAIL of " + results.size()
                + " results: " + failed.scenario() + " round " + failed.round()
                + " FAIL (the slow member member-4 leads; network (b) needs it to be a follower)");
    }

    @Test
    void unstableAndTimeboxedRowsAreThreeOnlyWhenStrict() {
        for (Status status : List.of(Status.UNSTABLE, Status.TIMEBOXED)) {
            List<RunResult> results = replacing(0, status, "whatever");
            assertThat(ExitCodes.of(results, false, false)).as(status.name()).isEqualTo(ExitCodes.OK);
            assertThat(ExitCodes.of(results, false, true)).as(status.name()).isEqualTo(ExitCodes.NOT_CLEAN);
            assertThat(RunLines.notOk("run", results)).as(status.name()).contains("1 " + status + " of ")
                    .contains(results.get(0).scenario() + " round " + results.get(0).round() + " " + status)
                    .doesNotContain("whatever"); // reasons only for FAIL rows, to keep it one readable line
        }
    }

    @Test
    void interruptionWinsOverEverythingElse() {
        assertThat(ExitCodes.of(replacing(1, Status.FAIL, "x"), true, true)).isEqualTo(ExitCodes.INTERRUPTED);
        assertThat(ExitCodes.of(List.of(), true, false)).isEqualTo(ExitCodes.INTERRUPTED);
    }

    @Test
    void everyCommandsHelpListsTheSameCodes() {
        CommandLine cli = CpBench.commandLine();
        List<CommandLine> commands = new java.util.ArrayList<>(List.of(cli));
        for (int i = 0; i < commands.size(); i++) {
            commands.addAll(commands.get(i).getSubcommands().values());
        }
        assertThat(commands).hasSizeGreaterThan(8);
        for (CommandLine command : commands) {
            String help = command.getUsageMessage(CommandLine.Help.Ansi.OFF);
            String name = command.getCommandSpec().name();
            if (name.equals("lincheck")) { // a checker's codes: what the verdicts were
                assertThat(help).contains("Exit codes:").containsPattern("\\s1\\s+some history is not linearizable")
                        .containsPattern("\\s3\\s+some verdict is unknown");
                continue;
            }
            if (name.equals("sweep")) { // a level over the SLO is a finding, not a failure; no --strict, no thresholds
                assertThat(help).contains("Exit codes:").containsPattern("\\s1\\s+a cell FAILed")
                        .containsPattern("\\s2\\s+bad input").containsPattern("\\s130\\s+interrupted");
                continue;
            }
            if (command.getCommandSpec().qualifiedName().startsWith("cpbench history") && !name.equals("regressions")) {
                // reads and writes a store, runs nothing: done, or bad input
                assertThat(help).contains("Exit codes:").containsPattern("\\s0\\s+done").containsPattern("\\s2\\s+bad input");
                continue;
            }
            if (name.equals("regressions")) { // a gate: whether a change for the worse is new
                assertThat(help).contains("Exit codes:").containsPattern("\\s0\\s+no regression")
                        .containsPattern("\\s1\\s+a regression newer than the last acknowledged").containsPattern("\\s2\\s+bad input");
                continue;
            }
            if (name.equals("chaos")) {
                assertThat(help).contains("Exit codes:").containsPattern("\\s1\\s+a checker failed")
                        .containsPattern("\\s130\\s+interrupted");
                continue;
            }
            assertThat(help).as(command.getCommandSpec().qualifiedName()).contains("Exit codes:")
                    .containsPattern("\\s0\\s+done; every result OK").containsPattern("\\s1\\s+a run FAILed")
                    .containsPattern("\\s2\\s+bad input").containsPattern("\\s3\\s+with --strict")
                    .containsPattern("\\s99\\s+a threshold").containsPattern("\\s130\\s+interrupted");
        }
    }
}
