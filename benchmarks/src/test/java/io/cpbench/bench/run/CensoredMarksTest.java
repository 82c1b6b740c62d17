package io.cpbench.bench.run;

import io.cpbench.bench.results.LoadTables;
import io.cpbench.bench.results.RunLines;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadResultBuilder;
import io.cpbench.core.load.LoadResultLoadLatencyBuilder;
import io.cpbench.core.status.Status;
import io.cpbench.core.result.Environment;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.stats.Censored;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A percentile that ops abandoned in flight may have moved is only a lower bound: the one-line form of a result and
 * the load table print it "≥", as the scenario table does, and print the exact ones plain.
 */
class CensoredMarksTest {

    /** A result of 200 ops: 199 at 100 µs, one abandoned after 2 s in flight, recorded at 2 s (censored or not). */
    static RunResult result(boolean censored) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(100, 199);
        h.recordValue(2_000_000);
        RunResult.Latency l = RunResult.Latency.of(h);
        RunResult.Latency latency = new RunResult.Latency(l.min(), l.mean(), l.p50(), l.p90(), l.p99(), l.p999(), l.max(),
                censored ? new Censored(1, 2_000_000) : null);
        RunResult.LeaderInfo leader = new RunResult.LeaderInfo("member-0", "127.0.0.1:5701", 2);
        return RunResult.builder().run(new RunResult.RunInfo("client-leader", "a", "test", 1, null, null))
                .status(Status.TIMEBOXED, null)
                .cluster(new RunResult.ClusterInfo("local", "c", "member-0",
                        List.of(new RunResult.MemberInfo("member-0", "127.0.0.1:5701", true)),
                        new RunResult.NetworkPath("direct", null, 0, Map.of())))
                .plan(new RunResult.PlanInfo(0, 200, 0, 60, 1)).environment(Environment.current())
                .measured(new RunResult.Measured("2026-01-01T00:00:00Z", 1, 0, 200, 0, 200, null))
                .latency(latency, RunResult.encode(h)).leader(new RunResult.Leaders(leader, leader)).hlog("x.hlog")
                .load(load(censored)).build();
    }

    /** A load result whose p99.9 and max came from an op abandoned in flight (censored), p50 and p99 exact. */
    static LoadResult load(boolean censored) {
        LoadResult.LoadLatency l = LoadResultLoadLatencyBuilder.builder().count(200).min(100).mean(10_099).p50(100)
                .p90(100).p95(100).p99(100).p999(2_000_000).max(2_000_000)
                .censored(censored ? new Censored(1, 2_000_000) : null).build();
        LoadResult.OpStats all = new LoadResult.OpStats("cas", 199, 0, 199, 0, l, l, Map.of());
        LoadResult.StageStats total = new LoadResult.StageStats(0, 1, 1, 1, List.of(all), all, null);
        return LoadResultBuilder.builder().outcome(Status.OK).seconds(1).stages(List.of(total)).total(total).build();
    }

    @Test
    void theOneLineFormMarksALowerBoundAndOnlyThat() {
        // p50 and p99 are 100 µs: below the censored op's 2 s, exact. Then with a p99 that is the censored op's.
        assertThat(RunLines.oneLine(result(true))).contains("p50 100 µs").contains("p99 100 µs").doesNotContain("≥");
        RunResult high = result(true);
        RunResult.Latency l = high.latencyMicros();
        RunResult moved = high.toBuilder().latency(new RunResult.Latency(l.min(), l.mean(), l.p50(), l.p90(), 2_000_000,
                l.p999(), l.max(), l.censored()), high.histogram()).build();
        assertThat(RunLines.oneLine(moved)).contains("p50 100 µs").contains("p99 ≥2,000,000 µs");
        RunResult exact = result(false);
        assertThat(RunLines.oneLine(exact.toBuilder().latency(new RunResult.Latency(l.min(), l.mean(), l.p50(), l.p90(),
                2_000_000, l.p999(), l.max(), null), exact.histogram()).build())).doesNotContain("≥");
    }

    @Test
    void theLoadTableMarksALowerBoundAndOnlyThat() {
        String table = LoadTables.perOp(List.of(result(true)));
        String row = table.lines().filter(line -> line.contains("client-leader")).findFirst().orElseThrow();
        assertThat(row).contains("| 0.10ms").contains("≥2000.00ms");
        assertThat(row.split("≥", -1)).as("p99.9 alone is marked").hasSize(2);
        assertThat(LoadTables.perOp(List.of(result(false)))).doesNotContain("≥");
    }

    /** The HTML report renders the same tables, marks and all. */
    @Test
    void theHtmlReportShowsTheMarks(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path censored = dir.resolve("censored");
        io.cpbench.core.result.ResultFiles.write(censored, result(true));
        String html = io.cpbench.bench.results.HtmlPage.html(io.cpbench.bench.report.ReportModel.build("t",
                List.of(censored)), false);
        assertThat(html).contains("≥2000.00ms").contains("≥: a lower bound");
        java.nio.file.Path plain = dir.resolve("plain");
        io.cpbench.core.result.ResultFiles.write(plain, result(false));
        assertThat(io.cpbench.bench.results.HtmlPage.html(io.cpbench.bench.report.ReportModel.build("t", List.of(plain)),
                false)).doesNotContain("≥2000");
    }
}
