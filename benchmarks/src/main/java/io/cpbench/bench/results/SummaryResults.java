package io.cpbench.bench.results;

import io.cpbench.core.csv.Csv;
import io.cpbench.core.result.CsvSummary;
import io.cpbench.core.result.ResultFormatException;
import io.cpbench.core.status.Status;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A matrix run whose result files were not kept, only what it printed beside them: {@code summary.csv} (a line per
 * scenario and round: ops, errors, op/s, percentiles, leaders, status) and {@code table.md}. Curated reference runs
 * of this shape came from before result files were kept with them; what they hold is enough for the history's rows
 * and a report of the table, not for histograms, the environment or when each round ran. A directory with result
 * files is a {@link ScenarioResults}, whatever else it holds.
 */
public final class SummaryResults implements ResultKind {

    private static final String SUMMARY = "summary.csv";
    private static final String TABLE = "table.md";
    /** The columns every summary.csv has had ({@code harness} came later: without it, cp-bench's own driver). */
    private static final List<String> COLUMNS = List.of("round", "scenario", "network", "status", "ops", "errors",
            "ops_per_s", "p50_us", "p90_us", "p99_us", "p999_us", "max_us", "leader_before", "term_before",
            "leader_after", "term_after");

    private final Path dir;
    private final List<HistoryRun.Row> rows;
    private final String table;

    private SummaryResults(Path dir, List<HistoryRun.Row> rows, String table) {
        this.dir = dir;
        this.rows = rows;
        this.table = table;
    }

    static boolean in(Path dir) {
        return Files.isRegularFile(dir.resolve(SUMMARY)) && Files.isRegularFile(dir.resolve(TABLE));
    }

    /** @throws ResultFormatException (one line, naming the file and its line) when summary.csv is not one */
    static SummaryResults read(Path dir) {
        Path file = dir.resolve(SUMMARY);
        Csv.Table csv;
        try {
            csv = Csv.read(file);
        } catch (IllegalArgumentException e) {
            throw new ResultFormatException(e.getMessage(), e);
        }
        List<String> missing = COLUMNS.stream().filter(c -> !csv.header().contains(c)).toList();
        if (!missing.isEmpty() || !csv.header().get(0).equals("round")) {
            throw new ResultFormatException(file + ": not a matrix run's summary.csv (its header is not "
                    + CsvSummary.HEADER.substring(0, 40) + "...; missing: " + String.join(", ", missing) + ")");
        }
        List<HistoryRun.Row> rows = new ArrayList<>();
        for (Csv.Row line : csv.rows()) {
            if (!line.whole(csv)) {
                throw new ResultFormatException(file + ":" + line.line() + ": a line cut short (" + line.values().size()
                        + " of " + csv.header().size() + " values)");
            }
            rows.add(row(file, line));
        }
        if (rows.isEmpty()) {
            throw new ResultFormatException(file + ": no line after the header");
        }
        return new SummaryResults(dir, List.copyOf(rows), Series.read(dir.resolve(TABLE)));
    }

    private static HistoryRun.Row row(Path file, Csv.Row line) {
        String where = file + ":" + line.line();
        String harness = line.get("harness");
        return new HistoryRun.Row(text(line, "scenario", where), "", "all", harness == null || harness.isBlank() ? "driver"
                : harness, (int) whole(line, "round", where), text(line, "network", where), status(line, where), null,
                whole(line, "ops", where), whole(line, "errors", where), decimal(line, "ops_per_s", where),
                new HistoryRun.Latency(micros(line, "p50_us", where), micros(line, "p90_us", where),
                        micros(line, "p99_us", where), micros(line, "p999_us", where), micros(line, "max_us", where), null),
                new HistoryRun.Leaders(blankIsNull(line.get("leader_before")), blankIsNull(line.get("leader_after")),
                        term(line, "term_before", where), term(line, "term_after", where)));
    }

    private static String text(Csv.Row line, String column, String where) {
        String v = line.get(column);
        if (v == null || v.isBlank()) {
            throw new ResultFormatException(where + ": no " + column);
        }
        return v;
    }

    private static Status status(Csv.Row line, String where) {
        String v = text(line, "status", where);
        try {
            return Status.valueOf(v);
        } catch (IllegalArgumentException e) {
            throw new ResultFormatException(where + ": status '" + v + "' is not one of cp-bench's");
        }
    }

    private static long whole(Csv.Row line, String column, String where) {
        return number(line, column, where, Long::parseLong, "a whole number");
    }

    private static double decimal(Csv.Row line, String column, String where) {
        return number(line, column, where, Double::parseDouble, "a number");
    }

    private static <T> T number(Csv.Row line, String column, String where,
                                java.util.function.Function<String, T> parse, String what) {
        String v = text(line, column, where);
        try {
            return parse.apply(v);
        } catch (NumberFormatException e) {
            throw new ResultFormatException(where + ": " + column + " must be " + what + ", was '" + v + "'");
        }
    }

    /** A latency: empty where the run measured none. */
    private static Long micros(Csv.Row line, String column, String where) {
        String v = line.get(column);
        return v == null || v.isBlank() ? null : whole(line, column, where);
    }

    private static Integer term(Csv.Row line, String column, String where) {
        Long t = micros(line, column, where);
        return t == null ? null : Math.toIntExact(t);
    }

    private static String blankIsNull(String v) {
        return v == null || v.isBlank() ? null : v;
    }

    /** The worst of its rows' statuses, as the run's exit code was. */
    @Override
    public Status status() {
        Status worst = Status.worst(rows.stream().map(HistoryRun.Row::status).toList());
        return worst == null ? Status.UNKNOWN : worst;
    }

    @Override
    public String why() {
        return rows.stream().filter(r -> r.status() != Status.OK).findFirst()
                .map(r -> r.scenario() + " round " + r.round() + ": " + r.status()).orElse(null);
    }

    /**
     * A row per scenario and round, as summary.csv has them. Its id is the file's; it ended when the file was last
     * written, for want of anything better (on a fresh clone: when it was checked out); when each round ran is not known.
     */
    @Override
    public HistoryRun history(String kind) {
        Path document = dir.resolve(SUMMARY);
        return HistoryRun.ofDocument(document, kind == null ? "matrix" : kind, null, Documents.modified(document), status(), null,
                null, rows);
    }

    @Override
    public void report(Section section) {
        section.kind("matrix");
        section.note(String.format(Locale.ROOT, "this run kept no result files, only summary.csv (%d lines: %d scenarios"
                + " x %d rounds) and table.md: no histograms, environment or start times", rows.size(),
                rows.stream().map(HistoryRun.Row::scenario).distinct().count(),
                rows.stream().mapToInt(HistoryRun.Row::round).max().orElse(0)));
        section.table("Scenarios", table.replaceFirst("^# cp-bench matrix\\R+", ""));
    }
}
