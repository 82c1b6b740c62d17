package io.cpbench.bench.history;

import io.cpbench.bench.report.ReportModel;
import io.cpbench.core.check.ChaosDocument;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.result.AbDocument;
import io.cpbench.core.result.AbSlices;
import io.cpbench.core.result.Environment;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import io.cpbench.core.sweep.CellRun;
import io.cpbench.core.sweep.SweepDocument;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads run directories into {@link HistoryRun}s: a directory's result files ({@code cpbench-result/1} and
 * {@code /2}: scenario runs, load runs, JMH trials) are one run; so is a sweep's {@code sweep.json}, a chaos run's
 * {@code chaos.json} and an ab run's {@code ab.json} (with its {@code slices.csv}). Nothing here writes.
 */
public final class RunImport {

    private static final String SWEEP = "sweep.json";
    private static final String CHAOS = "chaos.json";
    /** A run directory cp-bench named: {@code 20261128-052700-matrix}, maybe with a {@code -2} for a second one. */
    private static final Pattern NAMED = Pattern.compile("\\d{8}-\\d{6}-([a-z][a-z-]*?)(-\\d+)?");
    /** How deep {@link #find} looks for run directories. */
    private static final int MAX_DEPTH = 6;

    private RunImport() {
    }

    /** Whether {@code dir} holds a run: result files of its own, or a sweep's, chaos run's or ab run's document. */
    public static boolean isRun(Path dir) {
        return Files.isDirectory(dir) && (Files.isRegularFile(dir.resolve(SWEEP)) || Files.isRegularFile(dir.resolve(CHAOS))
                || AbDocument.in(dir) || ResultFiles.hasOwnResults(dir));
    }

