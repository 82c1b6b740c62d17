package io.cpbench.core.result;

import io.cpbench.core.status.Status;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.cpbench.core.result.ResultFilesTest.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ScenarioTableTest {

    @Test
    void roundsAreSummarisedByMedianAndSpreadAndMergedPercentiles() {
        List<RunResult> results = List.of(
                result("client-leader", 1, 1000, Status.OK, 100, 100),
                result("client-leader", 2, 1200, Status.OK, 100, 100),
                result("client-leader", 3, 1100, Status.OK, 5_000, 5_000));

        ScenarioTable.Row row = ScenarioTable.rows(results).get(0);

        assertThat(row.rounds()).isEqualTo(3);
        assertThat(row.opsPerSecond()).isEqualTo(1100);
        assertThat(row.opsMin()).isEqualTo(1000);
        assertThat(row.opsMax()).isEqualTo(1200);
        assertThat(row.spread()).isCloseTo(100.0 / 1100, within(1e-9));
        // 4 of 6 ops took 100 µs, so the merged median is 100 and the max 5,000.
        assertThat(row.latency().p50()).isEqualTo(100);
        assertThat(row.latency().max()).isBetween(4_990L, 5_010L);
        assertThat(row.status()).isEqualTo("OK");
    }

    /**
     * An op abandoned in flight is in the histogram at a lower bound of its latency: the percentiles it may have
     * moved, and only those, are printed with "≥", and a line says why. The mark survives the result file.
     */
    @Test
    void percentilesThatAnAbandonedOpMayHaveMovedAreMarkedAsLowerBounds(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        long[] latencies = new long[200];
        java.util.Arrays.fill(latencies, 100);
        latencies[199] = 2_000_000; // abandoned after 2 s in flight
        RunResult plain = result("client-leader", 1, 1000, Status.TIMEBOXED, latencies);
        RunResult.Latency l = plain.latencyMicros();
        RunResult censored = ResultFilesTest.withLatency(plain, new RunResult.Latency(l.min(), l.mean(), l.p50(), l.p90(),
                l.p99(), l.p999(), l.max(), new io.cpbench.core.stats.Censored(1, 2_000_000)));

        RunResult read = ResultFiles.read(ResultFiles.write(dir, censored));
        String table = ScenarioTable.markdown(List.of(read));

        String row = table.lines().filter(line -> line.contains("client-leader")).findFirst().orElseThrow();
        assertThat(row).contains("| 100 ").doesNotContain("≥100"); // p50 and p99: below the censored value, exact
        assertThat(row).contains("≥" + l.max()).contains("≥" + l.p999());
        assertThat(table).contains("≥: a lower bound. 1 op still in flight when its run ended is counted at its latency so far");
        assertThat(ScenarioTable.markdown(List.of(plain))).doesNotContain("≥");
    }

    @Test
    void mixedStatusesAreAllShown() {
        List<RunResult> results = List.of(
                result("x", 1, 1000, Status.OK, 1),
                result("x", 2, 1000, Status.UNSTABLE, 1));

        assertThat(ScenarioTable.rows(results).get(0).status()).isEqualTo("OK×1 UNSTABLE×1");
    }

    @Test
    void markdownHasTheSeedColumnsAndOneRowPerScenario() {
        String table = ScenarioTable.markdown(List.of(result("client-leader", 1, 1299, Status.OK, 700),
                result("client-follower", 1, 924, Status.TIMEBOXED, 1_000)));

        String[] lines = table.split("\n");
        assertThat(lines).hasSize(4);
        assertThat(lines[0]).contains("Scenario", "Network", "Duration(s)", "Op/s", "p50", "p99", "p99.9", "max",
                "errors", "leader", "status");
        assertThat(lines[2]).contains("client-leader", "1299", "OK");
        assertThat(lines[3]).contains("client-follower", "924", "TIMEBOXED");
    }

    @Test
    void theLeaderColumnSaysWhenLeadershipWasReadFromMetrics() {
        RunResult members = result("client-leader", 1, 1000, Status.OK, 1);
        RunResult.LeaderInfo fromMetrics = new RunResult.LeaderInfo("member-0", "127.0.0.1:5701", 2, "metrics");
        RunResult.RunInfo run = members.run();
        RunResult metrics = members.toBuilder()
                .run(new RunResult.RunInfo("client-follower", run.network(), run.description(), 1, null, null))
                .leader(new RunResult.Leaders(fromMetrics, fromMetrics)).build();

        List<ScenarioTable.Row> rows = ScenarioTable.rows(List.of(members, metrics));

        assertThat(rows.get(0).leader()).isEqualTo("member-0");
        assertThat(rows.get(1).leader()).isEqualTo("member-0 (metrics)");
    }

    @Test
    void ratiosArePairedWithinEachRound() {
        List<RunResult> results = List.of(
                result("client-leader", 1, 1000, Status.OK, 1),
                result("client-follower", 1, 700, Status.OK, 1),
                result("client-leader", 2, 2000, Status.OK, 1),
                result("client-follower", 2, 1600, Status.OK, 1),
                result("client-leader", 3, 1000, Status.FAIL, 1),
                result("client-follower", 3, 100, Status.OK, 1));

        String ratios = ScenarioTable.ratios(results, "client-leader");

        // Round 3's baseline failed, so only rounds 1 (0.7) and 2 (0.8) pair up; their median is 0.75.
        assertThat(ratios).contains("client-follower", "0.750", "0.700–0.800", "| 2 ");
    }

    /** The case: round 1's baseline on a cluster still warming, 5x slower; its ratios would be 5x too high. */
    @Test
    void aRoundWhoseBaselineRanUnderHalfItsOtherRoundsIsLeftOutAndNamed() {
        List<RunResult> results = List.of(
                baseline(result("client-leader", 1, 120, Status.OK, 1)),
                result("client-follower", 1, 355, Status.OK, 1),
                baseline(result("client-leader", 2, 650, Status.OK, 1)),
                result("client-follower", 2, 585, Status.OK, 1),
                baseline(result("client-leader", 3, 700, Status.OK, 1)),
                result("client-follower", 3, 651, Status.OK, 1));

        assertThat(ScenarioTable.disturbedWithinNetwork(results)).singleElement().satisfies(d -> {
            assertThat(d.round()).isEqualTo(1);
            assertThat(d.othersMedian()).isEqualTo(675);
        });
        // rounds 2 (0.900) and 3 (0.930) pair up; round 1's 2.958 is not among them
        ScenarioTable.Ratio ratio = ScenarioTable.pairedRatiosWithinNetwork(results).get(0);
        assertThat(ratio.interval().n()).isEqualTo(2);
        assertThat(ratio.max()).isCloseTo(0.93, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(ScenarioTable.ratiosWithinNetwork(results)).contains("| 2 ").contains("round 1 left out of the ratios:"
                + " its baseline client-leader ran at 120 op/s, under half the median of its other rounds (675 op/s).");

        // at 60 % of the others it is slow, not disturbed: it stays in
        List<RunResult> slow = List.of(baseline(result("client-leader", 1, 400, Status.OK, 1)),
                result("client-follower", 1, 355, Status.OK, 1), baseline(result("client-leader", 2, 650, Status.OK, 1)),
                result("client-follower", 2, 585, Status.OK, 1), baseline(result("client-leader", 3, 700, Status.OK, 1)),
                result("client-follower", 3, 651, Status.OK, 1));
        assertThat(ScenarioTable.disturbedWithinNetwork(slow)).isEmpty();
        assertThat(ScenarioTable.pairedRatiosWithinNetwork(slow).get(0).interval().n()).isEqualTo(3);
    }

    @Test
    void withinNetworkEachScenarioIsComparedWithTheLeaderClientOfItsOwnNetwork() {
        List<RunResult> results = List.of(
                baseline(result("client-leader", 1, 1000, Status.OK, 1)),
                baseline(result("client-leader-1follower10ms", 1, 2000, Status.OK, 1)),
                result("client-leader-aware", 1, 990, Status.OK, 1),
                result("client-latency-aware-10ms", 1, 1900, Status.OK, 1));

        String ratios = ScenarioTable.ratiosWithinNetwork(results);

        assertThat(ratios.lines()).hasSize(2 + 2);
        assertThat(ratios).containsPattern("client-leader-aware +\\| client-leader +\\| 0\\.990 ");
        assertThat(ratios).containsPattern("client-latency-aware-10ms +\\| client-leader-1follower10ms +\\| 0\\.950 ");
    }

    @Test
    void eachHarnessHasItsOwnRowsAndIsComparedWithItsOwnBaseline() {
        List<RunResult> results = List.of(
                baseline(result("client-leader", 1, 1000, Status.OK, 700)),
                result("client-follower", 1, 800, Status.OK, 900),
                ResultFilesTest.withHarness(baseline(result("client-leader", 1, 500, Status.OK)), "jmh-thrpt"),
                ResultFilesTest.withHarness(result("client-follower", 1, 450, Status.OK), "jmh-thrpt"));

        List<ScenarioTable.Row> rows = ScenarioTable.rows(results);
        String table = ScenarioTable.markdown(results);
        String ratios = ScenarioTable.ratiosWithinNetwork(results);

        assertThat(rows).extracting(ScenarioTable.Row::scenario).containsExactly("client-leader", "client-follower",
                "client-leader [jmh-thrpt]", "client-follower [jmh-thrpt]");
        assertThat(rows).allSatisfy(row -> assertThat(row.rounds()).isEqualTo(1));
        // Throughput-only results have no latencies: the table shows none rather than zeros.
        assertThat(table).containsPattern("client-leader \\[jmh-thrpt\\] +\\| \\(a\\) +\\| [0-9.]+ +\\| 500 +\\| – ");
        assertThat(ratios).containsPattern("client-follower +\\| client-leader +\\| 0\\.800 ");
        assertThat(ratios).containsPattern("client-follower \\[jmh-thrpt\\] +\\| client-leader \\[jmh-thrpt\\] +\\| 0\\.900 ");
    }

    @Test
    void theBaselineIsTheResultMarkedSoNotAName() {
        List<RunResult> results = List.of(
                result("client-leader", 1, 1000, Status.OK, 1),
                baseline(result("my-own-baseline", 1, 500, Status.OK, 1)),
                result("client-follower", 1, 800, Status.OK, 1));

        String ratios = ScenarioTable.ratiosWithinNetwork(results);

        assertThat(ratios).containsPattern("client-leader +\\| my-own-baseline +\\| 2\\.000 ");
        assertThat(ratios).containsPattern("client-follower +\\| my-own-baseline +\\| 1\\.600 ");
    }

    @Test
    void withoutAMarkedBaselineThereAreNoRatios() {
        List<RunResult> results = List.of(
                result("client-leader", 1, 1000, Status.OK, 1),
                result("client-follower", 1, 800, Status.OK, 1));

        assertThat(ScenarioTable.ratiosWithinNetwork(results)).isEmpty();
        assertThat(ScenarioTable.pairedRatiosWithinNetwork(results)).isEmpty();
    }

    static RunResult baseline(RunResult r) {
        return r.withBaseline(true);
    }

    /** A row's numbers from its rounds: the median duration and op/s, the extremes, the errors summed. */
    @Test
    void aRowsDurationIsTheMedianAndItsErrorsTheSum() {
        RunResult a = result("client-leader", 1, 1000, Status.OK, 1, 2, 3, 4);       // 4 ops: 0.004 s
        RunResult b = result("client-leader", 2, 500, Status.OK, 1, 2, 3, 4, 5, 6);  // 6 ops: 0.012 s
        RunResult c = result("client-leader", 3, 2000, Status.OK, 1, 2);             // 2 ops: 0.001 s
        List<RunResult> runs = List.of(withErrors(a, 3), withErrors(b, 4), c);
        ScenarioTable.Row row = ScenarioTable.rows(runs).get(0);
        assertThat(row.durationSeconds()).isCloseTo(0.004, within(1e-12));
        assertThat(row.opsPerSecond()).isEqualTo(1000);
        assertThat(row.opsMin()).isEqualTo(500);
        assertThat(row.opsMax()).isEqualTo(2000);
        assertThat(row.errors()).isEqualTo(7);
        assertThat(row.rounds()).isEqualTo(3);
    }

    private static RunResult withErrors(RunResult r, long errors) {
        RunResult.Measured m = r.measured();
        return r.toBuilder().measured(new RunResult.Measured(m.startedAt(), m.durationSeconds(), m.warmupOps(), m.ops(), errors,
                m.opsPerSecond(), m.counters())).build();
    }

    /** One round per scenario: no interval column; a scenario with one round among others with more: a dash. */
    @Test
    void theIntervalColumnIsThereOnlyWhenSomeScenarioHasRounds() {
        String single = ScenarioTable.markdown(List.of(result("client-leader", 1, 1000, Status.OK, 1)));
        assertThat(single).doesNotContain("95% CI");
        String mixed = ScenarioTable.markdown(List.of(result("client-leader", 1, 1000, Status.OK, 1),
                result("client-leader", 2, 1100, Status.OK, 1), result("client-follower", 1, 800, Status.OK, 1)));
        assertThat(mixed).contains("Op/s 95% CI (rounds)").contains("– (n=1)").contains("1000–1100");
        // two rounds: no interval of a median from them is a 95 % one, and the table says what it is
        assertThat(mixed).contains("Op/s 95% CI: from 2 rounds, an interval holds the median with at most 50.0%"
                + " confidence (1 - 2 x 0.5^2); 6 rounds or more give 95%.");
        List<RunResult> six = new ArrayList<>();
        for (int round = 1; round <= 6; round++) {
            six.add(result("client-leader", round, 1000 + round, Status.OK, 1));
        }
        assertThat(ScenarioTable.markdown(six)).contains("(n=6)").doesNotContain("at most");
        assertThat(single).doesNotContain("at most");
    }

    /**
     * A baseline round that all but stopped (0.0001 op/s: a disturbed round, under half its other rounds) pairs with
     * nothing; one round of a scenario has a ratio but no interval.
     */
    @Test
    void aBaselineRoundThatAllButStoppedPairsWithNothingAndOneRoundHasNoInterval() {
        List<RunResult> results = List.of(
                result("client-leader", 1, 1000, Status.OK, 1),
                result("client-follower", 1, 800, Status.OK, 1),
                result("client-lb", 1, 900, Status.OK, 1),
                result("client-leader", 2, 0.0001, Status.OK, 1),
                result("client-follower", 2, 700, Status.OK, 1));
        List<ScenarioTable.Ratio> ratios = ScenarioTable.pairedRatios(results, "client-leader");
        assertThat(ratios).extracting(ScenarioTable.Ratio::scenario).containsExactlyInAnyOrder("client-follower", "client-lb");
        assertThat(ratios).allSatisfy(r -> assertThat(r.baseline()).isEqualTo("client-leader"));
        assertThat(ratios).filteredOn(r -> r.scenario().equals("client-follower")).singleElement()
                .satisfies(r -> assertThat(r.interval().n()).as("round 2 left out: 700 / 0.0001 is no ratio").isEqualTo(1))
                .satisfies(r -> assertThat(r.max()).isEqualTo(0.8));
        String table = ScenarioTable.ratios(List.of(result("client-leader", 1, 1000, Status.OK, 1),
                result("client-follower", 1, 800, Status.OK, 1)), "client-leader");
        assertThat(table).contains("| 0.800 ").contains("| – ").contains("0.800–0.800").contains("| 1 ");
        assertThat(ScenarioTable.ratios(List.of(result("client-follower", 1, 800, Status.OK, 1)), "client-leader"))
                .as("no baseline, no table").isEmpty();
    }

    /**
     * Issue 72's round 1: the baseline ran at its usual rate but client-lb, early in a half-warm round, at under a third
     * of its later rounds. That round is left out of client-lb's ratio only, and the table says so in a line of its own.
     */
    @Test
    void aScenariosOwnDisturbedRoundIsLeftOutOfItsRatioOnlyAndNamed() {
        List<RunResult> results = List.of(
                baseline(result("client-leader", 1, 1000, Status.OK, 1)),
                result("client-lb", 1, 300, Status.OK, 1),
                result("client-follower", 1, 900, Status.OK, 1),
                baseline(result("client-leader", 2, 1050, Status.OK, 1)),
                result("client-lb", 2, 950, Status.OK, 1),
                result("client-follower", 2, 950, Status.OK, 1),
                baseline(result("client-leader", 3, 1100, Status.OK, 1)),
                result("client-lb", 3, 1000, Status.OK, 1),
                result("client-follower", 3, 1000, Status.OK, 1));

        assertThat(ScenarioTable.disturbedWithinNetwork(results)).singleElement().satisfies(d -> {
            assertThat(d.scenario()).isEqualTo("client-lb");
            assertThat(d.round()).isEqualTo(1);
            assertThat(d.othersMedian()).isEqualTo(975);
            assertThat(d.ofBaseline()).isFalse();
        });
        List<ScenarioTable.Ratio> ratios = ScenarioTable.pairedRatiosWithinNetwork(results);
        assertThat(ratios).filteredOn(r -> r.scenario().equals("client-lb")).singleElement().satisfies(r -> {
            assertThat(r.interval().n()).isEqualTo(2);
            assertThat(r.min()).isCloseTo(950.0 / 1050, within(1e-12));
            assertThat(r.max()).isCloseTo(1000.0 / 1100, within(1e-12));
        });
        assertThat(ratios).filteredOn(r -> r.scenario().equals("client-follower")).singleElement()
                .satisfies(r -> assertThat(r.interval().n()).as("the baseline's round 1 stays for the others").isEqualTo(3));
        assertThat(ScenarioTable.ratiosWithinNetwork(results)).contains("round 1 left out of client-lb's ratio: it ran at"
                + " 300 op/s, under half the median of its other rounds (975 op/s).");
    }

    /** Readings checked against intervals whose answer is known by hand (the study's own figures, issue 72). */
    @Test
    void aRatioReadsFasterSlowerOrNoDifferenceFromItsIntervalNotItsMedian() {
        ScenarioTable.Ratio faster = ratio(1.105, 1.004, 1.234, 3);
        ScenarioTable.Ratio slower = ratio(0.648, 0.438, 0.852, 3);
        // the 37-round reference: leader-aware ÷ leader 1.033 [0.982-1.084]: a median above 1, no difference shown
        ScenarioTable.Ratio none = ratio(1.033, 0.982, 1.084, 37);
        ScenarioTable.Ratio same = ratio(1.005, 0.980, 1.020, 40);
        ScenarioTable.Ratio one = ratio(0.9, 0.9, 0.9, 1);

        assertThat(faster.reading()).isEqualTo(ScenarioTable.Reading.FASTER);
        assertThat(faster.readingText()).isEqualTo("faster (+10.5%)");
        assertThat(slower.reading()).isEqualTo(ScenarioTable.Reading.SLOWER);
        assertThat(slower.readingText()).isEqualTo("slower (-35.2%)");
        assertThat(none.reading()).isEqualTo(ScenarioTable.Reading.NO_DIFFERENCE_SHOWN);
        // (1.084 - 0.982) / 2 / 1.033 = 4.937 %
        assertThat(none.resolution()).isCloseTo(0.049370, within(1e-6));
        assertThat(none.readingText()).isEqualTo("no difference shown (could see ±4.9%)");
        assertThat(one.reading()).isEqualTo(ScenarioTable.Reading.ONE_ROUND);

        // by hand: 37 x (0.049370 / 0.03)^2 = 100.2, so 101 rounds for ±3 %; already narrower: its own rounds
        assertThat(none.roundsFor(0.03)).isEqualTo(101);
        assertThat(none.roundsFor(0.05)).isEqualTo(37);
        assertThat(faster.roundsFor(0.03)).isEqualTo((int) Math.ceil(3 * Math.pow((1.234 - 1.004) / 2 / 1.105 / 0.03, 2)));
        assertThat(one.roundsFor(0.03)).as("one round cannot tell").isZero();

        assertThat(same.within(0.03)).isTrue();
        assertThat(none.within(0.03)).isFalse();
        assertThat(ratio(1.01, 0.975, 1.031, 40).within(0.03)).as("1.031 is outside 1.03").isFalse();
        assertThat(one.within(0.03)).isFalse();
    }

    @Test
    void theFindingsSayInWordsWhatTheRunFoundAndWhatItCouldNot() {
        List<String> lines = ScenarioTable.findings(List.of(named("client-leader-aware", ratio(1.105, 1.004, 1.234, 3)),
                named("client-lb", ratio(0.648, 0.438, 0.852, 3)), named("client-smart", ratio(0.817, 0.592, 1.031, 3)),
                named("client-follower", ratio(0.6, 0.6, 0.6, 1))), 0.03);
        String text = String.join("\n", lines);
        assertThat(text).contains("faster than the baseline: client-leader-aware 1.105 (1.004–1.234)")
                .contains("slower than the baseline: client-lb 0.648 (0.438–0.852)")
                .contains("no difference shown at this precision (a difference smaller than its ± could not show):"
                        + " client-smart (±26.9%)")
                .contains("within 3% of the baseline (the study's question): shown for none")
                .doesNotContain("client-follower");
        // three paired rounds: no interval of a median holds it with more than 1 - 2 x 0.5^3 = 75 %, and it says so
        assertThat(lines.get(1)).isEqualTo("  With 3 paired rounds these are not 95% intervals: none from 3 values can"
                + " hold their median with more than 75.0% confidence (all 3 fall on one side of it 25.0% of the time),"
                + " so read every verdict below at that confidence; 6 rounds or more give 95% (--rounds, or --until-ci).");
        // the widest is client-lb's: (0.852 - 0.438) / 2 / 0.648 = 31.94 % (client-smart's is 26.87 %);
        // 3 x (0.3194 / 0.03)^2 = 340.2
        assertThat(lines.get(lines.size() - 1)).contains("its widest interval is ±31.9% (client-lb) after 3 paired"
                + " rounds; about 341 rounds would narrow it to ±3%");

        List<String> answered = ScenarioTable.findings(List.of(named("client-lb", ratio(1.005, 0.980, 1.020, 40))), 0.03);
        assertThat(answered).anySatisfy(l -> assertThat(l).contains("shown for client-lb"))
                .last().asString().contains("answers the question for every row");
        assertThat(answered).as("40 rounds: 95% intervals, no caveat").noneMatch(l -> l.contains("not 95% intervals"));
        assertThat(ScenarioTable.findings(List.of(named("client-lb", ratio(1.005, 0.980, 1.020, 6))), 0.03))
                .as("6 rounds can give 95%").noneMatch(l -> l.contains("not 95% intervals"));
        assertThat(ScenarioTable.findings(List.of(named("client-lb", ratio(1.005, 0.980, 1.020, 5))), 0.03))
                .anySatisfy(l -> assertThat(l).contains("With 5 paired rounds", "more than 93.8% confidence"));
        // narrow from 2 rounds (a jmh --rounds 2 run printed "this run answers the question" under the caveat)
        assertThat(ScenarioTable.findings(List.of(named("client-lb", ratio(1.005, 0.990, 1.010, 2))), 0.03))
                .noneMatch(l -> l.contains("answers the question"))
                .last().asString().isEqualTo("  Every interval is within ±3%, but from 2 paired rounds none is a 95% one:"
                        + " 6 rounds or more would answer the question at 95%.");
        assertThat(ScenarioTable.findings(List.of(named("client-lb", ratio(0.6, 0.6, 0.6, 1))), 0.03))
                .as("one round: nothing to say").isEmpty();
        // a row with fewer paired rounds (one left out as disturbed) that is still wider than ±3 %: 2 x (3.5 / 3)^2 =
        // 2.7, so 3 rounds would do, no more than the other row has; the run still cannot answer for it
        List<String> uneven = ScenarioTable.findings(List.of(named("client-lb", ratio(1.0, 0.98, 1.02, 3)),
                named("client-smart", ratio(1.0, 0.965, 1.035, 2))), 0.03);
        assertThat(uneven.get(uneven.size() - 1)).contains("its widest interval is ±3.5% (client-smart) after 2 paired"
                + " rounds; about 3 rounds");
    }

    private static ScenarioTable.Ratio ratio(double median, double low, double high, int n) {
        return new ScenarioTable.Ratio("x", "client-leader", new io.cpbench.core.stats.Bootstrap.Interval(median, low, high, n),
                low, high);
    }

    private static ScenarioTable.Ratio named(String scenario, ScenarioTable.Ratio r) {
        return new ScenarioTable.Ratio(scenario, r.baseline(), r.interval(), r.min(), r.max());
    }
}
