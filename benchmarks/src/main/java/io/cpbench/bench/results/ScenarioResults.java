package io.cpbench.bench.results;

import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.core.csv.Csv;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSummary;
import io.cpbench.core.result.Environment;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.ScenarioTable;
import io.cpbench.core.status.Status;
import org.HdrHistogram.Histogram;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A directory of result files ({@code cpbench-result/1} and {@code /2}): a matrix's scenario runs, a load run, JMH
 * trials. Its verdict is the worst of its results' statuses, as its exit code was.
 */
public final class ScenarioResults implements ResultKind {

    /** A run directory cp-bench named: {@code 20261128-052700-matrix}, maybe with a {@code -2} for a second one. */
    private static final Pattern NAMED = Pattern.compile("\\d{8}-\\d{6}-([a-z][a-z-]*?)(-\\d+)?");

    private final Path dir;
    /** As the files hold them, each marked as its network's baseline or not. */
    private final List<RunResult> results;

    private ScenarioResults(Path dir, List<RunResult> results) {
        this.dir = dir;
        this.results = results;
    }

    static boolean in(Path dir) {
        return ResultFiles.hasOwnResults(dir);
    }

    static ScenarioResults read(Path dir) {
        return new ScenarioResults(dir, List.copyOf(Scenarios.marked(ResultFiles.readAll(List.of(dir)))));
    }

    @Override
    public Status status() {
        Status worst = Status.worst(results.stream().map(RunResult::status).filter(Objects::nonNull).toList());
        return worst == null ? Status.UNKNOWN : worst;
    }

    @Override
    public String why() {
        return RunLines.notOk(reportKind(), results);
    }

    @Override
    public HistoryRun history(String kind) {
        List<RunResult> results = new ArrayList<>(this.results); // in the order they ran: by start, scenario, round
        results.sort(Comparator.comparing((RunResult r) -> Objects.toString(startedAt(r), ""))
                .thenComparing(r -> r.run().scenario()).thenComparingInt(r -> r.run().round()));
        RunResult first = results.get(0);
        List<HistoryRun.Row> rows = new ArrayList<>();
        for (RunResult r : results) {
            // a run across releases (--hazelcast-version a,b) tells its rows apart by the members' release
            String release = memberRelease(r);
            rows.addAll(rows(r, Objects.equals(release, memberRelease(first)) ? "" : "members " + release));
        }
        Environment env = first.environment();
        String started = results.stream().map(ScenarioResults::startedAt).filter(Objects::nonNull).min(String::compareTo).orElse(null);
        String ended = results.stream().map(ScenarioResults::endedAt).filter(Objects::nonNull).max(String::compareTo).orElse(null);
        return new HistoryRun(id(results), kind != null ? kind : kindOf(dir, first), started, ended, status(),
                HistoryRun.Build.of(env, memberRelease(first)), first.cluster().topology(), HistoryRun.Machine.of(env),
                null, dir.toAbsolutePath().normalize().toString(), Map.of(), rows);
    }

