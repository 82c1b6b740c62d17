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
 * @param id        a hash of what the run measured ({@link ScenarioResults#id}, or its document's hash): the same run recorded twice is one run
 * @param kind      matrix, run, load, jmh, ... (the run directory's suffix); "scenario", "load" or "jmh" for a
 *                  directory of results not named by cp-bench
 * @param status    the worst of its rows' statuses; INCOMPLETE for a run that was stopped
 * @param labels    {@code --label key=value}s
 * @param options   the command's options, as given (never a secret: those do not go on a command line)
 * @param directory where its result files are
 */
public record HistoryRun(String id, String kind, String startedAt, String endedAt, Status status, String cpbenchVersion,
                         String cpbenchCommit, String memberRelease, String clientRelease, String topology, String host,
                         Integer cores, Long maxHeapMb, String os, String jvm, String options, String directory,
                         Map<String, String> labels, List<Row> rows) {

    public HistoryRun {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        rows = rows == null ? List.of() : List.copyOf(rows);
    }

    /**
     * A run read from one document ({@code sweep.json}, {@code chaos.json}, {@code ab.json}): its id is the hash of
     * the document's bytes, so the same file is one run; its releases are the environment's.
     */
    static HistoryRun ofDocument(Path document, String kind, String startedAt, String endedAt, Status status,
                                 Environment env, String topology, List<Row> rows) {
        Path dir = document.toAbsolutePath().normalize().getParent();
        return new HistoryRun(Documents.idOf(document), kind, startedAt != null ? startedAt : endedAt, endedAt,
                status == null ? Status.UNKNOWN : status, env == null ? null : env.cpbenchVersion(),
                env == null ? null : env.cpbenchCommit(), env == null ? null : env.hazelcastVersion(),
                env == null ? null : env.hazelcastVersion(), topology, env == null ? null : env.host(),
                env == null ? null : env.cores(), env == null ? null : env.maxHeapBytes() / (1024 * 1024),
                env == null ? null : env.os(), env == null ? null : env.jvm(), null, String.valueOf(dir), Map.of(), rows);
    }

    /** The same run with these labels and options (a run recorded as it ends knows them; an import does not). */
    public HistoryRun with(Map<String, String> newLabels, String newOptions, Status newStatus) {
        return new HistoryRun(id, kind, startedAt, endedAt, newStatus, cpbenchVersion, cpbenchCommit, memberRelease,
                clientRelease, topology, host, cores, maxHeapMb, os, jvm, newOptions, directory, newLabels, rows);
    }

    /**
     * One scenario's (or load op's) numbers in one round. Latencies in µs; null where the harness measured none.
     *
     * @param variant      "" but for a sweep's cell ({@code 2x8}), a chaos run's nemesis, an ab run's side
     * @param op           "all" for a scenario's one op or a load's total, else the load op
     * @param harness      driver (cp-bench's scenario runs), load, jmh-thrpt, jmh-sample, sweep, chaos, ab
     * @param network      a (plain) or b (one slow member)
     * @param censoredFrom percentiles at or above it are lower bounds (ops abandoned in flight); null when none
     */
    public record Row(String scenario, String variant, String op, String harness, int round, String network, Status status,
                      String startedAt, long ops, long errors, double opsPerSecond, Long p50, Long p90, Long p99,
                      Long p999, Long max, Long censoredFrom, String leaderBefore, String leaderAfter, Integer termBefore,
                      Integer termAfter) {
    }
}
