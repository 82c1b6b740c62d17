package io.cpbench.bench.service;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The lifecycle a run kind gets from {@link RunService}, on kinds that need no cluster: the order of the calls, the
 * run directory, what an error still gets (clean-up and writing), and the kind's exit code. Ctrl-C is covered with
 * real processes by InterruptIT.
 */
class RunServiceTest {

    @TempDir
    Path out;

    /** A kind that records what the service called, and writes one file when {@code writes}. */
    private static class Recording implements RunKind {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final boolean writes;
        final RuntimeException fails;
        volatile Path runDir;

        Recording(boolean writes, RuntimeException fails) {
            this.writes = writes;
            this.fails = fails;
        }

        @Override
        public String name() {
            return "probe";
        }

        @Override
        public void announce(PrintStream console, Path dir) {
            calls.add("announce " + Files.exists(dir));
            console.println("results -> " + dir);
        }

        @Override
        public void run(RunContext context) throws Exception {
            runDir = context.runDir();
            calls.add("run " + Files.isDirectory(context.runDir()) + " site=" + context.loadSite().getClass().getSimpleName() + " live=" + context.live());
            if (fails != null) {
                throw fails;
            }
        }

        @Override
        public void stop() {
            calls.add("stop");
        }

        @Override
        public boolean stopped() {
            return false;
        }

        @Override
        public void close() {
            calls.add("close");
        }

        @Override
        public void write(RunContext context) {
            calls.add("write");
            if (writes) {
                io.cpbench.bench.report.RunDirectory.writeText(context.runDir(), "result.md", "measured\n");
            }
        }

        @Override
        public io.cpbench.core.status.Status status() {
            calls.add("status");
            return io.cpbench.core.status.Status.BREACHED;
        }
    }

    private static PrintStream quiet(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    @Test
    void callsTheKindInOrderAndReturnsItsExitCode() {
        Recording kind = new Recording(true, null);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        int code = RunService.run(kind, RunService.Setup.into(out), quiet(console));
        assertThat(code).as("the kind's status's code (BREACHED)").isEqualTo(ExitCodes.THRESHOLDS);
        assertThat(kind.calls).containsExactly("announce false", "run true site=Here live=null", "close", "write",
                "status");
        assertThat(kind.runDir.getParent()).isEqualTo(out);
        assertThat(kind.runDir.getFileName().toString()).endsWith("-probe");
        assertThat(kind.runDir.resolve("result.md")).hasContent("measured");
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("results -> " + kind.runDir);
    }

    @Test
    void anErrorStillClosesAndWritesThenGoesOn() {
        Recording kind = new Recording(true, new IllegalArgumentException("agents did not come"));
        assertThatThrownBy(() -> RunService.run(kind, RunService.Setup.into(out), quiet(new ByteArrayOutputStream())))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("agents did not come");
        assertThat(kind.calls).containsExactly("announce false", "run true site=Here live=null", "close", "write");
        assertThat(kind.runDir.resolve("result.md")).as("what was measured is kept").exists();
    }

    @Test
    void whatAStopCutShortEndsAsAnInterruptionNotAnError() {
        Recording stopped = new Recording(true, new IllegalStateException("stopped")) {
            @Override
            public boolean stopped() {
                return true;
            }
        };
        int code = RunService.run(stopped, RunService.Setup.into(out), quiet(new ByteArrayOutputStream()));
        assertThat(code).as("the service decides: 130, whatever the kind's status").isEqualTo(ExitCodes.INTERRUPTED);
        assertThat(stopped.calls).containsExactly("announce false", "run true site=Here live=null", "close", "write",
                "status");
    }

    @Test
    void aRunThatWroteNothingLeavesNoDirectory() {
        Recording kind = new Recording(false, null);
        RunService.run(kind, RunService.Setup.into(out), quiet(new ByteArrayOutputStream()));
        assertThat(kind.runDir).doesNotExist();
    }

    @Test
    void agentsStartOnlyForKindsThatTakeThem() {
        List<String> started = new ArrayList<>();
        RunService.Agents two = new RunService.Agents() {
            @Override
            public int count() {
                return 2;
            }

            @Override
            public io.cpbench.bench.agents.AgentPool start(PrintStream console, Path runDir) {
                started.add("started");
                throw new IllegalArgumentException("no agent came");
            }
        };
        Recording noAgents = new Recording(false, null);
        RunService.run(noAgents, RunService.Setup.into(out).withAgents(two), quiet(new ByteArrayOutputStream()));
        assertThat(started).as("a kind that does not split a load").isEmpty();

        Recording splits = new Recording(false, null) {
            @Override
            public boolean takesAgents() {
                return true;
            }
        };
        assertThatThrownBy(() -> RunService.run(splits, RunService.Setup.into(out).withAgents(two),
                quiet(new ByteArrayOutputStream()))).hasMessage("no agent came");
        assertThat(started).containsExactly("started");
        assertThat(splits.calls).as("agents that did not come: no run, but the clean-up").containsExactly(
                "announce false", "close", "write");
    }

    @Test
    void eachOfSeveralRunsGetsAHeadingAndItsOwnDirectory() {
        Recording first = new Recording(true, null);
        Recording second = new Recording(true, null);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream was = System.out;
        System.setOut(quiet(console));
        int code;
        try {
            code = RunService.runEach(List.of(first, second), RunService.Setup.into(out));
        } finally {
            System.setOut(was);
        }
        assertThat(code).isEqualTo(ExitCodes.THRESHOLDS);
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("== probe 1 of 2").contains("== probe 2 of 2");
        assertThat(first.runDir).isNotEqualTo(second.runDir);
    }
}
