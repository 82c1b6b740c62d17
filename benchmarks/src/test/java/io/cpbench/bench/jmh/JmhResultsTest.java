package io.cpbench.bench.jmh;

import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.ResultFormatException;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Folding JMH's JSON into cp-bench results. The fixture is JMH 1.37 output from this project's benchmarks (a real
 * run's file with its raw data replaced by small known values): throughput with two forks, SampleTime with one
 * fork of two iterations, and HarnessCost.
 */
class JmhResultsTest {

    @TempDir
    Path dir;

    static Path fixture() throws URISyntaxException {
        return Path.of(JmhResultsTest.class.getResource("/jmh/two-forks.json").toURI());
    }

    static ScenarioSession.Report report(List<String> problems) {
        RunResult.LeaderInfo leader = new RunResult.LeaderInfo("member-0", "127.0.0.1:5701", 2);
        return new ScenarioSession.Report("client-leader", "a", "d", new RunResult.ClusterInfo("local", "cpbench-x",
                "member-0 127.0.0.1:5701 (leader)", List.of(new RunResult.MemberInfo("member-0", "127.0.0.1:5701", true)),
                new RunResult.NetworkPath("user-space TCP proxy per member", null, 0, Map.of("member-0", 1234L))),
                new RunResult.Leaders(leader, leader), problems, "2026-11-22T07:00:00Z", "2026-11-22T07:01:00Z");
    }

    @Test
    void throughputForksBecomeRoundsWithJmhsMeanScoreAndNoLatencies() throws Exception {
        List<RunResult> results = JmhResults.fold(fixture(), 0, JmhResults.Reports.NONE).results().stream()
                .filter(r -> JmhResults.THROUGHPUT.equals(r.harness())).toList();

        assertThat(results).extracting(RunResult::round).containsExactly(1, 2);
        // Fork 1's iterations scored 390 and 560 ops/s, fork 2's 500 and 600; each iteration lasted 3 s.
        assertThat(results.get(0).measured().opsPerSecond()).isCloseTo(475, within(1e-9));
        assertThat(results.get(1).measured().opsPerSecond()).isCloseTo(550, within(1e-9));
        assertThat(results.get(0).measured().ops()).isEqualTo(2850);
        assertThat(results.get(0).measured().durationSeconds()).isEqualTo(6.0);
        assertThat(results.get(0).plan().timeboxSeconds()).isEqualTo(9.0);
        assertThat(results.get(0).decodeHistogram().getTotalCount()).isZero();
        assertThat(results.get(0).scenario()).isEqualTo("client-leader");
        assertThat(results.get(0).run().network()).isEqualTo("a");
    }

    @Test
    void sampleTimeBecomesTheHistogramOfEverySampleInMicros() throws Exception {
        RunResult sample = JmhResults.fold(fixture(), 0, JmhResults.Reports.NONE).results().stream()
                .filter(r -> JmhResults.SAMPLE.equals(r.harness())).findFirst().orElseThrow();

        // Iteration 1: 3 x 800 µs, 5 x 1,000 µs, 1 x 1,500.5 µs; iteration 2: 1 x 2,000 µs.
        Histogram h = sample.decodeHistogram();
        assertThat(h.getTotalCount()).isEqualTo(10);
        assertThat(h.getCountAtValue(800)).isEqualTo(3);
        assertThat(h.getCountAtValue(1501)).isEqualTo(1);
        assertThat(sample.latencyMicros().p50()).isEqualTo(1000);
        assertThat(sample.latencyMicros().max()).isEqualTo(2000);
        assertThat(sample.measured().ops()).isEqualTo(10);
        // One thread, closed loop: op/s = 1 / mean op time = 1e6 / 1,090.05 µs.
        assertThat(sample.measured().opsPerSecond()).isCloseTo(1e6 / 1090.05, within(1e-6));
    }

    @Test
    void aTrialsReportSuppliesLeadershipAndRoutingAndItsProblemsMakeItUnstable() throws Exception {
        RunResult checked = JmhResults.fold(fixture(), 4, (b, m, s, fork) -> report(List.of())).results().get(0);
        RunResult unstable = JmhResults.fold(fixture(), 4,
                (b, m, s, fork) -> report(List.of("leadership changed during the run: x -> y"))).results().get(0);
        RunResult unchecked = JmhResults.fold(fixture(), 4, JmhResults.Reports.NONE).results().get(0);

        assertThat(checked.round()).isEqualTo(4);
        assertThat(checked.status()).isEqualTo(Status.OK);
        assertThat(checked.reason()).isNull();
        assertThat(checked.leader().before().term()).isEqualTo(2);
        assertThat(checked.cluster().clientTarget()).contains("(leader)");
        assertThat(checked.cluster().networkPath().clientBytesToMember()).containsEntry("member-0", 1234L);
        assertThat(unstable.status()).isEqualTo(Status.UNSTABLE);
        assertThat(unstable.reason()).contains("leadership changed");
        assertThat(unchecked.status()).isEqualTo(Status.OK);
        assertThat(unchecked.reason()).contains("not checked");
        assertThat(unchecked.leader().before()).isNull();
    }

    @Test
    void foldedResultsAreOrdinaryResultFiles() throws Exception {
        for (RunResult result : JmhResults.fold(fixture(), 0, JmhResults.Reports.NONE).results()) {
            // this build's commit, as every other result records it (the history groups runs by it)
            assertThat(result.environment().cpbenchCommit()).isEqualTo(io.cpbench.core.result.Environment.current().cpbenchCommit());
            ResultFiles.write(dir, result);
        }

        assertThat(ResultFiles.readAll(List.of(dir))).extracting(RunResult::label).containsExactlyInAnyOrder(
                "client-leader [jmh-thrpt]", "client-leader [jmh-thrpt]", "client-leader [jmh-sample]");
    }

    @Test
    void harnessCostIsReadInNanosAndComparedWithAnOpsP50() throws Exception {
        List<JmhResults.HarnessCostFigure> costs = JmhResults.fold(fixture(), 0, JmhResults.Reports.NONE).harnessCosts();

        assertThat(costs).hasSize(1);
        assertThat(costs.get(0).nanosPerOp()).isCloseTo(64.059, within(0.001));
        // 64 ns against a 1,000 µs op is 0.0064 %.
        assertThat(costs.get(0).percentOf(1000)).isCloseTo(0.0064059, within(1e-6));
    }

    @Test
    void whatIsNotJmhsJsonIsRefusedWithTheFileNamed() throws IOException {
        Path garbage = Files.writeString(dir.resolve("garbage.json"), "{not json");
        Path object = Files.writeString(dir.resolve("object.json"), "{\"benchmark\": \"x\"}");
        Path avgt = Files.writeString(dir.resolve("avgt.json"), "[{\"benchmark\": \"" + CpOpBenchmark.class.getName()
                + ".throughput\", \"mode\": \"avgt\", \"primaryMetric\": {}}]");
        Path unknown = Files.writeString(dir.resolve("unknown.json"), "[{\"benchmark\": \"" + CpOpBenchmark.class.getName()
                + ".throughput\", \"mode\": \"thrpt\", \"primaryMetric\": {}, \"params\": {\"scenario\": \"nope\"}}]");
        Path other = Files.writeString(dir.resolve("other.json"), "[{\"benchmark\": \"org.example.Other.run\", "
                + "\"mode\": \"thrpt\", \"primaryMetric\": {}}]");

        assertThatThrownBy(() -> JmhResults.fold(garbage, 0, JmhResults.Reports.NONE))
                .isInstanceOf(ResultFormatException.class).hasMessageContaining("garbage.json: not JMH's JSON");
        assertThatThrownBy(() -> JmhResults.fold(object, 0, JmhResults.Reports.NONE))
                .isInstanceOf(ResultFormatException.class).hasMessageContaining("expected an array");
        assertThatThrownBy(() -> JmhResults.fold(avgt, 0, JmhResults.Reports.NONE))
                .isInstanceOf(ResultFormatException.class).hasMessageContaining("mode 'avgt'");
        assertThatThrownBy(() -> JmhResults.fold(unknown, 0, JmhResults.Reports.NONE))
                .isInstanceOf(ResultFormatException.class).hasMessageContaining("unknown scenario 'nope'");
        assertThatThrownBy(() -> JmhResults.fold(other, 0, JmhResults.Reports.NONE))
                .isInstanceOf(ResultFormatException.class).hasMessageContaining("not one of cp-bench's CP op benchmarks");
    }

    @Test
    void jmhTimeValuesAndUnitsAreRead() {
        assertThat(JmhResults.seconds("10 s")).isEqualTo(10.0);
        assertThat(JmhResults.seconds("500 ms")).isEqualTo(0.5);
        assertThat(JmhResults.seconds("1 min")).isEqualTo(60.0);
        assertThat(JmhResults.timePerOpToMicros("ms/op")).isEqualTo(1000.0);
        assertThat(JmhResults.opsPerSecondFactor("ops/ms")).isEqualTo(1000.0);
        assertThatThrownBy(() -> JmhResults.seconds("soon")).isInstanceOf(ResultFormatException.class);
    }
}
