package io.cpbench.bench.cli;

import io.cpbench.bench.run.UntilCi;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** When {@code matrix --until-ci} runs another round, and what it reports. */
class UntilCiTest {

    static final RunResult LEADER = ExitCodesTest.REFERENCE.stream().filter(r -> r.scenario().equals("client-leader"))
            .findFirst().orElseThrow();
    static final RunResult FOLLOWER = ExitCodesTest.REFERENCE.stream().filter(r -> r.scenario().equals("client-follower"))
            .findFirst().orElseThrow();

    static RunResult at(RunResult r, int round, double opsPerSecond) {
        RunResult.RunInfo run = r.run();
        RunResult.Measured m = r.measured();
        return r.toBuilder().status(Status.OK, null)
                .run(new RunResult.RunInfo(run.scenario(), run.network(), run.description(), round, run.harness(),
                        io.cpbench.bench.scenario.Scenarios.byName(r.scenario()).isBaseline()))
                .measured(new RunResult.Measured(m.startedAt(), m.durationSeconds(), m.warmupOps(), m.ops(), m.errors(),
                        opsPerSecond, m.counters()))
                .build();
    }

    /** Rounds whose follower ÷ leader ratios are the given ones. */
    static List<RunResult> rounds(double... ratios) {
        List<RunResult> results = new ArrayList<>();
        for (int i = 0; i < ratios.length; i++) {
            results.add(at(LEADER, i + 1, 1000));
            results.add(at(FOLLOWER, i + 1, 1000 * ratios[i]));
        }
        return results;
    }

    final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    final PrintStream console = new PrintStream(printed, true, StandardCharsets.UTF_8);
    final UntilCi fivePercent = new UntilCi(0.05, 5, 12, Duration.ofMinutes(30));

    @Test
    void runsAtLeastTheMinimumEvenWhenTheRatiosAgree() {
        assertThat(fivePercent.another(3, rounds(0.90, 0.90, 0.90), Duration.ofMinutes(1), console)).isTrue();
    }

    @Test
    void stopsOnceEveryIntervalIsNarrowEnough() {
        List<RunResult> steady = rounds(0.90, 0.91, 0.89, 0.90, 0.92);
        assertThat(fivePercent.another(5, steady, Duration.ofMinutes(2), console)).isFalse();
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("every ratio within ±5.0%; done");
        assertThat(fivePercent.verdicts(steady)).anySatisfy(line -> assertThat(line)
                .startsWith("  client-follower ÷ client-leader: 0.900, 95% CI").endsWith("5 paired rounds): target reached, first within it after 5 rounds"));
    }

    @Test
    void theVerdictSaysHowManyRoundsTheRatioNeeded() {
        // Noisy for the first rounds, then steady: within ±5 % only once the steady rounds outweigh the noisy ones.
        List<RunResult> settling = rounds(0.63, 1.20, 0.90, 0.91, 0.89, 0.90, 0.92, 0.90, 0.91, 0.90, 0.89, 0.90);
        List<String> verdicts = fivePercent.verdicts(settling);

        int needed = fivePercent.roundsNeeded(settling, "client-follower", 12);
        assertThat(needed).isGreaterThan(5).isLessThanOrEqualTo(12);
        // Judged on the first (needed - 1) rounds, it was not yet within the target.
        assertThat(fivePercent.roundsNeeded(settling.stream().filter(r -> r.round() < needed).toList(), "client-follower",
                needed - 1)).isZero();
        assertThat(verdicts).anySatisfy(line -> assertThat(line).endsWith("target reached, first within it after " + needed + " rounds"));
    }

    @Test
    void noisyRatiosAskForMoreRoundsUntilTheCap() {
        List<RunResult> noisy = rounds(0.63, 1.20, 0.80, 1.49, 0.70);
        assertThat(fivePercent.another(5, noisy, Duration.ofMinutes(2), console)).isTrue();
        List<RunResult> capped = rounds(0.63, 1.20, 0.80, 1.49, 0.70, 1.10, 0.66, 1.30, 0.75, 1.40, 0.68, 1.25);
        assertThat(fivePercent.another(12, capped, Duration.ofMinutes(5), console)).isFalse();
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("round cap reached");
        assertThat(fivePercent.verdicts(capped)).anySatisfy(line -> assertThat(line).endsWith("NOT reached"));
    }

    @Test
    void theTimeCapStopsARoundThatWouldEndPastIt() {
        // 6 rounds took 27 min: a 7th (about 4.5 min) would end past 30 min.
        assertThat(fivePercent.another(6, rounds(0.63, 1.20, 0.80, 1.49, 0.70, 1.1), Duration.ofMinutes(27), console)).isFalse();
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("would pass --max-time 30m00s");
    }

    @Test
    void targetsParseAsPercentages() {
        assertThat(UntilCi.parseTarget("5%")).isEqualTo(0.05);
        assertThat(UntilCi.parseTarget("2.5%")).isEqualTo(0.025);
        assertThat(UntilCi.parseTarget("0.03")).isEqualTo(0.03);
    }
}
