package io.cpbench.bench.report;

import io.cpbench.bench.results.HtmlPage;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Headless Chromium (Debian's {@code chromium}, installed by {@code .ci/run}) opening a page the way a person's
 * browser would, with the flags this machine's closed network needs. What it returns: the DOM after the page's
 * scripts ran, every console message, and per chart the points it was given and the ink on its canvas (the page
 * writes both into the DOM). Whether a test may use it is decided before the test starts: {@link NeedsChromium}.
 */
public final class Browser {

    private static final Pattern CONSOLE = Pattern.compile(":CONSOLE[^\\]]*\\] (.*)");
    private static final Pattern CHART = Pattern.compile("class=\"chart\" data-points=\"(\\d+)\" data-inked=\"(-?\\d+)\"");
    private static final Pattern CHARTS = Pattern.compile("data-charts=\"(\\d+)\"");
    private static final Pattern ERRORS = Pattern.compile("data-errors=\"([^\"]*)\"");
    private static final Pattern HEADLINE = Pattern.compile("class=\"headlinebox\" data-rows=\"(\\d+)\"");

    /** @param points per chart, the values it drew; @param inked per chart, sampled canvas pixels with ink */
    public record Page(String dom, List<String> console, int charts, List<Integer> points, List<Integer> inked, String errors) {

        /** No console message or page error, {@code expectedCharts} charts, each with data and ink. */
        /** Rows of each section's headline chart, in page order (the {@code data-rows} the page drew). */
        public List<Integer> headlineRows() {
            List<Integer> rows = new ArrayList<>();
            Matcher m = HEADLINE.matcher(dom);
            while (m.find()) {
                rows.add(Integer.parseInt(m.group(1)));
            }
            return rows;
        }

        public void assertDrewCleanly(int expectedCharts) {
            assertThat(console).as("console messages").isEmpty();
            assertThat(errors).as("errors the page caught").isEmpty();
            assertThat(charts).as("charts the page drew").isEqualTo(expectedCharts);
            assertThat(points).as("charts in the DOM").hasSize(expectedCharts);
            assertThat(points).as("points per chart").allSatisfy(p -> assertThat(p).isPositive());
            // a canvas with axes but no line has some ink too; lines add thousands of sampled pixels
            assertThat(inked).as("ink per chart (sampled pixels)").allSatisfy(i -> assertThat(i).isGreaterThan(300));
        }
    }

    private Browser() {
    }

    /** Where Chromium is looked for: $CPBENCH_CHROMIUM if set, else Debian's and Ubuntu's paths. */
    static final List<String> CANDIDATES = System.getenv("CPBENCH_CHROMIUM") != null
            ? List.of(System.getenv("CPBENCH_CHROMIUM")) : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser");

    /** Chromium's executable, if this machine has one. */
    static java.util.Optional<Path> find() {
        return CANDIDATES.stream().map(Path::of).filter(Files::isExecutable).findFirst();
    }

    /**
     * Chromium's executable. Tests that use the browser carry {@link NeedsChromium}, which decides before they start
     * whether they run; reaching this without Chromium is a test that lacks it.
     */
    public static Path executable() {
        return find().orElseThrow(() -> new AssertionError("headless Chromium not found at " + CANDIDATES
                + "; a test that opens the browser must carry @NeedsChromium"));
    }

    /** Opens {@code url} (a file: or http://127.0.0.1 URL), optionally saving a screenshot of {@code width}x{@code height}. */
    public static Page open(String url, Path screenshot, int width, int height) throws IOException, InterruptedException {
        Path chromium = executable();
        Path profile = Files.createTempDirectory("cpbench-chromium");
        try {
            List<String> base = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                    "--virtual-time-budget=5000", "--window-size=" + width + "," + height));
            List<String> dump = new ArrayList<>(base);
            dump.add("--dump-dom");
            dump.add(url);
            Run run = run(dump);
            if (screenshot != null) {
                List<String> shot = new ArrayList<>(base);
                shot.add("--screenshot=" + screenshot.toAbsolutePath());
                shot.add(url);
                run(shot);
                assertThat(screenshot).as("screenshot").isNotEmptyFile();
            }
            List<String> console = new ArrayList<>();
            for (String line : run.stderr().split("\n")) {
                Matcher m = CONSOLE.matcher(line);
                if (m.find()) {
                    console.add(m.group(1));
                }
            }
            List<Integer> points = new ArrayList<>();
            List<Integer> inked = new ArrayList<>();
            Matcher c = CHART.matcher(run.stdout());
            while (c.find()) {
                points.add(Integer.parseInt(c.group(1)));
                inked.add(Integer.parseInt(c.group(2)));
            }
            Matcher n = CHARTS.matcher(run.stdout());
            Matcher e = ERRORS.matcher(run.stdout());
            return new Page(run.stdout(), console, n.find() ? Integer.parseInt(n.group(1)) : 0, points, inked,
                    e.find() ? e.group(1) : "");
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** What a run directory's report holds, and how Chromium drew it. */
    public record Rendered(ObjectNode data, Page page) {
        /** Every chart of type {@code type}, across the report's sections. */
        public List<JsonNode> charts(String type) {
            List<JsonNode> list = new ArrayList<>();
            for (JsonNode run : data.withArray("runs")) {
                for (JsonNode chart : run.path("charts")) {
                    if (chart.path("type").asText().equals(type)) {
                        list.add(chart);
                    }
                }
            }
            return list;
        }
    }

    /**
     * Writes {@code runDir}'s HTML report next to the build's other output ({@code target/reports/NAME.html}, with a
     * screenshot beside it to look at), opens it, and checks that every chart drew and nothing was logged.
     */
    public static Rendered renderAndCheck(Path runDir, String name) throws IOException, InterruptedException {
        executable();
        ObjectNode data = ReportModel.build(name, ReportModel.runDirectories(List.of(runDir)));
        Path out = Path.of("target", "reports").toAbsolutePath();
        Files.createDirectories(out);
        Path html = out.resolve(name + ".html");
        HtmlPage.write(data, html);
        Page page = open(html.toUri().toString(), out.resolve(name + ".png"), 1280, 2000);
        page.assertDrewCleanly(ReportModel.chartCount(data));
        return new Rendered(data, page);
    }

    private record Run(String stdout, String stderr) {
    }

    private static Run run(List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("chromium", ".out");
        Path err = Files.createTempFile("chromium", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError("chromium did not finish in 90 s: " + command);
            }
            return new Run(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
