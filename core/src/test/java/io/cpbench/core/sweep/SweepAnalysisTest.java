package io.cpbench.core.sweep;

import io.cpbench.core.load.Threshold;
import io.cpbench.core.stats.Usl;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SweepAnalysisTest {

    static final int[] THREADS = {1, 2, 4, 8, 16, 32};
    static final Usl CURVE = new Usl(1000, 0.05, 0.002, 1, 0); // peaks at N = 21.8

    static List<SweepCell> grid(String... routings) {
        List<SweepCell> cells = new ArrayList<>();
        for (int t : THREADS) {
            for (String r : routings) {
                cells.add(new SweepCell(r, 1, t, null));
            }
        }
        return cells;
    }

    /** Routing "fast" follows the curve, "slow" gives 0.9 of it; p99 grows 600 µs per worker; ±2 % noise. */
    static List<CellRun> runs(List<SweepCell> cells, int repeats) {
        SplittableRandom random = new SplittableRandom(11);
        List<CellRun> runs = new ArrayList<>();
        for (int rep = 1; rep <= repeats; rep++) {
            for (SweepCell c : cells) {
                double x = CURVE.throughput(c.workers()) * (c.routing().equals("slow") ? 0.9 : 1)
                        * (1 + (random.nextDouble() - 0.5) * 0.04);
                long p99 = 600L * c.workers();
                runs.add(CellRunBuilder.builder().repeat(rep).cell(c).status(io.cpbench.core.status.Status.OK).seconds(10).ops((long) (x * 10))
                        .opsPerSecond(x).latency(new CellRun.Latencies(p99 / 3, p99 / 2, p99, p99 * 2, p99 * 3))
                        .sloActual(p99).build());
            }
        }
        return runs;
    }

    @Test
    void theKneeIsTheHighestThroughputWithinTheSloAndTheTableSaysWhy() {
        List<SweepCell> cells = grid("fast", "slow");
        SweepAnalysis a = SweepAnalysis.of(cells, runs(cells, 3), Threshold.parse("p99<5ms"), 3);
        assertThat(a.complete()).isTrue();
        assertThat(a.knee().routing()).isEqualTo("fast");
        assertThat(a.knee().level().level()).isEqualTo("1x8"); // 1x16 has more throughput but p99 9.6 ms
        assertThat(a.routings().get(1).knee().level()).isEqualTo("1x8");
        SweepAnalysis.RoutingStats fast = a.routings().get(0);
        assertThat(fast.levels()).hasSize(6);
        assertThat(fast.levels().get(4).sloMet()).isFalse();
        assertThat(fast.levels().get(3).throughput().median()).isCloseTo(CURVE.throughput(8), within(CURVE.throughput(8) * 0.03));
        assertThat(fast.usl().peakConcurrency()).isBetween(18.0, 26.0);
        // the SLO (5 ms) is crossed between 1x8 (p99 4.8 ms) and 1x16 (9.6 ms): 200/4800 of the way in throughput
        double x8 = fast.levels().get(3).throughput().median();
        double x16 = fast.levels().get(4).throughput().median();
        assertThat(fast.kneeBracket()).isEqualTo("1x16");
        assertThat(fast.kneeEstimate()).isCloseTo(x8 + (x16 - x8) * 200 / 4800, within(0.5));
        assertThat(a.winners()).hasSize(6).allSatisfy(w -> {
            assertThat(w.best()).isEqualTo("fast");
            assertThat(w.ratio().median()).isCloseTo(1 / 0.9, within(0.04));
            assertThat(w.clear()).isTrue();
        });
        assertThat(a.optimal()).extracting(SweepAnalysis.ConfigRow::component)
                .containsExactly("Routing", "Client instances", "Threads per client", "Expected throughput", "Expected p99", "USL peak");
        assertThat(a.optimal().get(0).value()).isEqualTo("fast");
        assertThat(a.optimal().get(0).reason()).contains("next, slow").contains("fast / slow = 1.1");
        assertThat(a.optimal().get(2).value()).isEqualTo("8");
        assertThat(a.optimal().get(2).reason()).contains("at the next level, 1x16, p99 was 9.60 ms: over the SLO");
        assertThat(a.optimal().get(4).value()).isEqualTo("4.80 ms");
        String text = SweepReport.render(a);
        assertThat(text).contains("<- knee").contains("| Routing ").contains("9.60 ms !");
    }

    @Test
    void eachRepeatGetsItsOwnKneeEstimateAndTheirSpreadIsReported() {
        List<SweepCell> cells = grid("fast");
        List<CellRun> runs = new ArrayList<>();
        // repeat 3 runs at 0.7x the others' speed, with a 20 % higher p99: its knee must come out lower
        for (CellRun r : runs(cells, 3)) {
            double f = r.repeat() == 3 ? 0.7 : 1;
            long p99 = r.repeat() == 3 ? (long) (r.latency().p99Us() * 1.2) : r.latency().p99Us();
            runs.add(CellRunBuilder.builder().repeat(r.repeat()).cell(r.cell()).status(io.cpbench.core.status.Status.OK).seconds(10)
                    .ops((long) (r.opsPerSecond() * f * 10)).opsPerSecond(r.opsPerSecond() * f)
                    .latency(new CellRun.Latencies(p99 / 3, p99 / 2, p99, p99 * 2, p99 * 3)).sloActual(p99).build());
        }
        SweepAnalysis.RoutingStats fast = SweepAnalysis.of(cells, runs, Threshold.parse("p99<5ms"), 3).routings().get(0);
        assertThat(fast.kneeByRepeat()).hasSize(3);
        // each repeat alone: its own crossing of 5 ms between 1x4 and 1x16, as computed by hand from its runs
        for (int rep = 1; rep <= 3; rep++) {
            int r = rep;
            double[] x = runs.stream().filter(c -> c.repeat() == r).mapToDouble(CellRun::opsPerSecond).toArray();
            double[] p = runs.stream().filter(c -> c.repeat() == r).mapToDouble(c -> c.latency().p99Us()).toArray();
            int knee = p[3] < 5000 ? 3 : 2; // 1x8 (4.8 ms) within 5 ms in repeats 1-2; in repeat 3 (5.76 ms) not
            double expected = x[knee] + (x[knee + 1] - x[knee]) * (5000 - p[knee]) / (p[knee + 1] - p[knee]);
            assertThat(fast.kneeByRepeat().get(rep - 1)).as("repeat " + rep).isCloseTo(expected, within(0.5));
        }
        assertThat(fast.kneeByRepeat().get(2)).isLessThan(0.8 * fast.kneeByRepeat().get(0));
        assertThat(fast.kneeSpread()).isGreaterThan(0.25);
        assertThat(SweepReport.render(SweepAnalysis.of(cells, runs, Threshold.parse("p99<5ms"), 3)))
                .contains("each repeat alone").containsPattern("\\(spread \\d+ %\\)");
        // one repeat: nothing to compare
        assertThat(SweepAnalysis.of(cells, runs(cells, 1), Threshold.parse("p99<5ms"), 1).routings().get(0).kneeByRepeat())
                .isEmpty();
    }

    @Test
    void aLooserSloMovesTheKneeToThePeakAndFailedRunsDoNotCount() {
        List<SweepCell> cells = grid("fast");
        List<CellRun> runs = new ArrayList<>(runs(cells, 2));
        // a failed run at 1x32 with absurd throughput must not become the knee
        runs.add(CellRunBuilder.builder().repeat(3).cell(cells.get(5)).status(io.cpbench.core.status.Status.FAIL).reason("cluster gone")
                .seconds(1).ops(10_000_000).errors(5).opsPerSecond(1e7).latency(new CellRun.Latencies(1, 1, 1, 1, 1))
                .sloActual(1).build());
        SweepAnalysis a = SweepAnalysis.of(cells, runs, Threshold.parse("p99<100ms"), 3);
        assertThat(a.complete()).isFalse();
        assertThat(a.knee().level().level()).isEqualTo("1x16"); // the curve's best measured level (N* = 21.8)
        // no level lies over the SLO: the estimate is the knee's own throughput
        assertThat(a.routings().get(0).kneeBracket()).isNull();
        assertThat(a.routings().get(0).kneeEstimate()).isEqualTo(a.knee().level().throughput().median());
        assertThat(a.routings().get(0).levels().get(5).failed()).isEqualTo(1);
        assertThat(SweepReport.render(a)).startsWith("INCOMPLETE");
        assertThat(a.optimal().get(0).reason()).doesNotContain("next,");
    }

    @Test
    void withNoLevelWithinTheSloThereIsNoKneeAndTheTableSaysWhatCameClosest() {
        List<SweepCell> cells = grid("fast", "slow");
        SweepAnalysis a = SweepAnalysis.of(cells, runs(cells, 2), Threshold.parse("p99<100us"), 2);
        assertThat(a.knee()).isNull();
        assertThat(a.optimal()).hasSize(1);
        assertThat(a.optimal().get(0).reason()).contains("no level met the SLO p99<100us").contains("600 µs").contains("1x1");
    }

    @Test
    void openLoopCellsGetAKneeButNoUslFit() {
        List<SweepCell> cells = List.of(new SweepCell("fast", 1, 16, 1000.0), new SweepCell("fast", 1, 16, 2000.0),
                new SweepCell("fast", 1, 16, 4000.0));
        List<CellRun> runs = List.of(
                CellRunBuilder.builder().repeat(1).cell(cells.get(0)).status(io.cpbench.core.status.Status.OK).seconds(10).ops(10_000)
                        .opsPerSecond(1000).latency(new CellRun.Latencies(300, 400, 900, 1000, 2000)).sloActual(900)
                        .build(),
                CellRunBuilder.builder().repeat(1).cell(cells.get(1)).status(io.cpbench.core.status.Status.OK).seconds(10).ops(20_000)
                        .opsPerSecond(2000).latency(new CellRun.Latencies(400, 600, 2000, 3000, 4000)).sloActual(2000)
                        .build(),
                CellRunBuilder.builder().repeat(1).cell(cells.get(2)).status(io.cpbench.core.status.Status.OK).seconds(10).ops(31_000)
                        .opsPerSecond(3100).latency(new CellRun.Latencies(9000, 50_000, 90_000, 95_000, 99_000))
                        .sloActual(90_000).build());
        SweepAnalysis a = SweepAnalysis.of(cells, runs, Threshold.parse("p99<10ms"), 1);
        assertThat(a.knee().level().level()).isEqualTo("1x16@2000/s");
        assertThat(a.routings().get(0).kneeEstimate()).isCloseTo(2000 + 1100 * 8000.0 / 88000, within(0.01));
        assertThat(a.routings().get(0).usl()).isNull();
        assertThat(a.routings().get(0).uslNote()).contains("open-loop");
        assertThat(a.optimal().get(2).reason()).contains("1x16@4000/s").contains("over the SLO");
    }

    @Test
    void aRepeatWhereEveryCellRanSlowerShowsAsTheMachinesSpeedAndIsReported() {
        List<SweepCell> cells = grid("fast", "slow");
        double[] machine = {1.0, 0.8, 0.6};
        List<CellRun> runs = new ArrayList<>();
        for (CellRun r : runs(cells, 3)) {
            double f = machine[r.repeat() - 1];
            runs.add(CellRunBuilder.builder().repeat(r.repeat()).cell(r.cell()).status(r.status())
                    .seconds(r.seconds()).ops((long) (r.ops() * f)).opsPerSecond(r.opsPerSecond() * f)
                    .latency(r.latency())
                    .sloActual(r.sloActual()).build());
        }
        SweepAnalysis drifted = SweepAnalysis.of(cells, runs, Threshold.parse("p99<5ms"), 3);
        // each cell's median is its repeat-2 run: 1.0/0.8, 0.8/0.8, 0.6/0.8, within the ±2 % noise
        assertThat(drifted.repeatSpeed()).hasSize(3);
        assertThat(drifted.repeatSpeed().get(0)).isCloseTo(1.25, within(0.03));
        assertThat(drifted.repeatSpeed().get(1)).isCloseTo(1.0, within(0.03));
        assertThat(drifted.repeatSpeed().get(2)).isCloseTo(0.75, within(0.03));
        assertThat(drifted.speedSpread()).isCloseTo(1.25 / 0.75 - 1, within(0.06));
        assertThat(SweepReport.render(drifted)).contains("Speed by repeat").contains("every cell moved together by 6");

        SweepAnalysis steady = SweepAnalysis.of(cells, runs(cells, 3), Threshold.parse("p99<5ms"), 3);
        assertThat(steady.repeatSpeed()).allSatisfy(v -> assertThat(v).isCloseTo(1.0, within(0.02)));
        assertThat(steady.speedSpread()).isLessThan(SweepAnalysis.SPEED_SPREAD_WARNING);
        assertThat(SweepReport.render(steady)).contains("Speed by repeat").doesNotContain("moved together");

        assertThat(SweepAnalysis.of(cells, runs(cells, 1), Threshold.parse("p99<5ms"), 1).repeatSpeed()).isEmpty();
    }

    /**
     * A run whose p99 came from ops abandoned in flight (recorded at their latency so far) has only a lower bound: the
     * sweep table prints that cell's p99 "≥" with a line saying why, cells.csv has the bound in its last column, and
     * the cell line marks it; runs without censored ops print plain.
     */
    @Test
    void aCensoredP99IsALowerBoundInTheTableTheCsvAndTheCellLine() {
        List<SweepCell> cells = List.of(new SweepCell("fast", 1, 1, null), new SweepCell("fast", 1, 2, null));
        CellRun exact = CellRunBuilder.builder().repeat(1).cell(cells.get(0)).status(io.cpbench.core.status.Status.OK).seconds(10).ops(10_000)
                .opsPerSecond(1000).latency(new CellRun.Latencies(300, 400, 900, 1000, 2000)).sloActual(900).build();
        CellRun censored = CellRunBuilder.builder().repeat(1).cell(cells.get(1)).status(io.cpbench.core.status.Status.OK).seconds(10).ops(20_000)
                .opsPerSecond(2000).latency(new CellRun.Latencies(400, 600, 2_000_000, 2_000_000, 2_000_000))
                .sloActual(2_000_000).censored(new io.cpbench.core.stats.Censored(1, 2_000_000)).build();
        SweepAnalysis a = SweepAnalysis.of(cells, List.of(exact, censored), Threshold.parse("p99<10ms"), 1);
        String table = SweepReport.render(a);
        assertThat(table).contains("≥2000.00 ms").contains("≥: a lower bound");
        assertThat(table.lines().filter(l -> l.startsWith("| 1x1 ")).findFirst().orElseThrow()).doesNotContain("≥");
        assertThat(CellRun.CSV_HEADER).endsWith(",censored_from_us");
        assertThat(censored.csvLine()).endsWith(",2000000");
        assertThat(exact.csvLine()).endsWith(",");
        assertThat(censored.mark(censored.latency().p50Us())).isEmpty();
        assertThat(censored.mark(censored.latency().p99Us())).isEqualTo("≥");
        assertThat(SweepReport.render(SweepAnalysis.of(cells, List.of(exact), Threshold.parse("p99<10ms"), 1)))
                .doesNotContain("≥");
    }
}