    /** Every directory under {@code root} (itself included) that holds a run ({@link #isRun}), in name order. */
    public static List<Path> find(Path root) {
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException(root + ": no such directory");
        }
        try (Stream<Path> dirs = Files.walk(root, MAX_DEPTH)) {
            return dirs.filter(RunImport::isRun).sorted().toList();
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalArgumentException(root + ": cannot read: " + e.getMessage());
        }
    }

    /**
     * The run whose results are in {@code dir}.
     *
     * @param kind the run kind, or null to take it from the directory's name or its results
     * @throws io.cpbench.core.result.ResultFormatException (one line) when a result file cannot be read
     */
    public static HistoryRun read(Path dir, String kind) {
        if (Files.isRegularFile(dir.resolve(SWEEP))) {
            return sweep(dir, kind);
        }
        if (Files.isRegularFile(dir.resolve(CHAOS))) {
            return chaos(dir, kind);
        }
        if (AbDocument.in(dir)) {
            return ab(dir, kind);
        }
        List<RunResult> results = new ArrayList<>(ResultFiles.readAll(List.of(dir)));
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
        String started = results.stream().map(RunImport::startedAt).filter(Objects::nonNull).min(String::compareTo).orElse(null);
        String ended = results.stream().map(RunImport::endedAt).filter(Objects::nonNull).max(String::compareTo).orElse(null);
        Status status = Status.worst(results.stream().map(RunResult::status).filter(Objects::nonNull).toList());
        return new HistoryRun(id(results), kind != null ? kind : kindOf(dir, first), started, ended,
                status == null ? Status.UNKNOWN : status, env == null ? null : env.cpbenchVersion(),
                env == null ? null : env.cpbenchCommit(), memberRelease(first), env == null ? null : env.hazelcastVersion(),
                first.cluster().topology(), env == null ? null : env.host(), env == null ? null : env.cores(),
                env == null ? null : env.maxHeapBytes() / (1024 * 1024), env == null ? null : env.os(),
                env == null ? null : env.jvm(), null, dir.toAbsolutePath().normalize().toString(), Map.of(), rows);
    }

    /**
     * The run's id: a hash of each result's scenario, harness, round and start, so the same results give the same id
     * wherever their directory lies, and a run recorded as it ended is not added again by an import.
     */
    static String id(List<RunResult> results) {
        StringBuilder identity = new StringBuilder();
        results.stream().map(r -> r.run().scenario() + "|" + r.run().harness() + "|" + r.run().round() + "|" + startedAt(r))
                .sorted().forEach(line -> identity.append(line).append('\n'));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static String kindOf(Path dir, RunResult first) {
        Matcher m = NAMED.matcher(dir.getFileName().toString());
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
    private static String normal(String instant) {
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
                latencies ? l.p50() : null, latencies ? l.p90() : null, latencies ? l.p99() : null,
                latencies ? l.p999() : null, latencies ? l.max() : null,
                latencies && l.censored() != null ? l.censored().fromMicros() : null,
                before == null ? null : before.name(), after == null ? null : after.name(),
                before == null ? null : before.term(), after == null ? null : after.term()));
        LoadResult load = r.load();
        if (load != null && load.total() != null && load.total().ops().size() > 1) {
            for (LoadResult.OpStats op : load.total().ops()) {
                LoadResult.LoadLatency ol = op.latency();
                boolean any = ol != null && ol.count() > 0;
                rows.add(new HistoryRun.Row(r.run().scenario(), variant, op.op(), harness, r.run().round(), r.run().network(),
                        r.status(), startedAt(r), op.ops(), op.errors(), op.opsPerSecond(), any ? ol.p50() : null,
                        any ? ol.p90() : null, any ? ol.p99() : null, any ? ol.p999() : null, any ? ol.max() : null,
                        any && ol.censored() != null ? ol.censored().fromMicros() : null, null, null, null, null));
            }
        }
        return rows;
    }

    /** A sweep: a row per cell run (its cell the variant, its repeat the round). */
    private static HistoryRun sweep(Path dir, String kind) {
        SweepDocument doc = ReportModel.read(dir.resolve(SWEEP), SweepDocument.class, "a sweep's " + SWEEP);
        List<HistoryRun.Row> rows = new ArrayList<>();
        for (CellRun c : doc.cells()) {
            boolean any = c.ops() > 0;
            rows.add(new HistoryRun.Row(c.cell().series(), c.cell().level(), "all", "sweep", c.repeat(), null, c.status(),
                    doc.startedAt(), c.ops(), c.errors(), c.opsPerSecond(), any ? c.p50Us() : null, any ? c.p90Us() : null,
                    any ? c.p99Us() : null, any ? c.p999Us() : null, any ? c.maxUs() : null,
                    c.censored() == null ? null : c.censored().fromMicros(), null, null, null, null));
        }
        String started = normal(doc.startedAt());
        return document(dir, kind == null ? "sweep" : kind, started, started, doc.status(), doc.environment(),
                doc.topology(), rows);
    }

    /**
     * A chaos run: one row, the load under the faults, its status the run's one verdict (the one its exit code was):
     * the load's ending, its invariants and the history check ({@link ChaosDocument#verdict}).
     */
    private static HistoryRun chaos(Path dir, String kind) {
        ChaosDocument doc = ReportModel.read(dir.resolve(CHAOS), ChaosDocument.class, "a chaos run's " + CHAOS);
        LoadResult load = doc.load();
        Status status = doc.verdict().status();
        List<HistoryRun.Row> rows = new ArrayList<>();
        String started = load == null ? null : normal(load.startedAt());
        if (load != null && load.total() != null) {
            LoadResult.LoadLatency l = load.total().all().latency();
            boolean any = l != null && l.count() > 0;
            rows.add(new HistoryRun.Row(Objects.toString(doc.scenario(), "chaos"), Objects.toString(doc.nemesis(), ""), "all",
                    "chaos", 1, null, status, started, load.ops(), load.errors(), load.opsPerSecond(), any ? l.p50() : null,
                    any ? l.p90() : null, any ? l.p99() : null, any ? l.p999() : null, any ? l.max() : null,
                    any && l.censored() != null ? l.censored().fromMicros() : null, null, null, null, null));
        }
        String ended = started == null ? null
                : Instant.parse(started).plus(Duration.ofMillis(Math.round(load.seconds() * 1000))).toString();
        return document(dir, kind == null ? "chaos" : kind, started, ended, status, null, null, rows);
    }

    /**
     * An ab run: its status the run's verdict (FAIL for a regression, as its exit code was); a row per side (BASE, NEW),
     * from its turns in slices.csv, op/s the sum of ops over the sum of time, each as its pairs were measured.
     */
    private static HistoryRun ab(Path dir, String kind) {
        AbDocument doc = AbDocument.read(dir);
        List<HistoryRun.Row> rows = new ArrayList<>();
        Path slices = dir.resolve("slices.csv");
        if (Files.isRegularFile(slices)) {
            List<AbSlices.Turn> turns = AbSlices.read(slices);
            for (String side : List.of("BASE", "NEW")) {
                List<AbSlices.Turn> mine = turns.stream().filter(t -> side.equals(t.side())).toList();
                if (mine.isEmpty()) {
                    continue;
                }
                long ops = mine.stream().mapToLong(AbSlices.Turn::ops).sum();
                double seconds = mine.stream().mapToDouble(AbSlices.Turn::seconds).sum();
                rows.add(new HistoryRun.Row(doc.scenario(), side.toLowerCase(java.util.Locale.ROOT), "all", "ab", 1, null,
                        doc.measured(), null, ops, mine.stream().mapToLong(AbSlices.Turn::errors).sum(),
                        seconds > 0 ? ops / seconds : 0, medianOf(mine, AbSlices.Turn::p50Us), null,
                        medianOf(mine, AbSlices.Turn::p99Us), null, null, null, null, null, null, null));
            }
        }
        String started = modified(dir.resolve(AbDocument.FILE));
        return document(dir, kind == null ? "ab" : kind, null, started, doc.verdict(), doc.environment(), null, rows);
    }

    /** The median of the turns' values, rounded; null when no turn has one. */
    private static Long medianOf(List<AbSlices.Turn> turns, java.util.function.Function<AbSlices.Turn, Double> value) {
        double[] values = turns.stream().map(value).filter(Objects::nonNull).mapToDouble(Double::doubleValue).sorted().toArray();
        if (values.length == 0) {
            return null;
        }
        double m = values.length % 2 == 1 ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
        return Math.round(m);
    }

    /** A run read from a document: its id is the hash of the document's bytes, so the same file is one run. */
    private static HistoryRun document(Path dir, String kind, String started, String ended, Status status, Environment env,
                                       String topology, List<HistoryRun.Row> rows) {
        String file = Files.isRegularFile(dir.resolve(SWEEP)) ? SWEEP : Files.isRegularFile(dir.resolve(CHAOS)) ? CHAOS
                : AbDocument.FILE;
        String id;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(dir.resolve(file)));
            id = HexFormat.of().formatHex(digest, 0, 16);
        } catch (IOException e) {
            throw new IllegalArgumentException(dir.resolve(file) + ": cannot read: " + e.getMessage());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        return new HistoryRun(id, kind, started != null ? started : ended, ended, status == null ? Status.UNKNOWN : status,
                env == null ? null : env.cpbenchVersion(), env == null ? null : env.cpbenchCommit(),
                env == null ? null : env.hazelcastVersion(), env == null ? null : env.hazelcastVersion(), topology,
                env == null ? null : env.host(), env == null ? null : env.cores(),
                env == null ? null : env.maxHeapBytes() / (1024 * 1024), env == null ? null : env.os(),
                env == null ? null : env.jvm(), null, dir.toAbsolutePath().normalize().toString(), Map.of(), rows);
    }

    /** When a file was last written, as an instant; null when that cannot be read. */
    private static String modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toInstant().toString();
        } catch (IOException e) {
            return null;
        }
    }
}
