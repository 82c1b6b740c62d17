package io.cpbench.bench.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cpbench ab} of this build against itself is not called slower. A statistical check, so it is in the "long"
 * group ({@code ./mvnw verify -Plong}, which CI runs after the README's test command), and it asserts only the verdict:
 * the median ratio's 95 % bootstrap interval over the pairs, judged against a 10 % tolerance (slower only when the
 * whole interval lies below 1 and the median below 0.9). No bound on the ratio itself is asserted. Its false-alarm
 * rate has not been derived.
 */
@Tag("long")
@SharedCluster.Uses
class AbSameBuildIT {

    @TempDir
    Path work;

    @Test
    void callsTheSameBuildNoSlower() throws Exception {
        CliProcess.Finished finished = AbIT.ab(work, "--tolerance", "10%");

        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isZero();
        assertThat(finished.stdout()).doesNotContain("PLANTED").contains("stopped after 20 pairs");
        Path runDir = AbIT.runDir(work);
        String table = Files.readString(runDir.resolve("table.md"));
        assertThat(table).doesNotContain("**slower**").contains("pairs base/new");
        AbIT.checkPairsAndLeftovers(runDir, 20);
    }
}
