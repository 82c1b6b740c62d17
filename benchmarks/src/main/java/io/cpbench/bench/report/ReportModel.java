package io.cpbench.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.core.check.Availability;
import io.cpbench.core.check.ChaosDocument;
import io.cpbench.core.check.Checker;
import io.cpbench.core.history.Event;
import io.cpbench.core.history.HistoryFiles;
import io.cpbench.core.load.LoadSummary;
import io.cpbench.core.result.AbDocument;
import io.cpbench.core.result.MarkdownTable;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.ResultFormatException;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.ScenarioTable;
import io.cpbench.core.status.Status;
import io.cpbench.core.stats.Usl;
import io.cpbench.core.sweep.SweepAnalysis;
import io.cpbench.core.sweep.SweepDocument;
import org.HdrHistogram.Histogram;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
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
    /** Reads the documents runs write into the types that wrote them; fields a later version added are skipped. */
    private static final ObjectMapper DOCUMENTS = new ObjectMapper()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final Parser MARKDOWN = Parser.builder().extensions(List.of(TablesExtension.create())).build();
    /**
     * Markdown's text can hold what a run was told or met (an error message, a fault's target, a scenario's name), so
     * the page gets it as text: raw HTML escaped, a link kept only to a relative, http(s) or mailto address (no
     * {@code javascript:} or {@code data:}), and an image drawn as its alt text, never fetched (a report makes no
     * request to the network).
     */
    private static final HtmlRenderer HTML = HtmlRenderer.builder().escapeHtml(true).sanitizeUrls(true)
            .urlSanitizer(new org.commonmark.renderer.html.UrlSanitizer() {
                @Override
                public String sanitizeLinkUrl(String url) {
                    return safeUrl(url);
                }

                @Override
                public String sanitizeImageUrl(String url) {
                    return "#"; // never drawn: ImageAsText
                }
            }).nodeRendererFactory(ImageAsText::new)
            .extensions(List.of(TablesExtension.create())).build();

    private ReportModel() {
    }

    /** A directory that holds a run: result files, a chaos run's, a sweep's or an A/B run's output. */
    public static boolean isRunDirectory(Path dir) {
        return Files.isRegularFile(dir.resolve("chaos.json")) || Files.isRegularFile(dir.resolve("sweep.json"))
                || isAbDirectory(dir) || ResultFiles.hasOwnResults(dir);
    }

    /** An {@code ab} run's directory: its table and its turns. */
    public static boolean isAbDirectory(Path dir) {
        return Files.isRegularFile(dir.resolve("slices.csv")) && Files.isRegularFile(dir.resolve("table.md"));
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
                        + " run's slices.csv), nor in"
                        + " the directories inside it");
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

    /** One run directory's section. */
    public static ObjectNode run(Path dir) {
        ObjectNode run = JSON.createObjectNode();
        run.put("name", name(dir));
        run.put("path", dir.toString());
        ArrayNode tables = run.putArray("tables");
        ArrayNode charts = run.putArray("charts");
        ArrayNode notes = run.putArray("notes");
        ArrayNode verdicts = run.putArray("verdicts");
        ArrayNode environments = run.putArray("environments");

        List<RunResult> results = ResultFiles.hasOwnResults(dir) ? Scenarios.marked(ResultFiles.readAll(List.of(dir))) : List.of();
        ChaosDocument chaos = read(dir.resolve("chaos.json"), ChaosDocument.class, "a chaos run's chaos.json");
        SweepDocument sweep = read(dir.resolve("sweep.json"), SweepDocument.class, "a sweep's sweep.json");
        if (results.isEmpty() && chaos == null && sweep == null && isAbDirectory(dir)) {
            run.put("kind", "ab");
            abSection(dir, run, tables, charts, verdicts, notes);
            return run;
        }
        String kind = chaos != null ? "fault" : sweep != null ? "sweep"
                : results.stream().anyMatch(r -> r.load() != null) ? "load"
                : results.stream().anyMatch(r -> r.harness() != null) ? "jmh" : "matrix";
        run.put("kind", kind);
        results.stream().map(RunResult::environment).filter(Objects::nonNull).distinct()
                .forEach(e -> environments.add(JSON.valueToTree(e)));
        results.stream().map(r -> r.cluster().topology()).filter(Objects::nonNull).findFirst()
                .ifPresent(t -> run.put("topology", t));
        releases(results).ifPresent(r -> run.put("releases", r));
        if (!results.isEmpty() && chaos == null) {
            // the run's one verdict: the worst of its results' statuses, as its exit code was
            runVerdict(run, verdicts, Status.worst(results.stream().map(RunResult::status).toList()),
                    RunLines.notOk(kind, results));
        }
        if (!results.isEmpty()) {
            run.put("incomplete", results.stream().anyMatch(r -> r.status() != Status.OK));
            scenarioSections(dir, results, tables, charts, notes, verdicts);
            headline(run, results);
        }
        if (chaos != null) {
            ChaosDocument.Verdict verdict = chaos.verdict();
            runVerdict(run, verdicts, verdict.status(), verdict.reason());
            run.put("incomplete", verdict.status() != Status.OK);
            faultSection(dir, chaos, tables, charts, verdicts, notes);
        }
        if (sweep != null) {
            sweepSection(dir, sweep, tables, charts, notes);
            if (sweep.environment() != null) {
                environments.add(JSON.valueToTree(sweep.environment()));
            }
            if (sweep.topology() != null) {
                run.put("topology", sweep.topology());
            }
        }
        return run;
    }

    /**
     * A comparison's page: the comparison table, then per scenario the latency percentile distributions of both
     * runs (rounds merged) overlaid, then both runs' environments.
     */
    public static ObjectNode comparison(String title, String verdict, String markdown, List<RunResult> base,
                                        List<RunResult> next, String baseName, String newName) {
        ObjectNode root = JSON.createObjectNode();
        root.put("title", title);
        root.put("generatedAt", Instant.now().toString());
        ObjectNode run = root.putArray("runs").addObject();
        run.put("name", baseName + " → " + newName);
        run.put("path", "compare");
        run.put("kind", "compare");
        run.putArray("notes");
        ArrayNode verdicts = run.putArray("verdicts");
        verdicts.add(verdict(verdict, verdict.contains("REGRESSION") ? "regression" : "no regression",
                !verdict.contains("REGRESSION"), ""));
        table(run.putArray("tables"), "New ÷ base", markdown);
        ArrayNode charts = run.putArray("charts");
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
            ObjectNode chart = chart(charts, "percentiles", label + ": latency by percentile, base and new");
            line(chart, Series.percentiles("base " + baseName, h[0]), "lat");
            line(chart, Series.percentiles("new " + newName, h[1]), "lat");
        });
        ArrayNode environments = run.putArray("environments");
        Stream.concat(base.stream(), next.stream()).map(RunResult::environment).filter(Objects::nonNull).distinct()
                .forEach(e -> environments.add(JSON.valueToTree(e)));
        return root;
    }

    /**
     * The section's first picture: each scenario's op/s over its network's baseline, paired by round, as the median
     * with its 95 % bootstrap interval (the "Paired ratios" table's figures). Absent when no scenario has a baseline
     * to pair with; with one round the interval is the single ratio, and the chart says "1 pair".
     */
    static void headline(ObjectNode run, List<RunResult> results) {
        List<ScenarioTable.Ratio> ratios = ScenarioTable.pairedRatiosWithinNetwork(results);
        if (ratios.isEmpty()) {
            return;
        }
        ObjectNode headline = run.putObject("headline");
        headline.put("title", "Op/s against the baseline, paired by round: median and 95 % interval");
        ArrayNode rows = headline.putArray("rows");
        for (ScenarioTable.Ratio r : ratios) {
            ObjectNode row = rows.addObject();
            row.put("scenario", r.scenario());
            row.put("baseline", r.baseline());
            row.put("median", r.interval().median());
            row.put("low", r.interval().low());
            row.put("high", r.interval().high());
            row.put("pairs", r.interval().n());
        }
    }

    private static void scenarioSections(Path dir, List<RunResult> results, ArrayNode tables, ArrayNode charts,
                                         ArrayNode notes, ArrayNode verdicts) {
        table(tables, "Scenarios", ScenarioTable.markdown(results));
        String ratios = ScenarioTable.ratiosWithinNetwork(results);
        if (!ratios.isEmpty()) {
            table(tables, "Paired ratios", ratios);
        }
        String perOp = LoadTables.perOp(results);
        if (!perOp.isEmpty()) {
            table(tables, "Per op", perOp);
        }
        for (RunResult r : results) {
            if (r.load() != null && (!r.load().thresholds().isEmpty() || !r.load().invariants().isEmpty())) {
                verdicts.add(verdict("round " + r.round() + ", " + r.label(), r.load().outcome().name(),
                        r.load().thresholdsPassed() && r.load().invariantsHold(), LoadSummary.verdicts(r.load())));
            }
        }

        // Percentile distributions: per network every scenario (rounds merged), then per scenario its rounds.
        Map<String, Map<String, List<RunResult>>> byNetwork = new TreeMap<>();
        for (RunResult r : results) {
            if (r.decodeHistogram().getTotalCount() > 0) {
                byNetwork.computeIfAbsent(Objects.toString(r.run().network(), "a"), k -> new LinkedHashMap<>())
                        .computeIfAbsent(r.label(), k -> new ArrayList<>()).add(r);
            }
        }
        byNetwork.forEach((network, scenarios) -> {
            ObjectNode chart = chart(charts, "percentiles", "Latency by percentile, network (" + network + "), rounds merged");
            scenarios.forEach((label, runs) -> {
                Histogram merged = new Histogram(3);
                runs.forEach(r -> merged.add(r.decodeHistogram()));
                line(chart, Series.percentiles(label, merged), "lat");
            });
        });
        Map<String, List<RunResult>> byScenario = new LinkedHashMap<>();
        results.forEach(r -> byScenario.computeIfAbsent(r.label(), k -> new ArrayList<>()).add(r));
        int withoutLog = 0;
        for (var e : byScenario.entrySet()) {
            List<RunResult> runs = e.getValue();
            if (runs.size() > 1 && runs.get(0).decodeHistogram().getTotalCount() > 0) {
                ObjectNode chart = chart(charts, "percentiles", e.getKey() + ": latency by percentile, per round");
                runs.forEach(r -> line(chart, Series.percentiles("round " + r.round(), r.decodeHistogram()), "lat"));
            }
            ObjectNode time = chart(JSON.createArrayNode(), "time", e.getKey() + ": op/s and p99 over time");
            for (RunResult r : runs) {
                if (r.load() != null && loadCsv(dir, r) != null) {
                    loadTimeline(time, loadCsv(dir, r), runs.size() > 1 ? "r" + r.round() + " " : "", runs.get(0) == r);
                    continue;
                }
                Series.Intervals iv = r.hlog() == null ? null : Series.intervals(dir.resolve(r.hlog()));
                if (iv == null || iv.isEmpty()) {
                    withoutLog++;
                    continue;
                }
                String prefix = runs.size() > 1 ? "r" + r.round() + " " : "";
                line(time, new Series.Line(prefix + "op/s", iv.t(), iv.opsPerSecond()), "ops");
                line(time, new Series.Line(prefix + "p99 µs", iv.t(), iv.p99()), "lat").put("of", prefix + "op/s");
            }
            if (hasPoints(time)) {
                charts.add(time);
            }
        }
        if (withoutLog > 0) {
            notes.add(withoutLog + " result" + (withoutLog == 1 ? " has" : "s have") + " no interval log here (.hlog),"
                    + " so no over-time chart for " + (withoutLog == 1 ? "it" : "them") + " (curated results keep only the JSON).");
        }
    }

    /** A load result's per-interval CSV: in the directory its hlog names, else the run directory's own. */
    private static Path loadCsv(Path dir, RunResult r) {
        if (r.hlog() != null) {
            Path parent = dir.resolve(r.hlog()).getParent();
            if (parent != null && Files.isRegularFile(parent.resolve("load.csv"))) {
                return parent.resolve("load.csv");
            }
        }
        return Files.isRegularFile(dir.resolve("load.csv")) ? dir.resolve("load.csv") : null;
    }

    /** op/s and p99 of all ops per interval from a {@code load.csv}, with its stages as bands. */
    private static void loadTimeline(ObjectNode chart, Path csv, String prefix, boolean bands) {
        Map<String, List<double[]>> byOp = new LinkedHashMap<>();
        try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            String[] header = in.readLine().split(",", -1);
            Map<String, Integer> col = new HashMap<>();
            for (int i = 0; i < header.length; i++) {
                col.put(header[i], i);
            }
            for (String line; (line = in.readLine()) != null; ) {
                String[] f = line.split(",", -1);
                if (f.length < header.length) {
                    continue;
                }
                byOp.computeIfAbsent(f[col.get("op")], k -> new ArrayList<>()).add(new double[]{num(f[col.get("elapsed_s")]),
                        num(f[col.get("stage")]), num(f[col.get("level")]), num(f[col.get("ops_per_s")]), num(f[col.get("p99_us")])});
            }
        } catch (IOException | RuntimeException e) {
            return; // an unreadable CSV leaves the chart without this line
        }
        // all ops together; a mix of one op has only that op's rows
        List<double[]> rows = byOp.containsKey("all") ? byOp.get("all") : byOp.size() == 1 ? byOp.values().iterator().next() : List.of();
        if (rows.isEmpty()) {
            return;
        }
        double[] t = rows.stream().mapToDouble(r -> r[0]).toArray();
        line(chart, new Series.Line(prefix + "op/s", t, rows.stream().map(r -> r[3]).toArray(Double[]::new)), "ops");
        line(chart, new Series.Line(prefix + "p99 µs", t, rows.stream().map(r -> Double.isNaN(r[4]) ? null : r[4])
                .toArray(Double[]::new)), "lat").put("of", prefix + "op/s"); // a round's two lines in one colour
        if (bands) {
            ArrayNode b = chart.withArray("bands");
            double start = 0;
            for (int i = 0; i < rows.size(); i++) {
                boolean last = i == rows.size() - 1;
                if (last || rows.get(i + 1)[1] != rows.get(i)[1]) {
                    ObjectNode band = b.addObject();
                    band.put("from", start);
                    band.put("to", rows.get(i)[0]);
                    band.put("kind", "stage");
                    band.put("label", String.format(Locale.ROOT, "stage %d → %s", (int) rows.get(i)[1], trim(rows.get(i)[2])));
                    start = rows.get(i)[0];
                }
            }
        }
    }

    private static void faultSection(Path dir, ChaosDocument chaos, ArrayNode tables, ArrayNode charts, ArrayNode verdicts,
                                     ArrayNode notes) {
        // each checker's verdict, as the run composed them (or, in an older chaos.json, worked out from its parts)
        for (Checker.Verdict check : chaos.checkVerdicts()) {
            verdicts.add(verdict(check.name(), check.status().name(), check.status() == Status.OK,
                    check.evidence() == null ? "" : check.evidence()));
        }
        ArrayNode bands = faultTable(chaos, tables);
        Path history = dir.resolve("history.jsonl");
        if (!Files.isRegularFile(history)) {
            notes.add("no history.jsonl here, so no availability timeline");
            return;
        }
        List<Event> events;
        try {
            events = HistoryFiles.read(history).events();
        } catch (RuntimeException e) {
            notes.add("history.jsonl could not be read (" + e.getMessage() + "), so no availability timeline");
            return;
        }
        availabilityChart(events, charts, bands);
    }

    /** The faults as a table, one row each; returns their windows as the timeline's shaded bands. */
    private static ArrayNode faultTable(ChaosDocument chaos, ArrayNode tables) {
        MarkdownTable md = MarkdownTable.of("#", "injected at", "fault", "target", "healed after", "first ok after",
                "longest gap", "ok ops", "errors").right(0, 1, 4, 5, 6, 7);
        int i = 1;
        ArrayNode bands = JSON.createArrayNode();
        for (Availability.Result f : chaos.faults() == null ? List.<Availability.Result>of() : chaos.faults()) {
            double at = f.injectedAtS();
            double healed = f.healedAfterMs() / 1000; // NaN: never healed
            md.row(Integer.toString(i++), String.format(Locale.ROOT, "%.1f s", at), f.fault(), f.target(),
                    Double.isNaN(healed) ? "never" : String.format(Locale.ROOT, "%.1f s", healed),
                    f.firstOkMs() != null ? String.format(Locale.ROOT, "%,.0f ms", f.firstOkMs()) : "none",
                    String.format(Locale.ROOT, "%,.0f ms%s", f.longestGapMs(), f.gapOpen() ? "+" : ""),
                    Long.toString(f.okOps()), errors(f.errors()));
            ObjectNode band = bands.addObject();
            band.put("from", at);
            band.put("to", Double.isNaN(healed) ? at + 1e9 : at + healed);
            band.put("kind", "fault");
            band.put("label", "#" + (i - 1) + " " + f.fault() + " " + f.target());
        }
        if (bands.size() > 3) { // labels this long would run into each other: the number alone names the table's row
            for (JsonNode band : bands) {
                ((ObjectNode) band).put("label", band.path("label").asText().split(" ")[0]);
            }
        }
        table(tables, "Faults: " + chaos.nemesis() + " (" + chaos.faultFor() + " on, " + chaos.interval() + " off)"
                + (chaos.scenario() == null ? "" : "; clients: " + chaos.scenario()), md.render());
        return bands;
    }

    /**
     * Per second of the history's clock (the one faults are timed on): successful ops, failed and unknown ones, and
     * the p99 of the successful ops' latency, with the fault windows shaded.
     */
    private static void availabilityChart(List<Event> events, ArrayNode charts, ArrayNode bands) {
        TreeMap<Integer, long[]> perSecond = new TreeMap<>();
        TreeMap<Integer, Histogram> latency = new TreeMap<>();
        for (Availability.Completion completion : Availability.completions(events)) {
            Event e = completion.end();
            int second = (int) (e.time() / 1_000_000_000L);
            long[] c = perSecond.computeIfAbsent(second, k -> new long[3]);
            c[completion.ok() ? 0 : e.type() == Event.Type.FAIL ? 1 : 2]++;
            if (completion.ok() && completion.invoke() != null) {
                latency.computeIfAbsent(second, k -> new Histogram(3))
                        .recordValue(Math.max(0, (e.time() - completion.invoke().time()) / 1000));
            }
        }
        if (perSecond.isEmpty()) {
            return;
        }
        int first = perSecond.firstKey();
        int n = perSecond.lastKey() - first + 1;
        double[] t = new double[n];
        Double[] ok = new Double[n];
        Double[] failed = new Double[n];
        Double[] unknown = new Double[n];
        Double[] p99 = new Double[n];
        for (int s = 0; s < n; s++) {
            long[] c = perSecond.getOrDefault(first + s, new long[3]);
            t[s] = first + s + 1;
            ok[s] = (double) c[0];
            failed[s] = (double) c[1];
            unknown[s] = (double) c[2];
            Histogram h = latency.get(first + s);
            p99[s] = h == null ? null : (double) h.getValueAtPercentile(99);
        }
        ObjectNode chart = chart(charts, "time", "Availability: ops completed per second, fault windows shaded");
        line(chart, new Series.Line("ok/s", t, ok), "ops");
        line(chart, new Series.Line("failed/s", t, failed), "ops");
        line(chart, new Series.Line("unknown (info)/s", t, unknown), "ops");
        line(chart, new Series.Line("p99 µs of ok ops", t, p99), "lat");
        chart.set("bands", bands);
    }

    /**
     * "members Hazelcast 5.3.8, clients Hazelcast 5.4.0": the release the members told the clients they run, and the
     * clients' own (from each result's environment); empty for results written before members' releases were recorded.
     */
    static Optional<String> releases(List<RunResult> results) {
        String members = io.cpbench.bench.report.RunDirectory.memberVersions(results);
        String clients = results.stream().map(RunResult::environment).filter(Objects::nonNull)
                .map(e -> e.hazelcastVersion()).filter(Objects::nonNull).distinct().sorted()
                .collect(java.util.stream.Collectors.joining(", "));
        return members.isEmpty() ? Optional.empty()
                : Optional.of("members Hazelcast " + members + (clients.isEmpty() ? "" : ", clients Hazelcast " + clients));
    }

    /**
     * An {@code ab} run: its table (jars, JVM arguments, cluster, environment, the ratios and the verdict), each
     * side's op/s turn by turn with the process pairs marked, and each pair's new ÷ base op/s with the running
     * median, from {@code slices.csv}.
     */
    private static void abSection(Path dir, ObjectNode run, ArrayNode tables, ArrayNode charts, ArrayNode verdicts,
                                  ArrayNode notes) {
        String md = Series.read(dir.resolve("table.md"));
        if (AbDocument.in(dir)) {
            AbDocument ab = AbDocument.read(dir);
            Status status = ab.verdict();
            runVerdict(run, verdicts, status, ab.reason());
            if (ab.result() != null) {
                verdicts.add(verdict("new ÷ base", ab.regression() ? "regression" : "no regression", !ab.regression(),
                        ab.verdictLine().replaceFirst("^verdict: ", "")));
            }
            run.put("incomplete", status != Status.OK);
        } else { // a run written before ab.json: the verdict is read from the table's line
            java.util.regex.Matcher verdict = java.util.regex.Pattern.compile("(?m)^verdict: (.*)$").matcher(md);
            if (verdict.find()) {
                String v = verdict.group(1);
                boolean regression = v.startsWith("REGRESSION");
                verdicts.add(verdict("new ÷ base", regression ? "regression" : "no regression", !regression, v));
            }
            run.put("incomplete", md.contains("INCOMPLETE"));
        }
        // the verdict line is shown as the section's check above
        table(tables, "A/B", md.replaceFirst("^# cp-bench ab: ", "Scenario: ").replaceFirst("(?m)^verdict: .*\\R", ""));
        Series.AbTurns turns = Series.abTurns(dir.resolve("slices.csv"));
        if (turns.pairs().length == 0) {
            notes.add("slices.csv holds no whole pair of turns");
            return;
        }
        ObjectNode time = chart(charts, "time", "op/s per turn, base and new (process pairs shaded)");
        time.put("xLabel", "seconds of turns");
        line(time, new Series.Line("base op/s", turns.baseT(), turns.baseOps()), "ops");
        line(time, new Series.Line("new op/s", turns.newT(), turns.newOps()), "ops");
        ArrayNode bands = time.putArray("bands");
        int[] group = turns.processPair();
        double from = 0;
        for (int i = 0; i < group.length; i++) {
            if (i == group.length - 1 || group[i + 1] != group[i]) {
                double to = Math.max(turns.baseT()[i], turns.newT()[i]);
                if (group[i] % 2 == 0) { // every other process pair, so that neighbours stand apart
                    ObjectNode band = bands.addObject();
                    band.put("from", from);
                    band.put("to", to);
                    band.put("kind", "stage");
                    band.put("label", "process pair " + group[i]);
                }
                from = to;
            }
        }
        ObjectNode pairs = chart(charts, "pairs", "new ÷ base op/s per pair, and its running median");
        pairs.put("xLabel", "pair");
        double[] x = new double[turns.pairs().length];
        Double[] running = new Double[x.length];
        List<Double> sorted = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            x[i] = i + 1;
            Double ratio = turns.pairs()[i];
            if (ratio != null) { // a turn of base with no op has no ratio
                int at = java.util.Collections.binarySearch(sorted, ratio);
                sorted.add(at < 0 ? -at - 1 : at, ratio);
            }
            int n = sorted.size();
            running[i] = n == 0 ? null : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        }
        line(pairs, new Series.Line("per pair", x, turns.pairs()), "ratio").put("points", true);
        line(pairs, new Series.Line("running median", x, running), "ratio");
        if (run.path("incomplete").asBoolean()) {
            notes.add("the run is INCOMPLETE: it was interrupted before its interval was known to --until-ci");
        }
    }

    private static void sweepSection(Path dir, SweepDocument sweep, ArrayNode tables, ArrayNode charts, ArrayNode notes) {
        Path md = dir.resolve("sweep.md");
        if (Files.isRegularFile(md)) {
            table(tables, "Sweep", Series.read(md).replaceFirst("^# cp-bench sweep\\s*", ""));
        }
        SweepAnalysis analysis = sweep.analysis();
        ObjectNode chart = chart(charts, "sweep", "Throughput against concurrency (95 % intervals over repeats), USL fit, knee");
        chart.put("slo", analysis == null || analysis.slo() == null ? "" : analysis.slo());
        for (SweepAnalysis.RoutingStats routing : analysis == null || analysis.routings() == null
                ? List.<SweepAnalysis.RoutingStats>of() : analysis.routings()) {
            String name = routing.routing();
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> lo = new ArrayList<>();
            List<Double> hi = new ArrayList<>();
            List<SweepAnalysis.LevelStats> levels = routing.levels() == null ? List.of() : routing.levels();
            for (SweepAnalysis.LevelStats level : levels) {
                if (level.throughput() == null) {
                    continue;
                }
                x.add(concurrency(level));
                y.add(level.throughput().median());
                lo.add(level.throughput().low());
                hi.add(level.throughput().high());
            }
            double[] xs = x.stream().mapToDouble(Double::doubleValue).toArray();
            ObjectNode s = line(chart, new Series.Line(name, xs, y.toArray(Double[]::new)), "ops");
            s.set("low", JSON.valueToTree(lo));
            s.set("high", JSON.valueToTree(hi));
            Usl fit = routing.usl();
            if (fit != null && !Double.isNaN(fit.lambda()) && xs.length > 0) {
                int points = 60;
                double max = xs[xs.length - 1] * 1.25;
                double[] ux = new double[points];
                Double[] uy = new Double[points];
                for (int i = 0; i < points; i++) {
                    ux[i] = 1 + (max - 1) * i / (points - 1);
                    uy[i] = fit.throughput(ux[i]);
                }
                ObjectNode curve = line(chart, new Series.Line(name + " USL (R² " + String.format(Locale.ROOT, "%.2f",
                        fit.rSquared()) + ")", ux, uy), "ops");
                curve.put("dash", true);
                curve.put("of", name);
            } else if (routing.uslNote() != null && !routing.uslNote().isEmpty()) {
                notes.add(name + ": no USL fit (" + routing.uslNote() + ")");
            }
            SweepAnalysis.LevelStats knee = routing.knee();
            if (knee != null && knee.throughput() != null) {
                ObjectNode k = s.putObject("knee");
                k.put("x", concurrency(knee));
                k.put("y", knee.throughput().median());
            }
        }
        boolean rates = sweep.grid() != null && sweep.grid().rates() != null && !sweep.grid().rates().isEmpty();
        chart.put("xLabel", rates ? "offered op/s" : "workers (clients × threads)");
        if (analysis != null && !analysis.complete()) {
            notes.add("the sweep is INCOMPLETE: not every cell of every repeat was measured");
        }
    }

    /** A level's place on the x axis: its offered rate (open loop), else its workers. */
    private static double concurrency(SweepAnalysis.LevelStats level) {
        return level.rate() != null ? level.rate() : level.workers();
    }

    private static boolean hasPoints(ObjectNode chart) {
        for (JsonNode series : chart.withArray("series")) {
            for (JsonNode y : series.path("y")) {
                if (!y.isNull()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String errors(Map<String, Long> errors) {
        List<String> parts = new ArrayList<>();
        (errors == null ? Map.<String, Long>of() : errors).forEach((key, n) -> parts.add(n + " " + key.replace("|", "/")));
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    /** The run's one verdict: its status in the run's header, and first among its checks, with why (or nothing). */
    private static void runVerdict(ObjectNode run, ArrayNode verdicts, Status status, String why) {
        run.put("status", status.name());
        verdicts.add(verdict("the run", status.name(), status == Status.OK, why == null ? "" : why));
    }

    private static ObjectNode verdict(String name, String verdict, boolean ok, String detail) {
        ObjectNode v = JSON.createObjectNode();
        v.put("name", name);
        v.put("verdict", verdict);
        v.put("ok", ok);
        v.put("detail", detail);
        return v;
    }

    private static void table(ArrayNode tables, String title, String markdown) {
        ObjectNode t = tables.addObject();
        t.put("title", title);
        t.put("html", markdownToHtml(markdown));
    }

    /** {@code url} when it is relative or http(s)/mailto, else "#" (what a sanitised link points to). */
    static String safeUrl(String url) {
        String u = url.strip();
        int colon = u.indexOf(':');
        int cut = indexOfAny(u, "/?#");
        if (colon < 0 || (cut >= 0 && cut < colon)) {
            return u; // no scheme: relative to the report
        }
        String scheme = u.substring(0, colon).toLowerCase(java.util.Locale.ROOT);
        return scheme.equals("http") || scheme.equals("https") || scheme.equals("mailto") ? u : "#";
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    /** Renders a Markdown image as its alt text in brackets: nothing is fetched. */
    private static final class ImageAsText implements org.commonmark.renderer.NodeRenderer {
        private final org.commonmark.renderer.html.HtmlNodeRendererContext context;

        ImageAsText(org.commonmark.renderer.html.HtmlNodeRendererContext context) {
            this.context = context;
        }

        @Override
        public java.util.Set<Class<? extends org.commonmark.node.Node>> getNodeTypes() {
            return java.util.Set.of(org.commonmark.node.Image.class);
        }

        @Override
        public void render(org.commonmark.node.Node node) {
            StringBuilder alt = new StringBuilder();
            node.accept(new org.commonmark.node.AbstractVisitor() {
                @Override
                public void visit(org.commonmark.node.Text text) {
                    alt.append(text.getLiteral());
                }
            });
            context.getWriter().text("[image: " + alt + "]");
        }
    }

    /** Markdown (the CLI's tables, and the prose around them) as HTML. */
    public static String markdownToHtml(String markdown) {
        return HTML.render(MARKDOWN.parse(markdown));
    }

    private static ObjectNode chart(ArrayNode charts, String type, String title) {
        ObjectNode c = charts.addObject();
        c.put("type", type);
        c.put("title", title);
        c.putArray("series");
        return c;
    }

    private static ObjectNode line(ObjectNode chart, Series.Line line, String axis) {
        ObjectNode s = chart.withArray("series").addObject();
        s.put("label", line.label());
        s.put("axis", axis);
        ArrayNode x = s.putArray("x");
        for (double v : line.x()) {
            x.add(round(v));
        }
        ArrayNode y = s.putArray("y");
        for (Double v : line.y()) {
            if (v == null || v.isNaN() || v.isInfinite()) {
                y.addNull();
            } else {
                y.add(round(v));
            }
        }
        return s;
    }

    /** Four significant digits: what a chart can show, at a fraction of the file size. */
    private static double round(double v) {
        if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            return v;
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).doubleValue();
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static double num(String s) {
        return s.isEmpty() ? Double.NaN : Double.parseDouble(s);
    }

    /**
     * {@code file} read as {@code type}, the type that wrote it; null when there is no such file.
     *
     * @param what how an error names the file's kind
     */
    /**
     * A run's JSON document ({@code chaos.json}, {@code sweep.json}) as {@code type}; null when the file is missing.
     *
     * @throws ResultFormatException (one line, naming the file) when it is not {@code what}
     */
    public static <T> T read(Path file, Class<T> type, String what) {
        JsonNode tree = readJson(file);
        if (tree == null) {
            return null;
        }
        try {
            return DOCUMENTS.treeToValue(tree, type);
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            throw new ResultFormatException(file + ": not " + what + " (" + e.getMessage().lines().findFirst().orElse("")
                    + ")", e);
        }
    }

    private static JsonNode readJson(Path file) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new ResultFormatException(file + ": not readable JSON (" + e.getMessage().lines().findFirst().orElse("") + ")", e);
        }
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new ResultFormatException(dir + ": cannot list (" + e.getMessage() + ")", e);
        }
    }
}
