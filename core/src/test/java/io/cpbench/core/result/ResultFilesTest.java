package io.cpbench.core.result;

import io.cpbench.core.status.Status;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultFilesTest {

    @TempDir
    Path dir;

    static RunResult result(String scenario, int round, double opsPerSecond, Status status, long... latencies) {
        return result(scenario, round, "2026-01-01T00:00:00Z", opsPerSecond, status, latencies);
    }

    static RunResult result(String scenario, int round, String startedAt, double opsPerSecond, Status status,
                            long... latencies) {
        Histogram h = new Histogram(3);
        for (long latency : latencies) {
            h.recordValue(latency);
        }
        // As in the scenario catalogue, the network (b) rows are the ones whose names end in 10ms.
        String network = scenario.endsWith("10ms") ? "b" : "a";
        RunResult.LeaderInfo leader = new RunResult.LeaderInfo("member-0", "127.0.0.1:5701", 2);
        return RunResult.builder()
                .run(new RunResult.RunInfo(scenario, network, "test scenario", round, null, null))
                .status(status, null)
                .cluster(new RunResult.ClusterInfo("local", "c", "member-0",
                        List.of(new RunResult.MemberInfo("member-0", "127.0.0.1:5701", true)),
                        new RunResult.NetworkPath("direct", null, 0, java.util.Map.of())))
                .plan(new RunResult.PlanInfo(0, latencies.length, 0, 60, 1)).environment(Environment.current())
                .measured(new RunResult.Measured(startedAt, latencies.length / opsPerSecond, 0, latencies.length, 0,
                        opsPerSecond, null))
                .latency(RunResult.Latency.of(h), RunResult.encode(h))
                .leader(new RunResult.Leaders(leader, leader)).hlog("x.hlog").build();
    }

    /** The same result with other percentiles. */
    static RunResult withLatency(RunResult r, RunResult.Latency latency) {
        return r.toBuilder().latency(latency, r.histogram()).build();
    }

    /** The same result, as measured by another harness. */
    static RunResult withHarness(RunResult r, String harness) {
        RunResult.RunInfo run = r.run();
        return r.toBuilder().run(new RunResult.RunInfo(run.scenario(), run.network(), run.description(), run.round(),
                harness, run.baseline())).build();
    }

    @Test
    void aJmhResultIsFiledApartFromTheDriversAndReadBackWithItsHarness() {
        RunResult jmh = withHarness(result("client-leader", 1, 1000, Status.OK, 700), "jmh-sample");

        Path file = ResultFiles.write(dir, jmh);
        ResultFiles.write(dir, result("client-leader", 1, 1000, Status.OK, 700));

        assertThat(file.getFileName().toString()).isEqualTo("01-client-leader.jmh-sample.json");
        assertThat(ResultFiles.read(file).harness()).isEqualTo("jmh-sample");
        assertThat(ResultFiles.readAll(List.of(dir))).extracting(RunResult::label)
                .containsExactlyInAnyOrder("client-leader", "client-leader [jmh-sample]");
    }

    @Test
    void theBaselineMarkIsWrittenAndReadBack() throws java.io.IOException {
        RunResult written = result("client-leader", 1, 1000, Status.OK, 700).withBaseline(true);

        Path file = ResultFiles.write(dir, written);

        assertThat(java.nio.file.Files.readString(file)).contains("\"baseline\" : true");
        assertThat(ResultFiles.read(file).baselineOfItsNetwork()).isTrue();
        assertThat(ResultFiles.read(ResultFiles.write(dir, result("client-follower", 1, 900, Status.OK, 700)
                .withBaseline(false))).baselineOfItsNetwork()).isFalse();
    }

    @Test
    void writesAndReadsBackTheSameResultWithItsHistogram() {
        RunResult written = result("client-leader", 1, 1000, Status.OK, 700, 800, 900, 5_000);

        Path file = ResultFiles.write(dir, written);
        RunResult read = ResultFiles.read(file);

        assertThat(file.getFileName().toString()).isEqualTo("01-client-leader.json");
        assertThat(read).isEqualTo(written);
        assertThat(read.decodeHistogram()).isEqualTo(written.decodeHistogram());
        assertThat(read.decodeHistogram().getMaxValue()).isBetween(4_990L, 5_010L);
    }

    @Test
    void readsADirectoryInTheOrderTheRunsRan() {
        ResultFiles.write(dir, result("b", 2, "2026-01-01T00:00:03Z", 1, Status.OK, 1));
        ResultFiles.write(dir, result("a", 2, "2026-01-01T00:00:02.5Z", 1, Status.OK, 1));
        ResultFiles.write(dir, result("a", 1, "2026-01-01T00:00:01Z", 1, Status.OK, 1));
        ResultFiles.write(dir, result("b", 1, "2026-01-01T00:00:00.123Z", 1, Status.OK, 1));

        assertThat(ResultFiles.readAll(List.of(dir))).extracting(r -> r.round() + r.scenario())
                .containsExactly("1b", "1a", "2a", "2b");
    }

    @Test
    void malformedJsonIsAClearErrorNamingTheFile() throws IOException {
        Path file = Files.writeString(dir.resolve("01-x.json"), "{ this is not json");

        assertThatThrownBy(() -> ResultFiles.read(file))
                .isInstanceOf(ResultFormatException.class)
                .hasMessageStartingWith(file + ": not a cp-bench result");
    }

    @Test
    void jsonOfAnotherKindIsRejected() throws IOException {
        Path file = Files.writeString(dir.resolve("01-x.json"), "{\"format\":\"something-else\"}");

        assertThatThrownBy(() -> ResultFiles.read(file)).hasMessageContaining("expected 'cpbench-result/2' or 'cpbench-result/1'");
    }

    @Test
    void aCorruptHistogramIsRejected() throws IOException {
        Path file = ResultFiles.write(dir, result("client-leader", 1, 1000, Status.OK, 700));
        String json = Files.readString(file).replaceFirst("\"histogram\" : \"[^\"]+\"", "\"histogram\" : \"AAAAnotahistogram\"");
        Files.writeString(file, json);

        assertThatThrownBy(() -> ResultFiles.read(file)).hasMessageContaining("histogram");
    }

    @Test
    void anEmptyDirectoryOrMissingPathIsAnError() {
        assertThatThrownBy(() -> ResultFiles.readAll(List.of(dir))).hasMessageContaining("no result files");
        assertThatThrownBy(() -> ResultFiles.readAll(List.of(dir.resolve("nope")))).hasMessageContaining("no such file");
    }
}