    /**
     * The run's id: a hash of each result's scenario, harness, round and start, so the same results give the same id
     * wherever their directory lies, and a run recorded as it ended is not added again by an import.
     */
    static String id(List<RunResult> results) {
        StringBuilder identity = new StringBuilder();
        results.stream().map(r -> r.run().scenario() + "|" + r.run().harness() + "|" + r.run().round() + "|" + startedAt(r))
                .sorted().forEach(line -> identity.append(line).append('\n'));
        return Documents.id(identity.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String kindOf(Path dir, RunResult first) {
        Matcher m = NAMED.matcher(String.valueOf(dir.toAbsolutePath().normalize().getFileName()));
        if (m.matches()) {
            return m.group(1);
        }
        String harness = first.run().harness();
        return harness == null ? "scenario" : harness.startsWith("jmh") ? "jmh" : harness;
    }

    private static String memberRelease(RunResult r) {
        String version = r.cluster().memberVersion();
        return version != null ? version : r.environment() == null ? null : r.environment().hazelcastVersion();
    }

    static String startedAt(RunResult r) {
        return r.measured() == null ? null : normal(r.measured().startedAt());
    }

    private static String endedAt(RunResult r) {
        String start = startedAt(r);
        if (start == null) {
            return null;
        }
        return Instant.parse(start).plus(Duration.ofMillis(Math.round(r.measured().durationSeconds() * 1000))).toString();
    }

    /** An ISO-8601 instant as UTC text, or null when it is not one. */
    static String normal(String instant) {
        try {
            return instant == null ? null : Instant.parse(instant).toString();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /** A scenario run's one row; a load run's total and a row per op. */
    static List<HistoryRun.Row> rows(RunResult r, String variant) {
        String harness = r.run().harness() == null ? "driver" : r.run().harness();
        RunResult.Measured m = r.measured();
        RunResult.Latency l = r.latencyMicros();
        boolean latencies = l != null && !l.isEmpty();
        RunResult.LeaderInfo before = r.leader().before();
        RunResult.LeaderInfo after = r.leader().after();
        List<HistoryRun.Row> rows = new ArrayList<>();
        rows.add(new HistoryRun.Row(r.run().scenario(), variant, "all", harness, r.run().round(), r.run().network(), r.status(),
                startedAt(r), m == null ? 0 : m.ops(), m == null ? 0 : m.errors(), m == null ? 0 : m.opsPerSecond(),
                !latencies ? null : new HistoryRun.Latency(l.p50(), l.p90(), l.p99(), l.p999(), l.max(),
                        l.censored() != null ? l.censored().fromMicros() : null),
                new HistoryRun.Leaders(before == null ? null : before.name(), after == null ? null : after.name(),
                        before == null ? null : before.term(), after == null ? null : after.term())));
        LoadResult load = r.load();
        if (load != null && load.total() != null && load.total().ops().size() > 1) {
            for (LoadResult.OpStats op : load.total().ops()) {
                rows.add(new HistoryRun.Row(r.run().scenario(), variant, op.op(), harness, r.run().round(), r.run().network(),
                        r.status(), startedAt(r), op.ops(), op.errors(), op.opsPerSecond(), latency(op.latency()), null));
            }
        }
        return rows;
    }

    /** A load's latencies as a history row keeps them; null when it measured none. */
    static HistoryRun.Latency latency(LoadResult.LoadLatency l) {
        return l == null || l.count() == 0 ? null : new HistoryRun.Latency(l.p50(), l.p90(), l.p99(), l.p999(), l.max(),
                l.censored() != null ? l.censored().fromMicros() : null);
    }

    /** What the page draws the run as: a load run, JMH trials, or a matrix of scenario runs. */
    private String reportKind() {
        return results.stream().anyMatch(r -> r.load() != null) ? "load"
                : results.stream().anyMatch(r -> r.harness() != null) ? "jmh" : "matrix";
    }

    @Override
    public void report(Section section) {
        section.kind(reportKind());
        results.stream().map(RunResult::environment).filter(Objects::nonNull).forEach(section::environment);
        results.stream().map(r -> r.cluster().topology()).filter(Objects::nonNull).findFirst()
                .ifPresent(t -> section.put("topology", t));
        releases(results).ifPresent(r -> section.put("releases", r));
        tables(section);
        checks(section);
        headline(section);
        percentileCharts(section);
        perScenarioCharts(section);
    }

    private void tables(Section section) {
        section.table("Scenarios", ScenarioTable.markdown(results));
        String ratios = ScenarioTable.ratiosWithinNetwork(results);
        if (!ratios.isEmpty()) {
            section.table("Paired ratios", ratios);
        }
        String perOp = LoadTables.perOp(results);
        if (!perOp.isEmpty()) {
            section.table("Per op", perOp);
        }
    }

    /** Each load round's thresholds and invariants, as one check. */
    private void checks(Section section) {
        for (RunResult r : results) {
            if (r.load() != null && (!r.load().thresholds().isEmpty() || !r.load().invariants().isEmpty())) {
                section.verdict("round " + r.round() + ", " + r.label(), r.load().outcome().name(),
                        r.load().thresholdsPassed() && r.load().invariantsHold(), LoadSummary.verdicts(r.load()));
            }
        }
    }

    /**
     * The section's first picture: each scenario's op/s over its network's baseline, paired by round, as the median
     * with its 95 % bootstrap interval (the "Paired ratios" table's figures). Absent when no scenario has a baseline
     * to pair with; with one round the interval is the single ratio, and the chart says "1 pair".
     */
    private void headline(Section section) {
        List<ScenarioTable.Ratio> ratios = ScenarioTable.pairedRatiosWithinNetwork(results);
        if (ratios.isEmpty()) {
            return;
        }
        var headline = section.node().putObject("headline");
        headline.put("title", "Op/s against the baseline, paired by round: median and 95 % interval");
        var rows = headline.putArray("rows");
        for (ScenarioTable.Ratio r : ratios) {
            var row = rows.addObject();
            row.put("scenario", r.scenario());
            row.put("baseline", r.baseline());
            row.put("median", r.interval().median());
            row.put("low", r.interval().low());
            row.put("high", r.interval().high());
            row.put("pairs", r.interval().n());
        }
    }

    /** Percentile distributions per network: every scenario, rounds merged. */
    private void percentileCharts(Section section) {
        Map<String, Map<String, List<RunResult>>> byNetwork = new TreeMap<>();
        for (RunResult r : results) {
            if (r.decodeHistogram().getTotalCount() > 0) {
                byNetwork.computeIfAbsent(Objects.toString(r.run().network(), "a"), k -> new LinkedHashMap<>())
                        .computeIfAbsent(r.label(), k -> new ArrayList<>()).add(r);
            }
        }
        byNetwork.forEach((network, scenarios) -> {
            var chart = section.chart("percentiles", "Latency by percentile, network (" + network + "), rounds merged");
            scenarios.forEach((label, runs) -> {
                Histogram merged = new Histogram(3);
                runs.forEach(r -> merged.add(r.decodeHistogram()));
                Section.line(chart, Series.percentiles(label, merged), "lat");
            });
        });
    }

    /** Per scenario: its rounds' percentile distributions, and op/s and p99 over time from its logs. */
    private void perScenarioCharts(Section section) {
        Map<String, List<RunResult>> byScenario = new LinkedHashMap<>();
        results.forEach(r -> byScenario.computeIfAbsent(r.label(), k -> new ArrayList<>()).add(r));
        int withoutLog = 0;
        for (var e : byScenario.entrySet()) {
            List<RunResult> runs = e.getValue();
            if (runs.size() > 1 && runs.get(0).decodeHistogram().getTotalCount() > 0) {
                var chart = section.chart("percentiles", e.getKey() + ": latency by percentile, per round");
                runs.forEach(r -> Section.line(chart, Series.percentiles("round " + r.round(), r.decodeHistogram()), "lat"));
            }
            var time = Section.looseChart("time", e.getKey() + ": op/s and p99 over time");
            for (RunResult r : runs) {
                String prefix = runs.size() > 1 ? "r" + r.round() + " " : "";
                if (r.load() != null && loadCsv(r) != null) {
                    loadTimeline(time, loadCsv(r), prefix, runs.get(0) == r);
                    continue;
                }
                Series.Intervals iv = r.hlog() == null ? null : Series.intervals(dir.resolve(r.hlog()));
                if (iv == null || iv.isEmpty()) {
                    withoutLog++;
                    continue;
                }
                Section.line(time, new Series.Line(prefix + "op/s", iv.t(), iv.opsPerSecond()), "ops");
                Section.line(time, new Series.Line(prefix + "p99 µs", iv.t(), iv.p99()), "lat").put("of", prefix + "op/s");
            }
            section.addIfDrawn(time);
        }
        if (withoutLog > 0) {
            section.note(withoutLog + " result" + (withoutLog == 1 ? " has" : "s have") + " no interval log here (.hlog),"
                    + " so no over-time chart for " + (withoutLog == 1 ? "it" : "them") + " (curated results keep only the JSON).");
        }
    }

    /** A load result's per-interval CSV: in the directory its hlog names, else the run directory's own. */
    private Path loadCsv(RunResult r) {
        if (r.hlog() != null) {
            Path parent = dir.resolve(r.hlog()).getParent();
            if (parent != null && Files.isRegularFile(parent.resolve("load.csv"))) {
                return parent.resolve("load.csv");
            }
        }
        return Files.isRegularFile(dir.resolve("load.csv")) ? dir.resolve("load.csv") : null;
    }

    /** op/s and p99 of all ops per interval from a {@code load.csv}, with its stages as bands. */
    private static void loadTimeline(com.fasterxml.jackson.databind.node.ObjectNode chart, Path csv, String prefix,
                                     boolean bands) {
        Map<String, List<double[]>> byOp = new LinkedHashMap<>();
        try {
            Csv.Table table = Csv.read(csv);
            for (Csv.Row row : table.rows()) {
                if (row.whole(table)) {
                    byOp.computeIfAbsent(row.get("op"), k -> new ArrayList<>()).add(new double[]{num(row.get("elapsed_s")),
                            num(row.get("stage")), num(row.get("level")), num(row.get("ops_per_s")), num(row.get("p99_us"))});
                }
            }
        } catch (RuntimeException e) {
            return; // an unreadable CSV leaves the chart without this line
        }
        // all ops together; a mix of one op has only that op's rows
        List<double[]> rows = byOp.containsKey("all") ? byOp.get("all") : byOp.size() == 1 ? byOp.values().iterator().next() : List.of();
        if (rows.isEmpty()) {
            return;
        }
        double[] t = rows.stream().mapToDouble(r -> r[0]).toArray();
        Section.line(chart, new Series.Line(prefix + "op/s", t, rows.stream().map(r -> r[3]).toArray(Double[]::new)), "ops");
        Section.line(chart, new Series.Line(prefix + "p99 µs", t, rows.stream().map(r -> Double.isNaN(r[4]) ? null : r[4])
                .toArray(Double[]::new)), "lat").put("of", prefix + "op/s"); // a round's two lines in one colour
        if (bands) {
            var b = chart.withArray("bands");
            double start = 0;
            for (int i = 0; i < rows.size(); i++) {
                boolean last = i == rows.size() - 1;
                if (last || rows.get(i + 1)[1] != rows.get(i)[1]) {
                    Section.band(b, start, rows.get(i)[0], "stage",
                            String.format(Locale.ROOT, "stage %d → %s", (int) rows.get(i)[1], trim(rows.get(i)[2])));
                    start = rows.get(i)[0];
                }
            }
        }
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static double num(String s) {
        return s.isEmpty() ? Double.NaN : Double.parseDouble(s);
    }

    /**
     * The members' releases the results recorded (as the members told the clients), distinct, sorted and
     * comma-separated: {@code 5.3.8}; empty for results written before members' releases were recorded.
     */
    public static String memberVersions(List<RunResult> results) {
        return String.join(", ", results.stream().map(r -> r.cluster() == null ? null : r.cluster().memberVersion())
                .filter(Objects::nonNull).distinct().sorted().toList());
    }

    /**
     * "members Hazelcast 5.3.8, clients Hazelcast 5.4.0": the release the members told the clients they run, and the
     * clients' own (from each result's environment); empty for results written before members' releases were recorded.
     */
    static Optional<String> releases(List<RunResult> results) {
        String members = memberVersions(results);
        String clients = results.stream().map(RunResult::environment).filter(Objects::nonNull)
                .map(Environment::hazelcastVersion).filter(Objects::nonNull).distinct().sorted()
                .collect(Collectors.joining(", "));
        return members.isEmpty() ? Optional.empty()
                : Optional.of("members Hazelcast " + members + (clients.isEmpty() ? "" : ", clients Hazelcast " + clients));
    }
}
