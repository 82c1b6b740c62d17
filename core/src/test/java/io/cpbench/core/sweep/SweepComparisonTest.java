package io.cpbench.core.sweep;

import io.cpbench.core.load.Threshold;
import io.cpbench.core.result.Comparison;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SweepComparisonTest {

    static final Threshold SLO = Threshold.parse("p99<5ms");
    static final Set<Comparison.Metric> GATE = EnumSet.of(Comparison.Metric.OPS, Comparison.Metric.P50);

    /** {@link SweepAnalysisTest#runs} with every op/s times {@code speed}, latencies divided by it, and its own noise. */
    static List<CellRun> runs(List<SweepCell> cells, int repeats, double speed, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<CellRun> runs = new ArrayList<>();
        for (int rep = 1; rep <= repeats; rep++) {
            for (SweepCell c : cells) {
                double noise = 1 + (random.nextDouble() - 0.5) * 0.04;
                double x = SweepAnalysisTest.CURVE.throughput(c.workers()) * (c.routing().equals("slow") ? 0.9 : 1) * speed * noise;
                long p99 = Math.round(600L * c.workers() / speed / noise);
                runs.add(CellRunBuilder.builder().repeat(rep).cell(c).status(io.cpbench.core.status.Status.OK).seconds(10).ops((long) (x * 10))
                        .opsPerSecond(x).latency(new CellRun.Latencies(p99 / 3, p99 / 2, p99, p99 * 2, p99 * 3))
                        .sloActual(p99).build());
            }
        }
        return runs;
    }

    static SweepComparison compare(List<CellRun> base, List<CellRun> next) {
        List<SweepCell> cells = SweepAnalysisTest.grid("fast", "slow");
        return SweepComparison.of(SweepAnalysis.of(cells, base, SLO, 5), base, SweepAnalysis.of(cells, next, SLO, 5), next,
                0.05, GATE);
    }

    @Test
    void twoSweepsOfOneMachineKeepTheirKneesAndNoCellChanges() {
        List<SweepCell> cells = SweepAnalysisTest.grid("fast", "slow");
        SweepComparison c = compare(runs(cells, 5, 1.0, 1), runs(cells, 5, 1.0, 2));
        assertThat(c.cells().rows()).hasSize(12);
        assertThat(c.cells().regression()).isFalse();
        assertThat(c.knees()).extracting(SweepComparison.KneeChange::routing).containsExactly("fast", "slow");
        assertThat(c.knees()).allSatisfy(k -> {
            assertThat(k.holds()).as(k.routing()).isTrue();
            assertThat(k.ratio()).isCloseTo(1.0, within(0.03));
        });
        assertThat(c.machineMoved()).isFalse();
        assertThat(c.cellSpeed()).isCloseTo(1.0, within(0.02));
        assertThat(c.markdown("A", "B")).contains("| fast ").contains("| yes ").doesNotContain("moved together");
    }

    @Test
    void aMachineThatRanSlowerEverywhereMovesEveryKneeAndTheComparisonSaysItWasTheMachine() {
        List<SweepCell> cells = SweepAnalysisTest.grid("fast", "slow");
        SweepComparison c = compare(runs(cells, 5, 1.0, 1), runs(cells, 5, 0.7, 2));
        assertThat(c.cellSpeed()).isCloseTo(0.7, within(0.03));
        assertThat(c.cellRatios()).hasSize(12);
        assertThat(java.util.Arrays.stream(c.cellRatios()).filter(x -> x < 1).count()).isEqualTo(12);
        assertThat(c.machineMoved()).isTrue();
        assertThat(c.cells().regression()).isTrue();
        // p99 = 600 µs per worker / 0.7: the 5 ms SLO now holds to 1x4 only (1x8: 6.9 ms), where it held to 1x8
        SweepComparison.KneeChange fast = c.knees().get(0);
        assertThat(fast.base().level()).isEqualTo("1x8");
        assertThat(fast.next().level()).isEqualTo("1x4");
        assertThat(fast.holds()).isFalse();
        assertThat(c.markdown("A", "B")).contains("every cell moved together by -30 %").contains("**no**");
    }

    @Test
    void oneRoutingSlowerInOneSweepIsThatRoutingsCellsNotTheMachine() {
        List<SweepCell> cells = SweepAnalysisTest.grid("fast", "slow");
        List<CellRun> base = runs(cells, 5, 1.0, 1);
        List<CellRun> next = runs(cells, 5, 1.0, 2).stream().map(r -> !r.cell().routing().equals("slow") ? r
                : CellRunBuilder.builder().repeat(r.repeat()).cell(r.cell()).status(r.status()).reason(r.reason())
                        .seconds(r.seconds()).ops(r.ops()).errors(r.errors()).opsPerSecond(r.opsPerSecond() * 0.8)
                        .latency(new CellRun.Latencies(r.latency().p50Us() * 5 / 4, r.latency().p90Us(), r.latency().p99Us(), r.latency().p999Us(), r.latency().maxUs())).sloActual(r.sloActual()).build()).toList();
        SweepComparison c = compare(base, next);
        assertThat(c.machineMoved()).isFalse(); // half the cells moved, not all
        assertThat(c.cells().rows()).allSatisfy(row -> assertThat(row.verdict()).as(row.scenario() + " " + row.op())
                .isEqualTo(row.scenario().equals("slow") ? Comparison.Verdict.SLOWER : Comparison.Verdict.NO_CHANGE));
        assertThat(c.knees().get(0).holds()).isTrue();
        assertThat(c.knees().get(1).ratio()).isCloseTo(0.8, within(0.03));
    }

    @Test
    void sweepsOfDisjointGridsAreRefusedAndPartlyOverlappingOnesSayWhatWasLeftOut() {
        List<SweepCell> a = SweepAnalysisTest.grid("fast");
        List<SweepCell> b = SweepAnalysisTest.grid("slow");
        List<CellRun> ra = runs(a, 3, 1.0, 1);
        List<CellRun> rb = runs(b, 3, 1.0, 2);
        assertThatThrownBy(() -> SweepComparison.of(SweepAnalysis.of(a, ra, SLO, 3), ra, SweepAnalysis.of(b, rb, SLO, 3), rb,
                0.05, GATE)).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("these sweeps share no cell");
        List<SweepCell> both = SweepAnalysisTest.grid("fast", "slow");
        List<CellRun> rboth = runs(both, 3, 1.0, 3);
        SweepComparison c = SweepComparison.of(SweepAnalysis.of(a, ra, SLO, 3), ra, SweepAnalysis.of(both, rboth, SLO, 3), rboth,
                0.05, GATE);
        assertThat(c.cells().rows()).hasSize(6);
        assertThat(c.onlyNew()).hasSize(6).allMatch(k -> k.startsWith("slow "));
        assertThat(c.markdown("A", "B")).contains("Not compared: only in NEW [slow 1x1");
    }
}
