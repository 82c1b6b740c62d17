package io.cpbench.core.result;

import io.cpbench.core.csv.Csv;
import io.soabase.recordbuilder.core.RecordBuilder;

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
            return Csv.row(pair, processes, first, side, ops, errors, String.format(Locale.ROOT, "%.4f", seconds),
                    String.format(Locale.ROOT, "%.1f", opsPerSecond), whole(p50Us), whole(p99Us));
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
        Csv.Table table;
        try {
            table = Csv.read(csv);
        } catch (IllegalArgumentException e) {
            throw new ResultFormatException(e.getMessage(), e);
        }
        if (!table.header().containsAll(REQUIRED)) {
            throw new ResultFormatException(csv + ": not an ab slices file (its header needs"
                    + " pair, processes, side, seconds and ops_per_s)");
        }
        List<Turn> turns = new ArrayList<>();
        for (Csv.Row row : table.rows()) {
            if (!row.whole(table)) {
                continue;
            }
            try {
                String side = row.get("side");
                if (!side.equals("BASE") && !side.equals("NEW")) {
                    throw new NumberFormatException("side '" + side + "' is neither BASE nor NEW");
                }
                turns.add(AbSlicesTurnBuilder.builder().pair(Integer.parseInt(row.get("pair")))
                        .processes(Integer.parseInt(row.get("processes"))).first(row.get("first"))
                        .side(side).ops(whole(row.get("ops"))).errors(whole(row.get("errors")))
                        .seconds(Double.parseDouble(row.get("seconds")))
                        .opsPerSecond(Double.parseDouble(row.get("ops_per_s")))
                        .p50Us(optional(row.get("p50_us"))).p99Us(optional(row.get("p99_us"))).build());
            } catch (NumberFormatException e) {
                throw new ResultFormatException(csv + ", line " + row.line() + ": " + e.getMessage());
            }
        }
        return turns;
    }

    private static long whole(String value) {
        return value == null || value.isEmpty() ? 0 : Long.parseLong(value);
    }

    private static Double optional(String value) {
        return value == null || value.isEmpty() ? null : Double.parseDouble(value);
    }
}
