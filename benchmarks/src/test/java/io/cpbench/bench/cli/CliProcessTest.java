package io.cpbench.bench.cli;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the Ctrl-C tests know whether a process can see SIGINT: read from the kernel's SigIgn mask, checked on real
 * processes that ignore it and that do not, and on the reset the tests use when their own JVM ignores it.
 */
class CliProcessTest {

    @Test
    void aProcessThatIgnoresSigintIsToldFromOneThatDoesNot() throws Exception {
        Process ignoring = new ProcessBuilder("sh", "-c", "trap '' INT; exec sleep 30").start();
        Process reset = new ProcessBuilder("sh", "-c", "trap '' INT; exec env --default-signal=INT sleep 30").start();
        Process inherited = new ProcessBuilder("sleep", "30").start(); // as this JVM has it: ignored when started by a script's &
        try {
            for (Process p : List.of(ignoring, reset, inherited)) {
                // the shell's exec replaces it: wait until the pid runs sleep, so the mask read is sleep's
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!p.info().command().orElse("").endsWith("sleep") && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
            }
            assertThat(CliProcess.ignoresSigint(ignoring.pid())).as("sleep under trap '' INT").isTrue();
            assertThat(CliProcess.ignoresSigint(reset.pid())).as("env --default-signal=INT sleep, under the same trap").isFalse();
            assertThat(CliProcess.ignoresSigint(inherited.pid())).as("sleep started by this JVM, whose SIGINT is "
                    + (CliProcess.SIGINT_IGNORED ? "ignored" : "at its default")).isEqualTo(CliProcess.SIGINT_IGNORED);
        } finally {
            List.of(ignoring, reset, inherited).forEach(Process::destroyForcibly);
        }
    }

    @Test
    void aPidThatIsGoneIgnoresNothing() {
        assertThat(CliProcess.ignoresSigint(Long.MAX_VALUE)).isFalse();
    }

    /** A leftover is a process naming the run's folder that runs in the test's own folder, not another test's. */
    @org.junit.jupiter.api.Test
    void leftoversAreThoseOfThisFolderAlone(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path mine = java.nio.file.Files.createDirectories(dir.resolve("mine"));
        java.nio.file.Path other = java.nio.file.Files.createDirectories(dir.resolve("other"));
        String marker = "20990101-000000-chaos-" + System.nanoTime();
        // a builtin that waits, so bash starts no child: a child between fork and exec still has bash's command line,
        // marker included, and was once counted as a second leftover (ci-24)
        Process p = new ProcessBuilder("bash", "-c", "read -t 30 line; true", marker).directory(mine.toFile()).start();
        try {
            org.assertj.core.api.Assertions.assertThat(CliProcess.leftovers(mine, java.nio.file.Path.of("runs", marker)))
                    .extracting(ProcessHandle::pid).containsExactly(p.pid());
            org.assertj.core.api.Assertions.assertThat(CliProcess.leftovers(other, java.nio.file.Path.of("runs", marker)))
                    .as("a run of the same name in another test's folder").isEmpty();
        } finally {
            p.destroyForcibly().waitFor();
        }
        org.assertj.core.api.Assertions.assertThat(CliProcess.leftovers(mine, java.nio.file.Path.of("runs", marker))).isEmpty();
    }
}
