package io.cpbench.core.sweep;

import io.cpbench.core.csv.Csv;

import io.cpbench.core.status.Status;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * One measured run of a cell. Latencies are µs, over every op of the run (all op types together).
 *
 * @param repeat    1-based
 * @param status    the run's status: OK, UNSTABLE (the cluster changed under it; still counted), FAIL or
 *                  INCOMPLETE (interrupted; not counted)
 * @param reason    why, when not OK
 * @param sloActual the SLO's metric for this run (µs), as {@code Threshold.actual} reads it
 * @param agents    with {@code --agents}, each load generator's share of the run (the numbers above merge theirs);
 *                  empty when this process ran the load
 * @param censored  the ops abandoned in flight at the end, recorded at a lower bound of their latency: a percentile at
 *                  or above its {@code fromMicros} is only a lower bound, shown "≥"; null when none
 */
@RecordBuilder
public record CellRun(int repeat, SweepCell cell, io.cpbench.core.status.Status status, String reason, double seconds, long ops, long errors,
                      double opsPerSecond, @com.fasterxml.jackson.annotation.JsonUnwrapped Latencies latency, double sloActual,
                      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                      java.util.List<Agent> agents,
                      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                      io.cpbench.core.stats.Censored censored) {

    public CellRun {
        agents = agents == null ? java.util.List.of() : java.util.List.copyOf(agents);
        latency = latency == null ? Latencies.NONE : latency;
    }

    /**
     * The run's latencies, µs, over every op of the run: written into the cell run's JSON as its own fields
     * ({@code p50Us} ... {@code maxUs}, {@code @JsonUnwrapped}), as they were before they were grouped.
     */
    public record Latencies(long p50Us, long p90Us, long p99Us, long p999Us, long maxUs) {
        /** A run that measured nothing (one that FAILed before its load). */
        public static final Latencies NONE = new Latencies(0, 0, 0, 0, 0);
    }

    /**
     * One load generator's share of a cell's run.
     *
     * @param outcome the agent's own outcome (COMPLETED, INTERRUPTED, ...), or null when it returned no result
     * @param reason  why not, when it did not complete
     */
    public record Agent(String name, io.cpbench.core.status.Status outcome, String reason, long ops, double opsPerSecond,
                        long p99Us) {
    }

    /** "≥" when {@code percentileUs} (one of this run's) is only a lower bound, else "". */
    public String mark(long percentileUs) {
        return io.cpbench.core.stats.Censored.mark(censored, percentileUs);
    }

    /** Counted in the analysis: it ran to its end on a cluster that stayed up. */
    public boolean usable() {
        return (status == io.cpbench.core.status.Status.OK || status == io.cpbench.core.status.Status.UNSTABLE) && ops > 0;
    }

    public static final String CSV_HEADER = "repeat,routing,clients,threads,workers,rate,status,seconds,ops,errors,"
            + "ops_per_s,p50_us,p90_us,p99_us,p999_us,max_us,slo_actual_us,member_settings,reason,censored_from_us";

    public String csvLine() {
        return Csv.row(repeat, cell.routing(), cell.clients(), cell.threads(), cell.workers(),
                cell.rate() == null ? "" : String.format(java.util.Locale.ROOT, "%.0f", cell.rate()), status.name(),
                String.format(java.util.Locale.ROOT, "%.3f", seconds), ops, errors,
                String.format(java.util.Locale.ROOT, "%.1f", opsPerSecond), latency.p50Us(), latency.p90Us(), latency.p99Us(),
                latency.p999Us(), latency.maxUs(),
                String.format(java.util.Locale.ROOT, "%.0f", sloActual), oneLine(cell.members()), oneLine(reason),
                censored == null ? "" : censored.fromMicros());
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replace('\n', ' ');
    }
}
