package io.cpbench.core.result;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An {@code ab} run's {@code slices.csv}: one line per turn, written by the ab run and read back by the report
 * through this one type.
 */
public final class AbSlices {

    public static final String HEADER = "pair,processes,first,side,ops,errors,seconds,ops_per_s,p50_us,p99_us";
    /** The columns a file must have to be read; older files may lack the rest. */
    private static final List<String> REQUIRED = List.of("pair", "processes", "side", "seconds", "ops_per_s");

    private AbSlices() {
    }

    /**
     * One side's turn of a pair.
     *
     * @param pair         the pair, from 1
     * @param processes    which pair of client processes ran it, from 1
     * @param first        the side that ran first in this pair, BASE or NEW
     * @param side         BASE or NEW
     * @param seconds      how long it ran
     * @param opsPerSecond as measured
     * @param p50Us        its median latency, null where the file has none
     * @param p99Us        its 99th percentile, null where the file has none
     */
    @RecordBuilder
    public record Turn(int pair, int processes, String first, String side, long ops, long errors, double seconds,
                       double opsPerSecond, Double p50Us, Double p99Us) {

        public boolean base() {
            return "BASE".equals(side);
        }

        public String csvLine() {
            return String.format(Locale.ROOT, "%d,%d,%s,%s,%d,%d,%.4f,%.1f,%s,%s", pair, processes, first, side, ops,
                    errors, seconds, opsPerSecond, whole(p50Us), whole(p99Us));
        }

        private static String whole(Double value) {
            return value == null ? "" : String.format(Locale.ROOT, "%.0f", value);
        }
    }

    /** The file's text: the header, then the turns in order. */
    public static String csv(List<Turn> turns) {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        turns.forEach(turn -> b.append(turn.csvLine()).append('\n'));
        return b.toString();
    }

    /**
     * The turns in the file, in its order. A line with fewer fields than the header (an interrupted run may leave
     * one) is left out.
     *
     * @throws ResultFormatException naming the file, and the line where a value is wrong
     */
    public static List<Turn> read(Path csv) {
        List<String> lines;
        try {
            lines = Files.readAllLines(csv);
        } catch (IOException e) {
            throw new ResultFormatException(csv + ": cannot read: " + e.getMessage());
        }
        if (lines.isEmpty()) {
            throw new ResultFormatException(csv + ": empty; an ab run writes a header line first");
        }
        List<String> header = List.of(lines.get(0).split(",", -1));
        if (!header.containsAll(REQUIRED)) {
            throw new ResultFormatException(csv + ": not an ab slices file (its header needs"
                    + " pair, processes, side, seconds and ops_per_s)");
        }
        List<Turn> turns = new ArrayList<>();
        for (int n = 1; n < lines.size(); n++) {
            String[] f = lines.get(n).split(",", -1);
            if (f.length < header.size()) {
                continue;
            }
            try {
                String side = column(header, f, "side");
                if (!side.equals("BASE") && !side.equals("NEW")) {
                    throw new NumberFormatException("side '" + side + "' is neither BASE nor NEW");
                }
                turns.add(AbSlicesTurnBuilder.builder().pair(Integer.parseInt(column(header, f, "pair")))
                        .processes(Integer.parseInt(column(header, f, "processes"))).first(column(header, f, "first"))
                        .side(side).ops(whole(header, f, "ops")).errors(whole(header, f, "errors"))
                        .seconds(Double.parseDouble(column(header, f, "seconds")))
                        .opsPerSecond(Double.parseDouble(column(header, f, "ops_per_s")))
                        .p50Us(optional(header, f, "p50_us")).p99Us(optional(header, f, "p99_us")).build());
            } catch (NumberFormatException e) {
                throw new ResultFormatException(csv + ", line " + (n + 1) + ": " + e.getMessage());
            }
        }
        return turns;
    }

    private static String column(List<String> header, String[] fields, String name) {
        int i = header.indexOf(name);
        return i < 0 ? null : fields[i];
    }

    private static long whole(List<String> header, String[] fields, String name) {
        String value = column(header, fields, name);
        return value == null || value.isEmpty() ? 0 : Long.parseLong(value);
    }

    private static Double optional(List<String> header, String[] fields, String name) {
        String value = column(header, fields, name);
        return value == null || value.isEmpty() ? null : Double.parseDouble(value);
    }
}
