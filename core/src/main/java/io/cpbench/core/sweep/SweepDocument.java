package io.cpbench.core.sweep;

import io.cpbench.core.result.Environment;
import io.soabase.recordbuilder.core.RecordBuilder;

import java.util.List;

/**
 * What a sweep writes to its {@code sweep.json} ({@value SweepFile#FORMAT}); {@link SweepFile} reads it back.
 * docs/schemas/sweep.schema.json is generated from this type.
 *
 * @param format      always {@value SweepFile#FORMAT}
 * @param status      OK, or INCOMPLETE when the sweep was interrupted or a cell could not run (files written before
 *                    there was one status vocabulary say COMPLETE for OK; they read as OK)
 * @param startedAt   ISO-8601 time the first cell started
 * @param topology    the cluster the cells ran on, described
 * @param grid        what was swept
 * @param environment versions and machine
 * @param analysis    the analysis under the grid's SLO
 * @param cells       every cell run, in the order they ran
 */
public record SweepDocument(String format, io.cpbench.core.status.Status status, String startedAt, String topology, Grid grid,
                            Environment environment, SweepAnalysis analysis, List<CellRun> cells) {

    /**
     * The grid as run.
     *
     * @param freshClusters whether each repeat started a fresh cluster
     * @param slo           the SLO the knee is judged by, such as {@code p99<10ms}
     */
    @RecordBuilder
    public record Grid(List<String> scenarios, List<Integer> clients, List<Integer> threads, List<Double> rates,
                       String mix, double durationSeconds, double warmupSeconds, int repeats, boolean freshClusters,
                       String slo) {
    }
}
