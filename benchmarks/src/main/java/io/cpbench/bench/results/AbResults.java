package io.cpbench.bench.results;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cpbench.core.result.AbDocument;
import io.cpbench.core.result.AbSlices;
import io.cpbench.core.result.ResultFormatException;
import io.cpbench.core.status.Status;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An {@code ab} run: its {@code ab.json} (the verdict), {@code table.md} (jars, JVM arguments, cluster, environment,
 * the ratios) and {@code slices.csv} (its turns). A run written before {@code ab.json} existed has only the table and
 * the turns; its verdict is the table's {@code verdict:} line (REGRESSION: FAIL; INCOMPLETE: INCOMPLETE).
 */
public final class AbResults implements ResultKind {

    private static final String SLICES = "slices.csv";
    private static final String TABLE = "table.md";
    private static final Pattern VERDICT_LINE = Pattern.compile("(?m)^verdict: (.*)$");

    private final Path dir;
    /** Null for a run written before ab.json. */
    private final AbDocument doc;
    private final String table;
    /** The table's verdict line without its "verdict: "; null when it has none. */
    private final String verdictLine;

    private AbResults(Path dir, AbDocument doc, String table) {
        this.dir = dir;
        this.doc = doc;
        this.table = table;
        Matcher m = VERDICT_LINE.matcher(table);
        this.verdictLine = m.find() ? m.group(1) : null;
    }

    static boolean in(Path dir) {
        return AbDocument.in(dir) || Files.isRegularFile(dir.resolve(SLICES)) && Files.isRegularFile(dir.resolve(TABLE));
    }

    static AbResults read(Path dir) {
        AbDocument doc;
        try {
            doc = AbDocument.in(dir) ? AbDocument.read(dir) : null;
        } catch (IllegalArgumentException e) {
            throw new ResultFormatException(e.getMessage(), e);
        }
        String table = Files.isRegularFile(dir.resolve(TABLE)) ? Series.read(dir.resolve(TABLE)) : "";
        return new AbResults(dir, doc, table);
    }

    /** FAIL for a regression found (as its exit code was), INCOMPLETE when stopped, else as ab.json says. */
    @Override
    public Status status() {
        if (doc != null) {
            return doc.verdict();
        }
        return verdictLine != null && verdictLine.startsWith("REGRESSION") ? Status.FAIL
                : table.contains("INCOMPLETE") ? Status.INCOMPLETE : verdictLine == null ? Status.UNKNOWN : Status.OK;
    }

    @Override
    public String why() {
        if (doc != null) {
            return doc.reason();
        }
        return status() == Status.OK ? null : verdictLine != null ? verdictLine : "table.md has no verdict line";
    }

    /**
     * A row per side (BASE, NEW), from its turns in slices.csv: op/s the sum of ops over the sum of time, each as its
     * pairs were measured; p50 and p99 the median of the turns'.
     */
    @Override
    public HistoryRun history(String kind) {
        List<HistoryRun.Row> rows = new ArrayList<>();
        Path slices = dir.resolve(SLICES);
        if (Files.isRegularFile(slices)) {
            List<AbSlices.Turn> turns = AbSlices.read(slices);
            for (String side : List.of("BASE", "NEW")) {
                List<AbSlices.Turn> mine = turns.stream().filter(t -> side.equals(t.side())).toList();
                if (mine.isEmpty()) {
                    continue;
                }
                long ops = mine.stream().mapToLong(AbSlices.Turn::ops).sum();
                double seconds = mine.stream().mapToDouble(AbSlices.Turn::seconds).sum();
                rows.add(new HistoryRun.Row(scenario(), side.toLowerCase(Locale.ROOT), "all", "ab", 1, null,
                        doc != null ? doc.measured() : status() == Status.FAIL ? Status.OK : status(), null, ops,
                        mine.stream().mapToLong(AbSlices.Turn::errors).sum(), seconds > 0 ? ops / seconds : 0,
                        new HistoryRun.Latency(medianOf(mine, AbSlices.Turn::p50Us), null,
                                medianOf(mine, AbSlices.Turn::p99Us), null, null, null), null));
            }
        }
        Path document = doc != null ? dir.resolve(AbDocument.FILE) : dir.resolve(TABLE);
        return HistoryRun.ofDocument(document, kind == null ? "ab" : kind, null, Documents.modified(document), status(),
                doc == null ? null : doc.environment(), null, rows);
    }

