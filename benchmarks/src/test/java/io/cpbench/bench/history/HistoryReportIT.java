package io.cpbench.bench.history;

import io.cpbench.bench.report.Browser;
import io.cpbench.bench.report.NeedsChromium;
import io.cpbench.core.trend.EDivisive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The trend page in headless Chromium: a chart per series drawn with ink, its change point named, nothing fetched. */
@NeedsChromium
class HistoryReportIT {

    @TempDir
    Path dir;

    @Test
    void everySeriesIsDrawnWithItsChangePointAndLinksToItsRuns() throws Exception {
        Path html = dir.resolve("trend.html");
        int series;
        try (HistoryStore store = HistoryStore.open(dir.resolve("h.db").toString())) {
            for (int i = 0; i < 20; i++) {
                double level = i < 12 ? 2_000 : 1_600;
                store.add(HistoryStoreTest.run(String.format("%016x", 0xc000 + i), String.format("2026-11-%02dT07:00:00Z", 1 + i),
                        i < 12 ? "aaaaaaa" : "bbbbbbb", level + (i % 3) * 15, Map.of()));
            }
            History.Query query = new History.Query(null, null, null, null, null, Map.of(), Trends.Metric.OPS,
                    Trends.Order.TIME, null, EDivisive.Options.DEFAULT);
            series = HistoryReport.write(store, query, List.of(Trends.Metric.OPS, Trends.Metric.P99), html);
        }
        assertThat(series).isEqualTo(2);
        String text = Files.readString(html, StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("src=\"http").doesNotContain("href=\"http").doesNotContain("<link");

        Browser.Page page = Browser.open(html.toUri().toString(), dir.resolve("trend.png"), 1280, 1400);
        page.assertDrewCleanly(2);
        assertThat(page.points()).containsExactly(20, 20);
        assertThat(page.dom()).contains("change -19.9 %").contains("(worse, p = ").contains("commit bbbbbbb")
                .contains("no change point").contains("href=\"file:");
    }

    /**
     * {@code cpbench report --html} on a run that is in the history links to a trend page of its series, its rows in
     * bold; without the run in a store there is neither.
     */
    @Test
    void aRunReportLinksToItsSeriesTrendWhenTheRunIsInTheHistory() throws Exception {
        Path run = Path.of("../results/reference/local-2core-quick-20261125").toAbsolutePath().normalize();
        String store = dir.resolve("h.db").toString();
        try (HistoryStore history = HistoryStore.open(store)) {
            History.importRuns(history, List.of(run), Map.of(), new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        }
        Path report = dir.resolve("out/report.html");
        var out = new java.io.ByteArrayOutputStream();
        int code = run(out, "report", run.toString(), "--html", report.toString(),
                "--history", store);
        assertThat(code).as(out.toString()).isZero();
        Path trend = dir.resolve("out/report-trend.html");
        // 13 scenarios' op/s and p99: each run of the quick matrix is one point in 26 series
        assertThat(out.toString()).contains("wrote " + trend + ": the trends of these runs' 26 series in " + store);

        Browser.Page page = Browser.open(report.toUri().toString(), dir.resolve("report.png"), 1280, 900);
        assertThat(page.errors()).isEmpty();
        assertThat(page.dom()).contains("id=\"trend-link\"").contains("href=\"report-trend.html\"")
                .contains("the trends of these runs' 26 series");
        Browser.Page trendPage = Browser.open(trend.toUri().toString(), dir.resolve("trend.png"), 1280, 1400);
        trendPage.assertDrewCleanly(26);
        assertThat(trendPage.dom().split("<tr class=\"this\">", -1)).as("the run's row in each series").hasSize(27);

        Path bare = dir.resolve("bare/report.html");
        assertThat(run(new java.io.ByteArrayOutputStream(), "report", run.toString(),
                "--html", bare.toString(), "--history", dir.resolve("none.db").toString())).isZero();
        assertThat(Files.readString(bare)).doesNotContain("\"trend\"");
        assertThat(dir.resolve("bare/report-trend.html")).doesNotExist();
        assertThat(dir.resolve("none.db")).as("a report does not create a store").doesNotExist();
    }

    /** {@code cpbench ARGS} as the command line runs it, its standard output into {@code out}. */
    private static int run(java.io.ByteArrayOutputStream out, String... args) {
        java.io.PrintStream saved = System.out;
        System.setOut(new java.io.PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            return io.cpbench.bench.cli.CpBench.execute(args);
        } finally {
            System.setOut(saved);
        }
    }
}
