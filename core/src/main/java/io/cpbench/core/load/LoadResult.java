package io.cpbench.core.load;

import io.cpbench.core.status.Status;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.cpbench.core.stats.Censored;
import io.cpbench.core.stats.HistogramCodec;
import io.soabase.recordbuilder.core.RecordBuilder;
import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;

/**
 * What a load run measured, as plain data that goes into the result file ({@code load} in
 * {@code cpbench-result/1}). Latencies are µs. In an open loop {@code latency} counts from when each op was due
 * and {@code service} from when it really started; in a closed loop both are the service time.
 *
 * @param outcome    COMPLETED, INTERRUPTED (stopped from outside) or ABORTED (a threshold crossed, with abortOnFail);
 *                   an op-count bounded run also TIMEBOXED or FAILED (ops kept failing). Written by name.
 * @param reason     why, when not COMPLETED
 * @param spec       the spec that ran ({@link LoadSpec#describe()})
 * @param stages     numbers per stage, in order; an op counts in the stage in which it ended
 * @param total      the whole measured run
 * @param schedule   open loop: ops due, started, never started, and how late they started
 * @param thresholds each threshold with its verdict and the value it saw
 * @param invariants each invariant the run checked, and the evidence when one failed
 * @param histograms whole-run latency histogram per op, HdrHistogram's compressed encoding in Base64
 * @param agents     a row per load generator, when several ran the load ({@code --agents}); empty (left out of the
 *                   file) when this process ran it alone
 * @param caveats    what a reader should know before trusting the numbers: why the run is not steady, and its first
 *                   failed op (written as the file's own fields {@code unsteady} and {@code firstError})
 * @param warmupOps  warm-up ops that succeeded, in a run bounded by op counts ({@link LoadSpec#bounds()}); null (left
 *                   out of the file) otherwise
 * @param counters   a caller's op's own counts during the measured phase ({@link io.cpbench.core.workload.Workload#counters()},
 *                   for example CAS retries); empty for the engine's own ops
 */
