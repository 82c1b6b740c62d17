package io.cpbench.core.sweep;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.core.load.Threshold;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A finished (or interrupted) sweep read back from its {@code sweep.json}: the grid's SLO and repeats, its status and
 * every cell run; {@link #analyse} runs the analysis again under an SLO (its own unless another is given).
 *
 * @param file    the sweep.json read
 * @param slo     the SLO the sweep ran with
 * @param repeats the repeats it planned
 * @param status  what the file says of the run: OK, or INCOMPLETE; null when it says nothing
 */
public record SweepFile(Path file, String slo, int repeats, io.cpbench.core.status.Status status, List<CellRun> runs) {

    public static final String FORMAT = "cpbench-sweep/1";

    /** Whether {@code dir} is a sweep's run directory (it has a sweep.json). */
    public static boolean isSweep(Path dir) {
        return Files.isRegularFile(dir.resolve("sweep.json"));
    }

    /**
     * @param dirOrFile a sweep's run directory or its sweep.json
     * @throws IllegalArgumentException with one line when it is missing, unreadable or not a cp-bench sweep
     */
    public static SweepFile read(Path dirOrFile) {
        Path file = Files.isDirectory(dirOrFile) ? dirOrFile.resolve("sweep.json") : dirOrFile;
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("no sweep.json in " + dirOrFile);
        }
        try {
            ObjectMapper json = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
            JsonNode tree = json.readTree(file.toFile());
            if (tree == null || !FORMAT.equals(tree.path("format").asText())) {
                throw new IllegalArgumentException(file + " is not a cp-bench sweep (format " + FORMAT + ")");
            }
            SweepDocument doc = json.treeToValue(tree, SweepDocument.class);
            SweepDocument.Grid grid = doc.grid();
            return new SweepFile(file, grid == null || grid.slo() == null ? "p99<10ms" : grid.slo(),
                    grid == null || grid.repeats() < 1 ? 1 : grid.repeats(), doc.status(),
                    doc.cells() == null ? List.of() : doc.cells());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    /** The SLO to analyse under: {@code text}, or the sweep's own when null ({@link SweepAnalysis#slo}). */
    public Threshold threshold(String text) {
        return SweepAnalysis.slo(text != null ? text : slo);
    }

    /** The analysis again, each run's SLO metric read back (for this SLO) from the percentiles the run kept. */
    public SweepAnalysis analyse(Threshold threshold) {
        List<CellRun> judged = runs.stream().map(r -> CellRunBuilder.builder(r).sloActual(sloOf(threshold, r)).build())
                .toList();
        List<SweepCell> cells = new ArrayList<>(new LinkedHashSet<>(runs.stream().map(CellRun::cell).toList()));
        return SweepAnalysis.of(cells, judged, threshold, repeats);
    }

    /** The SLO's metric from a run's kept percentiles; the op-specific and mean ones need the run's own histograms. */
    private static double sloOf(Threshold threshold, CellRun run) {
        if (threshold.op() != null) {
            throw new IllegalArgumentException("an op's SLO (" + threshold.text() + ") needs the run's per-op numbers;"
                    + " give one over all ops, like p99<10ms");
        }
        return switch (threshold.metricKey()) {
            case "p50" -> run.latency().p50Us();
            case "p90" -> run.latency().p90Us();
            case "p99" -> run.latency().p99Us();
            case "p99.9" -> run.latency().p999Us();
            case "max" -> run.latency().maxUs();
            default -> throw new IllegalArgumentException("cells.csv keeps p50, p90, p99, p99.9 and max; "
                    + threshold.metricKey() + " needs a new sweep");
        };
    }
}
