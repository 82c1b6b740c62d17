package io.cpbench.core.result;

import io.cpbench.core.status.Status;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.cpbench.core.stats.Censored;
import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;

/**
 * One scenario run, self-describing: what ran, where, on which versions, the leadership before and after, the
 * counts, the percentiles, and the full latency histogram. Reports are rendered from these files alone, so old
 * runs can be re-rendered and compared.
 *
 * <h2>File format ({@value #FORMAT})</h2>
 * One JSON object per file, named {@code <round>-<scenario>.json}, next to {@code <round>-<scenario>.hlog}. Its
 * fields come in sections:
 * <ul>
 * <li>{@code format}: {@value #FORMAT}. Files of {@value #FORMAT_1} (flat: every section's fields at the top, the
 * leaders as {@code leaderBefore}/{@code leaderAfter}) are read too: {@link ResultFiles} moves their fields into
 * the sections ({@link ResultFormat#upgrade}); anything else is rejected.</li>
 * <li>{@code run} ({@link RunInfo}): {@code scenario}, {@code network} ("a" plain, "b" one slow member),
 * {@code description}, {@code round} (1-based; rounds of a matrix are interleaved), {@code harness}, and
 * {@code baseline}.
 * <ul>
 * <li>{@code harness} (optional): absent or null for cp-bench's own driver; {@code jmh-thrpt} or {@code jmh-sample}
 * for a JMH trial folded into this format (see {@code JmhResults} in the benchmarks module), {@code load} for a load
 * run. Tables keep each harness's rows apart and compare within it. For {@code jmh-thrpt}, {@code opsPerSecond} is
 * JMH's score (mean of the iterations), {@code ops} is that rate times the measured time, and there is no histogram.
 * For {@code jmh-sample}, the histogram holds JMH's samples in µs, {@code ops} is their count and
 * {@code opsPerSecond} is threads / mean sample time (Little's law for a closed loop).</li>
 * <li>{@code baseline} (optional): true for the scenario every other one of its network is compared with (the
 * client talking to the leader alone); absent in files written before it existed, which readers that know the
 * scenario catalogue fill in.</li>
 * </ul></li>
 * <li>{@code status}: one of {@link Status}; {@code reason}: why, when not OK; {@code firstError} (optional): the
 * first measured op's error, described, when any op failed.</li>
 * <li>{@code cluster} ({@link ClusterInfo}): {@code topology}, {@code name}, {@code clientTarget} (which member(s)
 * the client used), {@code members}: every member with address and priority, and {@code networkPath}: how network
 * (b) was made ({@code method}: a user-space proxy, netem, or "direct" where traffic went straight to the members),
 * the slow member ({@code slowMember}, null in (a)), the one-way {@code delayMillis} added to everything it sent, and
 * {@code clientBytesToMember}: the bytes clients sent to each member during the run, which shows which members
 * served the calls.</li>
 * <li>{@code plan}: warm-up ops, ops (0 when a duration was given), duration and time box in seconds, threads.</li>
 * <li>{@code environment}: versions of cp-bench, Hazelcast and the JVM, OS, cores, host.</li>
 * <li>{@code measured} ({@link Measured}): {@code startedAt} (ISO-8601, measured phase), {@code durationSeconds}
 * (measured phase), {@code warmupOps}, {@code ops} (successful measured ops), {@code errors} (measured ops that
 * threw), {@code opsPerSecond}, and {@code counters} (optional): counts the workload kept during the measured phase,
 * for example {@code casRetries} (re-reads after a failed compare-and-set) and {@code casGaveUp} (ops that failed
 * for it).</li>
 * <li>{@code latencyMicros}: min, mean, p50, p90, p99, p99.9 and max service time in µs, from {@code histogram};
 * {@code censored} (optional): the ops abandoned in flight, recorded in the histogram at a lower bound of their
 * latency ({@code ops}, and the smallest such value, {@code fromMicros}).</li>
 * <li>{@code leader} ({@link Leaders}): {@code before} and {@code after} the run, each the member name, address and
 * Raft term of the {@code default} group's leader, and the {@code source} they were read from ({@code members},
 * {@code metrics} or {@code inferred}); null when it could not be read.</li>
 * <li>{@code hlog}: the interval log's file name, HdrHistogram's log format, µs values.</li>
 * <li>{@code histogram}: the whole measured histogram, HdrHistogram's compressed encoding, Base64; empty where
 * the harness measured no latencies (JMH's Throughput mode).</li>
 * <li>{@code load} (optional): for a load run (harness {@code load}), what it measured per stage and per op,
 * its schedule, thresholds and invariants ({@link io.cpbench.core.load.LoadResult}); {@code measured} and
 * {@code latencyMicros} and {@code histogram} then cover all ops together, counted (open loop) from when each op was
 * due. Its per-interval CSV and per-op {@code .hlog}s are in the directory named by {@code hlog}'s parent.</li>
 * </ul>
 * Build one with {@link #builder()} (or {@link #toBuilder()} for a changed copy).
 */
