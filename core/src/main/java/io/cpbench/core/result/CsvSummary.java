package io.cpbench.core.result;

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
            out.append(String.join(",", List.of(Integer.toString(r.round()), quote(r.scenario()), quote(r.run().network()),
                    r.status().name(), Long.toString(r.measured().ops()), Long.toString(r.measured().errors()),
                    String.format(Locale.ROOT, "%.3f", r.measured().durationSeconds()),
                    String.format(Locale.ROOT, "%.1f", r.measured().opsPerSecond()), Long.toString(l.p50()), Long.toString(l.p90()),
                    Long.toString(l.p99()), Long.toString(l.p999()), Long.toString(l.max()),
                    quote(r.leader().before() == null ? "" : r.leader().before().name()),
                    r.leader().before() == null ? "" : Integer.toString(r.leader().before().term()),
                    quote(r.leader().after() == null ? "" : r.leader().after().name()),
                    r.leader().after() == null ? "" : Integer.toString(r.leader().after().term()),
                    quote(r.cluster().clientTarget()), quote(r.reason()), quote(r.harness())))).append('\n');
        }
        try {
            Files.writeString(file, out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    static String quote(String value) {
        if (value == null) {
            return "";
        }
        if (value.contains(",") || value.contains("\"") || value.contains("\n")) {
            return '"' + value.replace("\"", "\"\"").replace('\n', ' ') + '"';
        }
        return value;
    }
}
