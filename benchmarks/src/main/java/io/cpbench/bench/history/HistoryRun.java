package io.cpbench.bench.history;

import io.cpbench.core.status.Status;

import java.util.List;
import java.util.Map;

/**
 * One run as the results history keeps it: what ran, where, on which releases, how it ended, and a row per scenario
 * (or load op) and round.
 *
 * @param id        a hash of what the run measured ({@link RunImport#id}): the same run recorded twice is one run
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
