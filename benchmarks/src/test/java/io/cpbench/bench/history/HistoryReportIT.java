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
}
