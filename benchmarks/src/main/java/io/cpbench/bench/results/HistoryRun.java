package io.cpbench.bench.results;

import io.cpbench.core.result.Environment;
import io.cpbench.core.status.Status;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One run as the results history keeps it: what ran, where, on which releases, how it ended, and a row per scenario
 * (or load op) and round.
 *
 * @param id        a hash of what the run measured ({@link ScenarioResults#id}, or its document's hash): the same run
 *                  recorded twice is one run
 * @param kind      matrix, run, load, jmh, ... (the run directory's suffix); "scenario", "load" or "jmh" for a
 *                  directory of results not named by cp-bench
 * @param status    the run's one verdict; INCOMPLETE for a run that was stopped
 * @param build     what ran: cp-bench's version and commit, the members' and the clients' Hazelcast releases
 * @param machine   where it ran
 * @param options   the command's options, as given (never a secret: those do not go on a command line)
 * @param directory where its result files are
 * @param labels    {@code --label key=value}s
 */
public record HistoryRun(String id, String kind, String startedAt, String endedAt, Status status, Build build,
                         String topology, Machine machine, String options, String directory, Map<String, String> labels,
                         List<Row> rows) {

    public HistoryRun {
        build = build == null ? Build.UNKNOWN : build;
        machine = machine == null ? Machine.UNKNOWN : machine;
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        rows = rows == null ? List.of() : List.copyOf(rows);
    }

    /** What ran; null where it was not recorded. */
    public record Build(String cpbenchVersion, String cpbenchCommit, String memberRelease, String clientRelease) {
        public static final Build UNKNOWN = new Build(null, null, null, null);

        /** cp-bench as the environment says, with these members' release; its clients' release the environment's. */
        public static Build of(Environment env, String memberRelease) {
            return env == null ? new Build(null, null, memberRelease, null)
                    : new Build(env.cpbenchVersion(), env.cpbenchCommit(), memberRelease, env.hazelcastVersion());
        }
    }

    /** Where it ran; null where it was not recorded. */
    public record Machine(String host, Integer cores, Long maxHeapMb, String os, String jvm) {
        public static final Machine UNKNOWN = new Machine(null, null, null, null, null);

        public static Machine of(Environment env) {
            return env == null ? UNKNOWN
                    : new Machine(env.host(), env.cores(), env.maxHeapBytes() / (1024 * 1024), env.os(), env.jvm());
        }
    }

    /**
     * A run read from one document ({@code sweep.json}, {@code chaos.json}, {@code ab.json}): its id is the hash of
     * the document's bytes, so the same file is one run; its releases are the environment's.
     */
    static HistoryRun ofDocument(Path document, String kind, String startedAt, String endedAt, Status status,
                                 Environment env, String topology, List<Row> rows) {
        Path dir = document.toAbsolutePath().normalize().getParent();
        return new HistoryRun(Documents.idOf(document), kind, startedAt != null ? startedAt : endedAt, endedAt,
                status == null ? Status.UNKNOWN : status, Build.of(env, env == null ? null : env.hazelcastVersion()),
                topology, Machine.of(env), null, String.valueOf(dir), Map.of(), rows);
    }

    /** The same run with another id, when it started and ended, and these rows (a copy for a planted series). */
    public HistoryRun as(String newId, String newStartedAt, String newEndedAt, List<Row> newRows) {
        return new HistoryRun(newId, kind, newStartedAt, newEndedAt, status, build, topology, machine, options, directory,
                labels, newRows);
    }

    /** The same run with these labels and options (a run recorded as it ends knows them; an import does not). */
    public HistoryRun with(Map<String, String> newLabels, String newOptions, Status newStatus) {
        return new HistoryRun(id, kind, startedAt, endedAt, newStatus, build, topology, machine, newOptions, directory,
                newLabels, rows);
    }

    /**
     * One scenario's (or load op's) numbers in one round.
     *
     * @param variant "" but for a sweep's cell ({@code 2x8}), a chaos run's nemesis, an ab run's side
     * @param op      "all" for a scenario's one op or a load's total, else the load op
     * @param harness driver (cp-bench's scenario runs), load, jmh-thrpt, jmh-sample, sweep, chaos, ab
     * @param network a (plain) or b (one slow member)
     */
    public record Row(String scenario, String variant, String op, String harness, int round, String network,
                      Status status, String startedAt, long ops, long errors, double opsPerSecond, Latency latency,
                      Leaders leaders) {

        public Row {
            latency = latency == null ? Latency.NONE : latency;
            leaders = leaders == null ? Leaders.NONE : leaders;
        }
    }

    /**
     * A row's latencies in µs; null where the harness measured none.
     *
     * @param censoredFrom percentiles at or above it are lower bounds (ops abandoned in flight); null when none
     */
    public record Latency(Long p50, Long p90, Long p99, Long p999, Long max, Long censoredFrom) {
        public static final Latency NONE = new Latency(null, null, null, null, null, null);
    }

    /** The CP group's leader and its term before and after a scenario run; null where not read. */
    public record Leaders(String before, String after, Integer termBefore, Integer termAfter) {
        public static final Leaders NONE = new Leaders(null, null, null, null);
    }
}
