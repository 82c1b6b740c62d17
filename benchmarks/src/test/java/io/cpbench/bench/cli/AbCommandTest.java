package io.cpbench.bench.cli;

import io.cpbench.bench.run.AbProtocol;
import io.cpbench.core.result.Comparison;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ab}'s stopping rule and what it writes, without a cluster. */
class AbCommandTest {

    @Test
    void untilCiStopsOnlyAfterTwoWholeProcessPairs() {
        AbCommand ab = new AbCommand();
        ab.untilCi = "3%";
        ab.minPairs = 30;
        ab.restartEvery = 50;
        assertThat(ab.mayStop(30)).isFalse();
        assertThat(ab.mayStop(50)).as("one process pair only").isFalse();
        assertThat(ab.mayStop(100)).isTrue();
        assertThat(ab.mayStop(105)).as("in the middle of a process pair").isFalse();
        assertThat(ab.mayStop(150)).isTrue();
        ab.restartEvery = 0;
        assertThat(ab.mayStop(29)).isFalse();
        assertThat(ab.mayStop(30)).isTrue();
        assertThat(ab.mayStop(31)).isFalse();
        assertThat(ab.mayStop(35)).isTrue();
        ab.untilCi = "0";
        assertThat(ab.mayStop(100)).isFalse();
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
        Comparison.MetricChange ops = AbCommand.analyse(pairs, 0.05, Set.of(Comparison.Metric.OPS))
                .rows().get(0).metrics().get(Comparison.Metric.OPS);
        assertThat(ops.ratio().low()).isLessThan(0.95);
        assertThat(ops.ratio().high()).isGreaterThan(1.05);
        assertThat(ops.verdict()).isEqualTo(Comparison.Verdict.NO_CHANGE);
        String csv = AbCommand.csv(pairs);
        assertThat(csv.lines().count()).isEqualTo(201);
        assertThat(csv.lines().skip(101).findFirst().orElseThrow()).startsWith("51,2,BASE,BASE,");
        assertThat(AbCommand.table(AbCommand.analyse(pairs, 0.05, Set.of(Comparison.Metric.OPS)), pairs, 100, false, null))
                .contains("from 2 pairs of client processes").contains("bootstrap over process pairs, then the pairs in them");
    }

    private static AbProtocol.Slice slice(double opsPerSecond) {
        return new AbProtocol.Slice(Math.round(opsPerSecond), 0, 1.0, 1e6 / opsPerSecond, 3e6 / opsPerSecond, null);
    }
}