    /** The scenario both sides ran: ab.json's, else the table's title ({@code # cp-bench ab: <scenario>}). */
    private String scenario() {
        if (doc != null) {
            return doc.scenario();
        }
        Matcher m = Pattern.compile("(?m)^# cp-bench ab: (\\S+)").matcher(table);
        return m.find() ? m.group(1) : "ab";
    }

    /** The median of the turns' values, rounded; null when no turn has one. */
    private static Long medianOf(List<AbSlices.Turn> turns, Function<AbSlices.Turn, Double> value) {
        double[] values = turns.stream().map(value).filter(Objects::nonNull).mapToDouble(Double::doubleValue).sorted().toArray();
        if (values.length == 0) {
            return null;
        }
        double m = values.length % 2 == 1 ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
        return Math.round(m);
    }

    /**
     * Its table and the new ÷ base check; each side's op/s turn by turn with the process pairs marked; each pair's
     * new ÷ base op/s with the running median.
     */
    @Override
    public void report(Section section) {
        section.kind("ab");
        String line = doc != null ? (doc.result() == null ? null : doc.verdictLine().replaceFirst("^verdict: ", ""))
                : verdictLine;
        if (line != null) {
            boolean regression = doc != null ? doc.regression() : line.startsWith("REGRESSION");
            section.verdict("new ÷ base", regression ? "regression" : "no regression", !regression, line);
        }
        // the verdict line is shown as the section's check above
        section.table("A/B", table.replaceFirst("^# cp-bench ab: ", "Scenario: ").replaceFirst("(?m)^verdict: .*\\R", ""));
        Series.AbTurns turns = Series.abTurns(dir.resolve(SLICES));
        if (turns.pairs().length == 0) {
            section.note("slices.csv holds no whole pair of turns");
            return;
        }
        turnsChart(section, turns);
        pairsChart(section, turns);
        if (section.incomplete()) {
            section.note("the run is INCOMPLETE: it was interrupted before its interval was known to --until-ci");
        }
    }

    private static void turnsChart(Section section, Series.AbTurns turns) {
        ObjectNode time = section.chart("time", "op/s per turn, base and new (process pairs shaded)");
        time.put("xLabel", "seconds of turns");
        Section.line(time, new Series.Line("base op/s", turns.baseT(), turns.baseOps()), "ops");
        Section.line(time, new Series.Line("new op/s", turns.newT(), turns.newOps()), "ops");
        ArrayNode bands = time.putArray("bands");
        int[] group = turns.processPair();
        double from = 0;
        for (int i = 0; i < group.length; i++) {
            if (i == group.length - 1 || group[i + 1] != group[i]) {
                double to = Math.max(turns.baseT()[i], turns.newT()[i]);
                if (group[i] % 2 == 0) { // every other process pair, so that neighbours stand apart
                    Section.band(bands, from, to, "stage", "process pair " + group[i]);
                }
                from = to;
            }
        }
    }

    private static void pairsChart(Section section, Series.AbTurns turns) {
        ObjectNode pairs = section.chart("pairs", "new ÷ base op/s per pair, and its running median");
        pairs.put("xLabel", "pair");
        double[] x = new double[turns.pairs().length];
        Double[] running = new Double[x.length];
        List<Double> sorted = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            x[i] = i + 1;
            Double ratio = turns.pairs()[i];
            if (ratio != null) { // a turn of base with no op has no ratio
                int at = Collections.binarySearch(sorted, ratio);
                sorted.add(at < 0 ? -at - 1 : at, ratio);
            }
            int n = sorted.size();
            running[i] = n == 0 ? null : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        }
        Section.line(pairs, new Series.Line("per pair", x, turns.pairs()), "ratio").put("points", true);
        Section.line(pairs, new Series.Line("running median", x, running), "ratio");
    }
}