@RecordBuilder
public record LoadResult(io.cpbench.core.status.Status outcome, String reason, Map<String, Object> spec, String startedAt, double seconds,
                         List<StageStats> stages, StageStats total, ScheduleStats schedule,
                         List<ThresholdResult> thresholds, List<InvariantResult> invariants,
                         Map<String, String> histograms,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) List<AgentRow> agents,
                         @JsonUnwrapped Caveats caveats,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Long warmupOps,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> counters) {

    public LoadResult {
        agents = agents == null ? List.of() : List.copyOf(agents);
        caveats = caveats == null ? Caveats.NONE : caveats;
        stages = stages == null ? List.of() : List.copyOf(stages);
        thresholds = thresholds == null ? List.of() : List.copyOf(thresholds);
        invariants = invariants == null ? List.of() : List.copyOf(invariants);
        histograms = histograms == null ? Map.of() : Map.copyOf(histograms);
        counters = counters == null ? Map.of() : Map.copyOf(counters);
    }

    /**
     * What a reader should know before trusting a run's numbers. Grouped here; in the file they are the run's own
     * fields ({@code @JsonUnwrapped}), each left out when it has nothing to say.
     *
     * @param unsteady   why a run that COMPLETED is not a steady measurement (its status is then UNSTABLE): for example a
     *                   generator that began measuring later than {@link LoadMerge#LATE_BOUND_MS}; empty when none
     * @param firstError the first measured op that failed, described ({@code Type: message}); null when none
     */
    public record Caveats(@JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> unsteady,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String firstError) {

        public static final Caveats NONE = new Caveats(List.of(), null);

        public Caveats {
            unsteady = unsteady == null ? List.of() : List.copyOf(unsteady);
        }
    }

    /**
     * The latency of every measured op, all ops together, µs: the sum of {@link #histograms}, which holds the
     * successful ops and those abandoned in flight (at their latency so far, {@link #censored()}). In a closed loop it
     * is the sum of the intervals written to the run's {@code .hlog}.
     */
    @JsonIgnore
    public Histogram latencyHistogram() {
        Histogram all = new Histogram(Recording.MAX_MICROS, 3);
        histograms.values().forEach(encoded -> all.add(HistogramCodec.decode(encoded)));
        return all;
    }

    /** Measured ops that succeeded, all ops together. */
    @JsonIgnore
    public long ops() {
        return total == null ? 0 : total.all().ops();
    }

    /** Measured ops that failed, all ops together. */
    @JsonIgnore
    public long errors() {
        return total == null ? 0 : total.all().errors();
    }

    @JsonIgnore
    public double opsPerSecond() {
        return total == null ? 0 : total.all().opsPerSecond();
    }

    /** The measured ops abandoned in flight, in {@link #latencyHistogram()} at a lower bound; null when none. */
    @JsonIgnore
    public Censored censored() {
        return total == null ? null : total.all().latency().censored();
    }

    /** Every threshold held (true when there are none). */
    @JsonIgnore
    public boolean thresholdsPassed() {
        return thresholds.stream().allMatch(ThresholdResult::passed);
    }

    /** Each threshold crossed, with the value seen: {@code cas:p99<1ms (was 8.76ms)}; empty when all held. */
    public List<String> crossedThresholds() {
        return thresholds.stream().filter(t -> !t.passed()).map(t -> t.threshold() + " (was " + t.actual() + ")").toList();
    }

    /** Every invariant held (true when none was checked). */
    @JsonIgnore
    public boolean invariantsHold() {
        return invariants.stream().allMatch(InvariantResult::holds);
    }

    /**
     * @param stage     1-based; 0 for the whole run
     * @param seconds   how long it lasted, as measured
     * @param fromLevel the level at its start (workers, or op/s in an open loop)
     * @param toLevel   its target
     * @param ops       per op, in the mix's order
     * @param all       all ops together
     * @param lag       how late ops started (open loop), or null
     */
    public record StageStats(int stage, double seconds, double fromLevel, double toLevel, List<OpStats> ops, OpStats all,
                             LoadLatency lag) {
        public StageStats {
            ops = ops == null ? List.of() : List.copyOf(ops);
        }
    }

    /**
     * @param ops        successful ops
     * @param errors     failed ops (their outcome is unknown: they are never counted as lost or as done)
     * @param errorTypes failed ops by exception type (with its cause's type, when it has one)
     */
    public record OpStats(String op, long ops, long errors, double opsPerSecond, double errorRate, LoadLatency latency,
                          LoadLatency service, Map<String, Long> errorTypes) {
        public OpStats {
            errorTypes = errorTypes == null ? Map.of() : Map.copyOf(errorTypes);
        }

        static OpStats empty(String op) {
            return new OpStats(op, 0, 0, 0, 0, LoadLatency.EMPTY, LoadLatency.EMPTY, Map.of());
        }
    }

    /**
     * Latency percentiles, µs.
     *
     * @param count    values recorded: successful ops, and ops abandoned in flight (counted in {@code censored})
     * @param censored ops abandoned in flight, recorded at a lower bound of their latency; null when none (then
     *                 left out of the file). Percentiles at or above its smallest value are lower bounds
     *                 ({@link Censored#lowerBound}).
     */
    @RecordBuilder
    public record LoadLatency(long count, long min, double mean, long p50, long p90, long p95, long p99, long p999,
                              long max, @JsonInclude(JsonInclude.Include.NON_NULL) Censored censored) {
        public static final LoadLatency EMPTY = LoadResultLoadLatencyBuilder.builder().build();

        public static LoadLatency of(Histogram h) {
            return of(h, null);
        }

        /** @param censored what of {@code h} was recorded censored, or null */
        public static LoadLatency of(Histogram h, Censored censored) {
            if (h.getTotalCount() == 0) {
                return EMPTY;
            }
            return LoadResultLoadLatencyBuilder.builder().count(h.getTotalCount()).min(h.getMinValue())
                    .mean(h.getMean()).p50(h.getValueAtPercentile(50)).p90(h.getValueAtPercentile(90))
                    .p95(h.getValueAtPercentile(95)).p99(h.getValueAtPercentile(99))
                    .p999(h.getValueAtPercentile(99.9)).max(h.getMaxValue()).censored(censored).build();
        }

        /** "≥" when {@code value} (one of these percentiles) is only a lower bound, else "". */
        public String mark(long value) {
            return Censored.mark(censored, value);
        }
    }

    /**
     * @param due       ops the schedule made due
     * @param started   ops that started
     * @param unstarted ops due that never started: the workers were all busy until the drain ran out
     * @param late      ops that started more than 1 ms after they were due
     * @param abandoned ops still in flight when the drain ran out (outcome unknown)
     */
    public record ScheduleStats(long due, long started, long unstarted, long late, long abandoned, LoadLatency lag) {
    }

    /** @param actual the value the threshold compared, formatted; "no ops measured" when there was none */
    public record ThresholdResult(String threshold, boolean passed, String actual) {
    }

    /** @param evidence what was seen: counts when it holds, the offending ops when it does not */
    public record InvariantResult(String name, boolean holds, String evidence) {
    }

    /**
     * What one load generator ran and measured of a load that several ran.
     *
     * @param agent         its name
     * @param host          where it ran
     * @param clockOffsetMs its clock minus the coordinator's, as measured before the run (best of several round trips)
     * @param outcome       how its part ended; null when it returned nothing (it died or was cut off)
     * @param reason        why, when not COMPLETED
     * @param all           its ops, all together; null when it returned nothing
     * @param histograms    its own latency histogram per op, encoded as {@link LoadResult#histograms}; empty when it
     *                      returned nothing
     * @param lateMs        how long after the first generator it began to measure (its clock offset applied); null
     *                      when not known
     */
    public record AgentRow(String agent, String host, double clockOffsetMs, io.cpbench.core.status.Status outcome,
                           String reason, OpStats all, Map<String, String> histograms,
                           @JsonInclude(JsonInclude.Include.NON_NULL) Double lateMs) {
        public AgentRow {
            histograms = histograms == null ? Map.of() : Map.copyOf(histograms);
        }
    }
}
