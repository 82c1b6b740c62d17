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
        Process plain = new ProcessBuilder("sleep", "30").start();
        Process reset = new ProcessBuilder("sh", "-c", "trap '' INT; exec env --default-signal=INT sleep 30").start();
        try {
            for (Process p : List.of(ignoring, plain, reset)) {
                // the shell's exec replaces it: wait until the pid runs sleep, so the mask read is sleep's
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!p.info().command().orElse("").endsWith("sleep") && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
            }
            assertThat(CliProcess.ignoresSigint(ignoring.pid())).as("sleep under trap '' INT").isTrue();
            assertThat(CliProcess.ignoresSigint(plain.pid())).as("plain sleep").isFalse();
            assertThat(CliProcess.ignoresSigint(reset.pid())).as("env --default-signal=INT sleep").isFalse();
        } finally {
            List.of(ignoring, plain, reset).forEach(Process::destroyForcibly);
        }
    }

    @Test
    void aPidThatIsGoneIgnoresNothing() {
        assertThat(CliProcess.ignoresSigint(Long.MAX_VALUE)).isFalse();
    }
}