public record RunResult(
        String format,
        RunInfo run,
        Status status,
        String reason,
        String firstError,
        ClusterInfo cluster,
        PlanInfo plan,
        Environment environment,
        Measured measured,
        Latency latencyMicros,
        Leaders leader,
        String hlog,
        String histogram,
        io.cpbench.core.load.LoadResult load) {

    public static final String FORMAT = "cpbench-result/2";
    /** The first, flat version of the format, still read. */
    public static final String FORMAT_1 = "cpbench-result/1";
    /** What every version of the format starts with. */
    public static final String FORMAT_PREFIX = "cpbench-result/";

    public RunResult {
        cluster = cluster == null ? ClusterInfo.UNKNOWN : cluster;
        leader = leader == null ? Leaders.UNKNOWN : leader;
    }

    /**
     * What ran: the scenario and its network, the round, and the harness that measured it.
     *
     * @param harness  null for cp-bench's own driver, else {@code load}, {@code jmh-thrpt} or {@code jmh-sample}
     * @param baseline whether this is its network's baseline; null in files written before it existed
     */
    public record RunInfo(String scenario, String network, String description, int round, String harness,
                          Boolean baseline) {
    }

    /**
     * Where it ran.
     *
     * @param clientTarget  which member(s) the client used
     * @param memberVersion the Hazelcast release the members run, as they told the client (several, comma-separated,
     *                      when they differ); null when not known (results written before it was recorded: this build's
     *                      clients then ran against members of their own release, {@code environment.hazelcastVersion})
     */
    public record ClusterInfo(String topology, String name, String clientTarget, List<MemberInfo> members,
                              NetworkPath networkPath, @JsonInclude(JsonInclude.Include.NON_NULL) String memberVersion) {
        /** Nothing known: a run that ended before its cluster was reached. */
        public static final ClusterInfo UNKNOWN = new ClusterInfo(null, null, null, List.of(),
                new NetworkPath("unknown", null, 0, Map.of()), null);

        public ClusterInfo {
            members = members == null ? List.of() : List.copyOf(members);
        }

        public ClusterInfo(String topology, String name, String clientTarget, List<MemberInfo> members,
                           NetworkPath networkPath) {
            this(topology, name, clientTarget, members, networkPath, null);
        }

        /** The same, with the members' release. */
        public ClusterInfo withMemberVersion(String version) {
            return new ClusterInfo(topology, name, clientTarget, members, networkPath, version);
        }
    }

    /**
     * What the measured phase counted.
     *
     * @param startedAt ISO-8601, when the measured phase began
     * @param ops       successful measured ops
     * @param errors    measured ops that threw
     * @param counters  counts the workload kept, for example {@code casRetries}; empty when it kept none
     */
    public record Measured(String startedAt, double durationSeconds, long warmupOps, long ops, long errors,
                           double opsPerSecond, Map<String, Long> counters) {
        public Measured {
            counters = counters == null ? Map.of() : Map.copyOf(counters);
        }
    }

    /** The {@code default} group's leader before and after the run; either is null when it could not be read. */
    public record Leaders(LeaderInfo before, LeaderInfo after) {
        public static final Leaders UNKNOWN = new Leaders(null, null);
    }

    /** A result being filled in; {@link #build()} stamps the current format. */
    public static final class Builder {
        private RunInfo run;
        private Status status;
        private String reason;
        private String firstError;
        private ClusterInfo cluster;
        private PlanInfo plan;
        private Environment environment;
        private Measured measured;
        private Latency latencyMicros;
        private Leaders leader;
        private String hlog;
        private String histogram;
        private io.cpbench.core.load.LoadResult load;

        public Builder run(RunInfo value) {
            run = value;
            return this;
        }

        public Builder status(Status value, String why) {
            status = value;
            reason = why;
            return this;
        }

        public Builder firstError(String value) {
            firstError = value;
            return this;
        }

        public Builder cluster(ClusterInfo value) {
            cluster = value;
            return this;
        }

        public Builder plan(PlanInfo value) {
            plan = value;
            return this;
        }

        public Builder environment(Environment value) {
            environment = value;
            return this;
        }

        public Builder measured(Measured value) {
            measured = value;
            return this;
        }

        /** The latency summary and, encoded, the histogram it came from. */
        public Builder latency(Latency summary, String encodedHistogram) {
            latencyMicros = summary;
            histogram = encodedHistogram;
            return this;
        }

        public Builder leader(Leaders value) {
            leader = value;
            return this;
        }

        public Builder hlog(String value) {
            hlog = value;
            return this;
        }

        public Builder load(io.cpbench.core.load.LoadResult value) {
            load = value;
            return this;
        }

        public RunResult build() {
            return new RunResult(FORMAT, run, status, reason, firstError, cluster, plan, environment, measured,
                    latencyMicros, leader, hlog, histogram, load);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this result's values: for a copy with some changed. */
    public Builder toBuilder() {
        return new Builder().run(run).status(status, reason).firstError(firstError).cluster(cluster).plan(plan)
                .environment(environment).measured(measured).latency(latencyMicros, histogram).leader(leader).hlog(hlog)
                .load(load);
    }

    /** The scenario's name (the run section's). */
    public String scenario() {
        return run.scenario();
    }

    /** The round, 1-based (the run section's). */
    public int round() {
        return run.round();
    }

    /** The harness, null for cp-bench's own driver (the run section's). */
    public String harness() {
        return run.harness();
    }

    /**
     * Whether this is its network's baseline, the run every other scenario of its network is compared with. (Not
     * named like a getter: Jackson would take it for a {@code baseline} property and, ignored, leave it out.)
     */
    @JsonIgnore
    public boolean baselineOfItsNetwork() {
        return Boolean.TRUE.equals(run.baseline());
    }

    /** This result, marked as its network's baseline or not. */
    public RunResult withBaseline(boolean value) {
        RunInfo r = run;
        return toBuilder().run(new RunInfo(r.scenario(), r.network(), r.description(), r.round(), r.harness(), value))
                .build();
    }

    /** @param name member-N; @param address host:port; @param priority has leadership priority */
    public record MemberInfo(String name, String address, boolean priority) {
    }

    /**
     * @param method      how traffic reached the members: "direct", or how the slow member was made slow
     * @param slowMember  the member whose outgoing traffic was delayed, or null
     * @param delayMillis the one-way delay added to it
     * @param clientBytesToMember bytes the clients sent to each member during warm-up and measurement, by member
     *                            name: which members served the calls; empty when the network is not observed
     */
    public record NetworkPath(String method, String slowMember, double delayMillis, Map<String, Long> clientBytesToMember) {
        public NetworkPath {
            clientBytesToMember = clientBytesToMember == null ? Map.of() : Map.copyOf(clientBytesToMember);
        }
    }

    /**
     * @param warmupOps       warm-up ops asked for; 0 when the warm-up was a time
     * @param durationSeconds 0 when the plan counted ops
     * @param warmupSeconds   the warm-up time asked for; 0 when it counted ops (and in files written before it was kept)
     */
    public record PlanInfo(long warmupOps, long ops, double durationSeconds, double timeboxSeconds, int threads,
                           Double warmupSeconds) {

        public PlanInfo {
            warmupSeconds = warmupSeconds == null ? 0.0 : warmupSeconds;
        }

        public PlanInfo(long warmupOps, long ops, double durationSeconds, double timeboxSeconds, int threads) {
            this(warmupOps, ops, durationSeconds, timeboxSeconds, threads, 0.0);
        }
    }

    /**
     * @param source how leader and term were read: {@code members} (each member asked, cp-bench's query),
     *               {@code metrics} (the members' published Raft metrics, possibly a publication period old), or
     *               {@code inferred} (from forwarding probes; no term); null in results written before it existed
     */
    public record LeaderInfo(String name, String address, int term, String source) {
        public LeaderInfo(String name, String address, int term) {
            this(name, address, term, null);
        }
    }

    /**
     * @param censored ops abandoned in flight at the end of the run, recorded in the histogram at a lower bound of
     *                 their latency; null when none (then left out of the file). Percentiles at or above its smallest
     *                 value are lower bounds ({@link Censored#lowerBound}); tables print them with "≥".
     */
    public record Latency(long min, double mean, long p50, long p90, long p99, long p999, long max,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Censored censored) {

        /** Nothing was recorded: a run without ops, or a harness that measures no latencies (JMH Throughput). */
        @JsonIgnore
        public boolean isEmpty() {
            return max == 0;
        }

        public static Latency of(Histogram histogram) {
            return of(histogram, null);
        }

        /** @param censored what of {@code histogram} was recorded censored, or null */
        public static Latency of(Histogram histogram, Censored censored) {
            if (histogram.getTotalCount() == 0) {
                return new Latency(0, 0, 0, 0, 0, 0, 0, null);
            }
            return new Latency(histogram.getMinValue(), histogram.getMean(), histogram.getValueAtPercentile(50),
                    histogram.getValueAtPercentile(90), histogram.getValueAtPercentile(99),
                    histogram.getValueAtPercentile(99.9), histogram.getMaxValue(), censored);
        }

        /** "≥" when {@code value} (one of these percentiles) is only a lower bound, else "". */
        public String mark(long value) {
            return Censored.mark(censored, value);
        }
    }

    /** What tables call this result's row: the scenario, and the harness when it is not cp-bench's own driver. */
    @JsonIgnore
    public String label() {
        return labelOf(run.scenario());
    }

    /** The label of another scenario measured by the same harness: what this result is compared with. */
    public String labelOf(String otherScenario) {
        String harness = run.harness();
        return harness == null || harness.isEmpty() ? otherScenario : otherScenario + " [" + harness + "]";
    }

    /** The measured histogram, decoded. */
    @JsonIgnore
    public Histogram decodeHistogram() {
        return decode(histogram);
    }

    public static String encode(Histogram histogram) {
        return io.cpbench.core.stats.HistogramCodec.encode(histogram);
    }

    /** @throws ResultFormatException when it is not such an encoding */
    public static Histogram decode(String encoded) {
        try {
            return io.cpbench.core.stats.HistogramCodec.decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new ResultFormatException(e.getMessage(), e);
        }
    }
}
