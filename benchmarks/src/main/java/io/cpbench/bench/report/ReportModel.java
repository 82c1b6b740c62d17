package io.cpbench.bench.report;

import io.cpbench.core.result.ComparisonTable;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cpbench.bench.results.ResultKind;
import io.cpbench.bench.results.ResultKinds;
import io.cpbench.bench.results.Section;
import io.cpbench.bench.results.Series;
import io.cpbench.core.result.Comparison;
import io.cpbench.core.result.ResultFormatException;
import io.cpbench.core.result.RunResult;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * What an HTML report shows, as one JSON tree the page's script draws: per run directory its tables (rendered from
 * the same Markdown the CLI prints), latency percentile distributions, op/s and p99 over time with load stages and
 * fault windows, sweep curves with the knee and the USL fit, availability and checker verdicts, and the environment.
 * Everything comes from the files a run wrote, so old directories render as long as they hold results; what a
 * directory lacks (interval logs in curated results, say) is left out of its section and said so.
 */
public final class ReportModel {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReportModel() {
    }

    /** A directory that holds a run of any kind ({@link ResultKinds}). */
    public static boolean isRunDirectory(Path dir) {
        return ResultKinds.holdsRun(dir);
    }

    /**
     * The run directories among {@code paths}: each path that is one, else the run directories directly inside it.
     *
     * @throws ResultFormatException when a path does not exist or holds no run
     */
    public static List<Path> runDirectories(List<Path> paths) {
        List<Path> dirs = new ArrayList<>();
        for (Path path : paths) {
            if (Files.isRegularFile(path)) {
                throw new ResultFormatException(path + ": give run directories, not files, to an HTML report or a comparison");
            }
            if (!Files.isDirectory(path)) {
                throw new ResultFormatException(path + ": no such directory");
            }
            if (isRunDirectory(path)) {
                dirs.add(path);
                continue;
            }
            List<Path> inside = list(path).stream().filter(Files::isDirectory).filter(ReportModel::isRunDirectory).toList();
            if (inside.isEmpty()) {
                throw new ResultFormatException(path + ": no run here (no result files, chaos.json, sweep.json or an ab"
                        + " run's slices.csv, or a matrix run's summary.csv and table.md), nor in the directories inside it");
            }
            dirs.addAll(inside);
        }
        return dirs;
    }

    /** What a run directory is called in reports: its own name (20261122-181314-matrix). */
    public static String name(Path dir) {
        return String.valueOf(dir.toAbsolutePath().normalize().getFileName());
    }

    /** How many charts a report ({@link #build}) holds, over all its sections. */
    public static int chartCount(JsonNode report) {
        int n = 0;
        for (JsonNode run : report.path("runs")) {
            n += run.path("charts").size();
        }
        return n;
    }

    /** The whole report: a title, when it was made, and one section per run directory. */
    public static ObjectNode build(String title, List<Path> runDirs) {
        ObjectNode root = JSON.createObjectNode();
        root.put("title", title);
        root.put("generatedAt", Instant.now().toString());
        ArrayNode runs = root.putArray("runs");
        for (Path dir : runDirs) {
            runs.add(run(dir));
        }
        return root;
    }

    /**
     * One run directory's section: the run's one verdict first ({@link ResultKind#status}), then what its kind shows.
     *
     * @throws ResultFormatException (one line) when its files cannot be read
     */
    public static ObjectNode run(Path dir) {
        ResultKind run = ResultKinds.read(dir);
        Section section = new Section(name(dir), dir.toString());
        section.runVerdict(run.status(), run.why());
        run.report(section);
        return section.node();
    }

    /**
     * A comparison's page: the comparison table, then per scenario the latency percentile distributions of both
     * runs (rounds merged) overlaid, then both runs' environments.
     */
    public static ObjectNode comparison(String title, Comparison.Result result, String markdown, List<RunResult> base,
                                        List<RunResult> next, String baseName, String newName) {
        ObjectNode root = JSON.createObjectNode();
        root.put("title", title);
        root.put("generatedAt", Instant.now().toString());
        Section section = new Section(baseName + " → " + newName, "compare");
        section.kind("compare");
        section.verdict(ComparisonTable.summary(result, baseName, newName), result.regression() ? "regression" : "no regression",
                !result.regression(), "");
        section.table("New ÷ base", markdown);
        Map<String, Histogram[]> merged = new LinkedHashMap<>();
        for (int side = 0; side < 2; side++) {
            for (RunResult r : side == 0 ? base : next) {
                Histogram h = r.decodeHistogram();
                if (h.getTotalCount() > 0) {
                    merged.computeIfAbsent(r.label(), k -> new Histogram[]{new Histogram(3), new Histogram(3)})[side].add(h);
                }
            }
        }
        merged.forEach((label, h) -> {
            ObjectNode chart = section.chart("percentiles", label + ": latency by percentile, base and new");
            Section.line(chart, Series.percentiles("base " + baseName, h[0]), "lat");
            Section.line(chart, Series.percentiles("new " + newName, h[1]), "lat");
        });
        Stream.concat(base.stream(), next.stream()).map(RunResult::environment).filter(Objects::nonNull)
                .forEach(section::environment);
        root.putArray("runs").add(section.node());
        return root;
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new ResultFormatException(dir + ": cannot list (" + e.getMessage() + ")", e);
        }
    }
}
