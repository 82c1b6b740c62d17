package io.cpbench.bench.run;

import io.cpbench.core.result.Comparison;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An A/B run's stopping rule and what it writes, without a cluster. */
class AbRunTest {

    @Test
    void untilCiStopsOnlyAfterTwoWholeProcessPairs() {
        Duration maxTime = Duration.ofMinutes(15);
        AbConfig.Stopping restarting = new AbConfig.Stopping(0.03, 30, 600, maxTime, 50);
        assertThat(restarting.mayStop(30)).isFalse();
        assertThat(restarting.mayStop(50)).as("one process pair only").isFalse();
        assertThat(restarting.mayStop(100)).isTrue();
        assertThat(restarting.mayStop(105)).as("in the middle of a process pair").isFalse();
        assertThat(restarting.mayStop(150)).isTrue();
        AbConfig.Stopping sameProcesses = new AbConfig.Stopping(0.03, 30, 600, maxTime, 0);
        assertThat(sameProcesses.mayStop(29)).isFalse();
        assertThat(sameProcesses.mayStop(30)).isTrue();
        assertThat(sameProcesses.mayStop(31)).isFalse();
        assertThat(sameProcesses.mayStop(35)).isTrue();
        assertThat(new AbConfig.Stopping(0, 30, 600, maxTime, 0).mayStop(100)).as("--until-ci 0: every pair").isFalse();
    }

    @Test
    void aStoppingRuleOutOfRangeNamesTheOptionAndWhatItWas() {
        Duration maxTime = Duration.ofMinutes(15);
        assertThatThrownBy(() -> new AbConfig.Stopping(1.2, 30, 600, maxTime, 0))
                .hasMessage("--until-ci must be from 0% to below 100%, was 120%");
        assertThatThrownBy(() -> new AbConfig.Stopping(0.03, 30, 600, Duration.ofMillis(500), 0))
                .hasMessage("--max-time must be at least 1s, was 500ms");
        assertThatThrownBy(() -> new AbConfig.Turns("client-leader", 257, Duration.ofSeconds(1), Duration.ZERO))
                .hasMessage("--threads must be 1-256, was 257");
    }

    @Test
    void aProcessPairThatRanFasterWidensTheIntervalInsteadOfMovingTheVerdict() {
        // the same build: NEW's processes were 6 % faster in the first process pair, 6 % slower in the second
        List<AbProtocol.Pair> pairs = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            int fork = i <= 50 ? 1 : 2;
            double base = 600 + (i % 7) * 3;
            double next = base * (fork == 1 ? 1.06 : 0.94) * (1 + ((i % 5) - 2) * 0.002);
            pairs.add(new AbProtocol.Pair(i, fork, i % 2 == 1, slice(base), slice(next)));
        }
        Comparison.MetricChange ops = AbAnalysis.analyse(pairs, 0.05, Set.of(Comparison.Metric.OPS))
                .rows().get(0).metrics().get(Comparison.Metric.OPS);
        assertThat(ops.ratio().low()).isLessThan(0.95);
        assertThat(ops.ratio().high()).isGreaterThan(1.05);
        assertThat(ops.verdict()).isEqualTo(Comparison.Verdict.NO_CHANGE);
        String csv = AbAnalysis.csv(pairs);
        assertThat(csv.lines().count()).isEqualTo(201);
        assertThat(csv.lines().skip(101).findFirst().orElseThrow()).startsWith("51,2,BASE,BASE,");
        assertThat(AbAnalysis.table(AbAnalysis.analyse(pairs, 0.05, Set.of(Comparison.Metric.OPS)), pairs, 100, false, null, false))
                .contains("from 2 pairs of client processes").contains("bootstrap over process pairs, then the pairs in them");
    }

    private static AbProtocol.Slice slice(double opsPerSecond) {
        return new AbProtocol.Slice(Math.round(opsPerSecond), 0, 1.0, 1e6 / opsPerSecond, 3e6 / opsPerSecond, null);
    }
}
