package io.cpbench.bench.report;

import io.cpbench.bench.results.HtmlPage;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The HTML report in a real browser: the curated results in {@code results/reference} (written by older versions,
 * without interval logs) render with every chart drawn and no console message, offline; a page whose script is
 * broken fails the same check. (Fresh matrix, load, chaos and sweep runs are checked in their own ITs.)
 */
@NeedsChromium
class HtmlReportIT {

    @TempDir
    Path work;

    static Path reference() {
        Path here = Path.of("").toAbsolutePath();
        Path dir = here.resolve("results/reference");
        return Files.isDirectory(dir) ? dir : here.getParent().resolve("results/reference");
    }

    static int charts(ObjectNode data) {
        return ReportModel.chartCount(data);
    }

    @Test
    void theReferenceResultsRenderWithEveryChartDrawnAndNoConsoleMessage() throws Exception {
        List<Path> dirs = ReportModel.runDirectories(List.of(reference()));
        assertThat(dirs).hasSizeGreaterThanOrEqualTo(7);
        ObjectNode data = ReportModel.build("reference", dirs);
        Path html = work.resolve("reference.html");
        long bytes = HtmlPage.write(data, html);
        assertThat(bytes).isLessThan(2L * 1024 * 1024);
        String text = Files.readString(html, StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("src=\"http").doesNotContain("href=\"http").doesNotContain("<link");

        int expected = charts(data);
        assertThat(expected).isGreaterThan(20);
        Browser.Page page = Browser.open(html.toUri().toString(), work.resolve("reference.png"), 1280, 2400);
        page.assertDrewCleanly(expected);
        assertThat(page.dom()).contains("client-leader-aware").contains("Paired ratios").contains("hazelcastVersion");

        // each section with paired ratios opens with them drawn: as many rows as the model has, a dot for each
        List<Integer> modelRows = new java.util.ArrayList<>();
        data.withArray("runs").forEach(run -> {
            if (run.has("headline")) {
                modelRows.add(run.path("headline").path("rows").size());
            }
        });
        assertThat(modelRows).as("sections with a headline in the reference results").hasSizeGreaterThanOrEqualTo(3);
        assertThat(page.headlineRows()).isEqualTo(modelRows);
        int dots = page.dom().split("<circle", -1).length - 1;
        assertThat(dots).isEqualTo(modelRows.stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    void aPageWhoseScriptBreaksFailsTheCheck() throws Exception {
        ObjectNode data = ReportModel.build("broken", ReportModel.runDirectories(List.of(reference().resolve("local-2core-quick-a"))));
        String page = HtmlPage.html(data, false).replace("render(JSON.parse(", "renderr(JSON.parse(");
        Path html = work.resolve("broken.html");
        Files.writeString(html, page, StandardCharsets.UTF_8);
        Browser.Page broken = Browser.open(html.toUri().toString(), null, 1280, 1000);
        assertThat(broken.console()).anySatisfy(line -> assertThat(line).contains("renderr"));
        assertThatThrownBy(() -> broken.assertDrewCleanly(charts(data))).isInstanceOf(AssertionError.class);
    }

    @Test
    void aChartWithoutDataHasNoInkAndFailsTheCheck() throws Exception {
        ObjectNode data = ReportModel.build("empty", ReportModel.runDirectories(List.of(reference().resolve("local-2core-quick-a"))));
        for (JsonNode run : data.withArray("runs")) {
            for (JsonNode chart : run.path("charts")) {
                for (JsonNode series : chart.path("series")) {
                    ((ObjectNode) series).putArray("y"); // the points vanish, the axes stay
                    ((ObjectNode) series).putArray("x");
                }
            }
        }
        Path html = work.resolve("empty.html");
        HtmlPage.write(data, html);
        Browser.Page page = Browser.open(html.toUri().toString(), null, 1280, 1600);
        assertThatThrownBy(() -> page.assertDrewCleanly(charts(data))).isInstanceOf(AssertionError.class);
        // axes and grid alone stay under the ink the check asks of a chart
        assertThat(page.inked()).isNotEmpty().allSatisfy(i -> assertThat(i).isBetween(0, 300));
    }
}
