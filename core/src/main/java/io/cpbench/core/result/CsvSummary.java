package io.cpbench.core.result;

import io.cpbench.core.csv.Csv;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** One CSV line per scenario run, for spreadsheets and scripts; the JSON files stay the full record. */
public final class CsvSummary {

    public static final String HEADER = "round,scenario,network,status,ops,errors,duration_s,ops_per_s,"
            + "p50_us,p90_us,p99_us,p999_us,max_us,leader_before,term_before,leader_after,term_after,client_target,reason,harness";

    private CsvSummary() {
    }

    public static void write(Path file, List<RunResult> results) {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (RunResult r : results) {
            RunResult.Latency l = r.latencyMicros();
            out.append(Csv.row(r.round(), oneLine(r.scenario()), oneLine(r.run().network()), r.status().name(),
                    r.measured().ops(), r.measured().errors(),
                    String.format(Locale.ROOT, "%.3f", r.measured().durationSeconds()),
                    String.format(Locale.ROOT, "%.1f", r.measured().opsPerSecond()), l.p50(), l.p90(), l.p99(), l.p999(),
                    l.max(), r.leader().before() == null ? "" : oneLine(r.leader().before().name()),
                    r.leader().before() == null ? "" : r.leader().before().term(),
                    r.leader().after() == null ? "" : oneLine(r.leader().after().name()),
                    r.leader().after() == null ? "" : r.leader().after().term(),
                    oneLine(r.cluster().clientTarget()), oneLine(r.reason()), oneLine(r.harness()))).append('\n');
        }
        try {
            Files.writeString(file, out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** A value on one line: a line break in a reason becomes a space (a spreadsheet shows one row per run). */
    static String oneLine(String value) {
        return value == null ? "" : value.replace('\n', ' ');
    }
}
