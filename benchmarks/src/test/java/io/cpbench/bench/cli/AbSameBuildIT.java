package io.cpbench.bench.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cpbench ab} of this build against itself is not called slower. A statistical check, so it is in the "long"
 * group ({@code ./mvnw verify -Plong}, which CI runs after the README's test command). It asserts the verdict only,
 * never a bound on a ratio, and its false-alarm rate is derived, not hoped for: {@link AbFalseAlarmTest} shows from a
 * curated same-build run of this machine that a run of this shape ({@link #PAIRS} pairs of 200 ms turns, client
 * processes anew every {@link #RESTART_EVERY}, a {@link #TOLERANCE} tolerance) is called slower at most once in 1,000
 * runs, even on a machine 1.5 times as noisy. The test first checks that its own pairs were no noisier than that,
 * and says so when they were, rather than passing or failing on a verdict the rate does not cover.
 */
@Tag("long")
@org.junit.jupiter.api.Tag("alone") // a cost or a verdict measured on this machine: run with no other test beside it
@SharedCluster.Uses
class AbSameBuildIT {

    static final int PAIRS = 40;
    static final int RESTART_EVERY = 10;
    static final double TOLERANCE = 0.25;

    @TempDir
    Path work;

    @Test
    void callsTheSameBuildNoSlower() throws Exception {
        CliProcess.Finished finished = AbIT.ab(work, PAIRS, "--tolerance", Math.round(TOLERANCE * 100) + "%");

        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isIn(0, 1);
        assertThat(finished.stdout()).doesNotContain("PLANTED").contains("stopped after " + PAIRS + " pairs");
        Path runDir = AbIT.runDir(work);
        AbIT.checkPairsAndLeftovers(runDir, PAIRS);

        List<AbFalseAlarmTest.ProcessPair> pairs = AbFalseAlarmTest.read(runDir.resolve("slices.csv"));
        double[] limits = AbFalseAlarmTest.spreadLimits();
        double[] spreads = AbFalseAlarmTest.spreads(pairs);
        double opsSpread = spreads[0];
        double p50Spread = spreads[1];
        String tooNoisy = "this run's pairs spread more (median absolute deviation of ln new÷base) than the false-alarm"
                + " rate was derived for, so the machine was too noisy for the verdict to mean what the test claims"
                + " (see AbFalseAlarmTest): ";
        assertThat(opsSpread).as(tooNoisy + "op/s").isLessThanOrEqualTo(limits[0]);
        assertThat(p50Spread).as(tooNoisy + "p50").isLessThanOrEqualTo(limits[1]);
        System.out.printf("AbSameBuildIT: spread of ln new÷base op/s %.3f (limit %.3f), p50 %.3f (limit %.3f)%n",
                opsSpread, limits[0], p50Spread, limits[1]);

        assertThat(finished.exitCode()).as(finished.stdout()).isZero();
        String table = Files.readString(runDir.resolve("table.md"));
        assertThat(table).doesNotContain("**slower**").contains("pairs base/new");
    }
}
