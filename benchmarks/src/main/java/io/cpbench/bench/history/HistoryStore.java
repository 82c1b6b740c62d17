package io.cpbench.bench.history;

import io.cpbench.bench.results.HistoryRun;
import io.cpbench.core.status.Status;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static io.cpbench.bench.history.Sql.bind;
import static io.cpbench.bench.history.Sql.integer;
import static io.cpbench.bench.history.Sql.isDuplicate;
import static io.cpbench.bench.history.Sql.longValue;
import static io.cpbench.bench.history.Sql.string;

/**
 * The results history: a SQL database of every run ({@link HistoryRun}), SQLite in a file by default, PostgreSQL for
 * a team. Its schema is versioned by Flyway (migrations in {@code io/cpbench/bench/history/migration}, docs/history.md):
 * opening a store reads the version Flyway recorded, refuses one newer than this build knows ({@link TooNew}), and runs
 * Flyway only when the schema is missing or older.
 *
 * <p>Every write is one transaction; SQLite runs in WAL mode with a busy timeout, so two runs that end at once both
 * land. Between writes the connection is in auto-commit mode, holding no lock: a store kept open (a report reading it,
 * a run that readied it) never keeps another process from writing. sqlite-jdbc begins the next transaction the moment
 * one commits or rolls back, and in IMMEDIATE mode that takes the write lock, so a transaction here ends by returning
 * to auto-commit, never by {@code commit()}. Every connection has a timeout. A password never goes in the URL (a
 * command line shows it): PostgreSQL's comes from {@code PGPASSWORD} in the environment or the user's {@code .pgpass}.
 */
public final class HistoryStore implements AutoCloseable {

    /** The schema version this build writes: the highest migration's ({@code V1__runs.sql}; a test keeps them equal). */
    static final int SCHEMA_VERSION = 1;
    /** How long a writer waits for another's lock (SQLite), and the longest a connection may take to open, seconds. */
    static final int BUSY_TIMEOUT_MS = 10_000;
    static final int CONNECT_TIMEOUT_S = 10;
    /** The longest a statement may take before it is given up, seconds. */
    static final int STATEMENT_TIMEOUT_S = 60;

    /** The store's schema is newer than this build knows: use a newer cp-bench with it. */
    public static final class TooNew extends IllegalArgumentException {
        TooNew(String message) {
            super(message);
        }
    }

    private final String shown;
    private final Sql sql;
    private final boolean sqlite;

    private HistoryStore(String shown, Connection connection, boolean sqlite) {
        this.shown = shown;
        this.sql = new Sql(connection, shown, STATEMENT_TIMEOUT_S);
        this.sqlite = sqlite;
    }

    /**
     * Opens (creating a SQLite file if need be) and migrates the store at {@code where}: a file path, or a JDBC URL
     * ({@code jdbc:postgresql://host/db?user=...}, {@code jdbc:sqlite:...}).
     *
     * @throws IllegalArgumentException (one line) when it cannot be reached or is not a history store
     * @throws TooNew                   (one line, bad input) when its schema is newer than this build's
     */
    public static HistoryStore open(String where) {
        StoreOpening.Opened opened = StoreOpening.open(where);
        return new HistoryStore(opened.shown(), opened.connection(), opened.sqlite());
    }

    /** Whether there is a store at {@code where} to read: a SQLite file that exists, or any server's URL. */
    public static boolean present(String where) {
        return StoreOpening.present(where);
    }

    public String shown() {
        return shown;
    }

    /**
     * Adds a run and its rows in one transaction. A run already there (the same id) is left as it is.
     *
     * @return whether it was added
     */
    public boolean add(HistoryRun run) {
        try {
            return sql.transaction(() -> insert(run));
        } catch (SQLException e) {
            if (isDuplicate(e)) {
                return false; // another process added the same run meanwhile
            }
            throw sql.failed("cannot add run " + run.id(), e);
        }
    }

    private boolean insert(HistoryRun run) throws SQLException {
        if (exists(run.id())) {
            return false;
        }
        try (PreparedStatement s = sql.prepare("INSERT INTO runs (id, kind, started_at, ended_at, status, cpbench_version,"
                + " cpbench_commit, member_release, client_release, topology, host, cores, max_heap_mb, os, jvm, options,"
                + " directory, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            HistoryRun.Build b = run.build();
            HistoryRun.Machine m = run.machine();
            bind(s, run.id(), run.kind(), run.startedAt(), run.endedAt(), run.status().name(), b.cpbenchVersion(),
                    b.cpbenchCommit(), b.memberRelease(), b.clientRelease(), run.topology(), m.host(), m.cores(),
                    m.maxHeapMb(), m.os(), m.jvm(), run.options(), run.directory(), Instant.now().toString());
            s.executeUpdate();
        }
        try (PreparedStatement s = sql.prepare("INSERT INTO run_labels (run_id, name, value) VALUES (?, ?, ?)")) {
            for (Map.Entry<String, String> label : run.labels().entrySet()) {
                bind(s, run.id(), label.getKey(), label.getValue());
                s.addBatch();
            }
            s.executeBatch();
        }
        // a row whose key a run already has (two result files of one scenario and round) is kept once
        try (PreparedStatement s = sql.prepare("INSERT INTO measurements (run_id, scenario, variant, op, harness, round,"
                + " network, status, started_at, ops, errors, ops_per_second, p50_us, p90_us, p99_us, p999_us, max_us,"
                + " censored_from_us, leader_before, leader_after, term_before, term_after)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            for (HistoryRun.Row r : run.rows()) {
                HistoryRun.Latency l = r.latency();
                HistoryRun.Leaders leaders = r.leaders();
                bind(s, run.id(), r.scenario(), r.variant(), r.op(), r.harness(), r.round(), r.network(), r.status().name(),
                        r.startedAt(), r.ops(), r.errors(), r.opsPerSecond(), l.p50(), l.p90(), l.p99(), l.p999(),
                        l.max(), l.censoredFrom(), leaders.before(), leaders.after(), leaders.termBefore(),
                        leaders.termAfter());
                s.addBatch();
            }
            s.executeBatch();
        }
        return true;
    }

    /** Records an acknowledgement of the change point before run {@code runId} in {@code series}. */
    public void ack(String series, String runId, String reason) {
        try (PreparedStatement s = sql.prepare("INSERT INTO acks (series, run_id, reason, acked_at) VALUES (?, ?, ?, ?)")) {
            bind(s, series, runId, reason, Instant.now().toString());
            s.executeUpdate(); // one statement: its own transaction
        } catch (SQLException e) {
            if (isDuplicate(e)) {
                return;
            }
            throw sql.failed("cannot record the acknowledgement", e);
        }
    }

    /** The acknowledged change points: series → run ids (the first run after each change). */
    public Map<String, List<String>> acks() {
        Map<String, List<String>> acks = new LinkedHashMap<>();
        sql.query("SELECT series, run_id FROM acks ORDER BY acked_at", List.of(),
                rs -> acks.computeIfAbsent(string(rs, 1), k -> new ArrayList<>()).add(string(rs, 2)));
        return acks;
    }

    /** Runs, newest first, at most {@code limit}, without their rows: two statements, whatever the limit. */
    public List<HistoryRun> runs(int limit) {
        String newest = "SELECT id FROM runs ORDER BY started_at DESC, id LIMIT ?";
        List<HistoryRun> runs = new ArrayList<>();
        sql.query(RUN_COLUMNS + " WHERE id IN (" + newest + ") ORDER BY started_at DESC, id", List.of(limit),
                rs -> runs.add(run(rs, Map.of(), List.of())));
        if (runs.isEmpty()) {
            return runs;
        }
        Map<String, Map<String, String>> labels = new HashMap<>();
        sql.query("SELECT run_id, name, value FROM run_labels WHERE run_id IN (" + newest + ") ORDER BY run_id, name",
                List.of(limit), rs -> labels.computeIfAbsent(string(rs, 1), k -> new LinkedHashMap<>()).put(string(rs, 2),
                        string(rs, 3)));
        runs.replaceAll(r -> r.with(labels.getOrDefault(r.id(), Map.of()), r.options(), r.status()));
        return runs;
    }

    /** Each run's directory, by run id: where a report's points link to. */
    public Map<String, String> directories() {
        Map<String, String> directories = new HashMap<>();
        sql.query("SELECT id, directory FROM runs", List.of(), rs -> directories.put(string(rs, 1), string(rs, 2)));
        return directories;
    }

    /** How many runs the store holds. */
    public long count() {
        long[] n = new long[1];
        sql.query("SELECT COUNT(*) FROM runs", List.of(), rs -> n[0] = rs.getLong(1));
        return n[0];
    }

    /** The run whose id is {@code id} or starts with it (at least 6 characters), with its rows; null when none. */
    public HistoryRun run(String id) {
        if (id.length() < 6) {
            throw new IllegalArgumentException("give at least 6 characters of a run id, as history list shows them");
        }
        List<String> ids = new ArrayList<>();
        sql.query("SELECT id FROM runs WHERE id LIKE ? ORDER BY id", List.of(id.replace("%", "") + "%"), rs -> ids.add(string(rs, 1)));
        if (ids.size() > 1) {
            throw new IllegalArgumentException(id + " names " + ids.size() + " runs; give more of its id");
        }
        return ids.isEmpty() ? null : run(ids.get(0), true);
    }

    private HistoryRun run(String id, boolean withRows) {
        HistoryRun[] found = new HistoryRun[1];
        Map<String, String> labels = new LinkedHashMap<>();
        sql.query("SELECT name, value FROM run_labels WHERE run_id = ? ORDER BY name", List.of(id),
                rs -> labels.put(string(rs, 1), string(rs, 2)));
        List<HistoryRun.Row> rows = withRows ? points(List.of(id)).stream().map(SeriesPoint::row).toList() : List.of();
        sql.query(RUN_COLUMNS + " WHERE id = ?", List.of(id), rs -> found[0] = run(rs, labels, rows));
        return found[0];
    }

    private static final String RUN_COLUMNS = "SELECT id, kind, started_at, ended_at, status, cpbench_version,"
            + " cpbench_commit, member_release, client_release, topology, host, cores, max_heap_mb, os, jvm, options,"
            + " directory FROM runs";

    private static HistoryRun run(ResultSet rs, Map<String, String> labels, List<HistoryRun.Row> rows) throws SQLException {
        return new HistoryRun(string(rs, 1), string(rs, 2), string(rs, 3), string(rs, 4), Status.read(string(rs, 5)),
                new HistoryRun.Build(string(rs, 6), string(rs, 7), string(rs, 8), string(rs, 9)), string(rs, 10),
                new HistoryRun.Machine(string(rs, 11), integer(rs, 12), longValue(rs, 13), string(rs, 14), string(rs, 15)),
                string(rs, 16), string(rs, 17), labels, rows);
    }

    /**
     * A row with its run's context: what a series is made of.
     *
     * @param labels the run's labels, {@code k=v,k=v} in name order
     */
    public record SeriesPoint(String runId, String runStartedAt, String commit, String memberRelease, String topology,
                              String labels, String kind, HistoryRun.Row row) {
    }

    /**
     * Which rows to read; a null field selects any.
     *
     * @param since  an instant: runs that started before it are left out
     * @param okOnly only rows that ended OK (what a series is made of)
     */
    public record Selection(String since, String scenario, String op, String harness, String topology,
                            String memberRelease, boolean okOnly) {

        /** Every row. */
        public static final Selection ALL = new Selection(null, null, null, null, null, null, false);
    }

    /**
     * Every row, oldest run first, with its run's context; {@code since} (an instant, or null) leaves older runs out.
     */
    public List<SeriesPoint> points(String since) {
        return points(new Selection(since, null, null, null, null, null, false));
    }

    /** The most runs whose labels are read by naming them. */
    private static final int NAMED_RUNS = 100;

    /** The rows of the runs {@code runIds}, oldest run first, with their runs' context. */
    public List<SeriesPoint> points(java.util.Collection<String> runIds) {
        if (runIds.isEmpty()) {
            return List.of();
        }
        return rows("WHERE m.run_id IN (" + String.join(", ", java.util.Collections.nCopies(runIds.size(), "?")) + ")",
                new ArrayList<Object>(runIds));
    }

    /** The rows {@code selection} selects, oldest run first, with their runs' context; chosen by the database. */
    public List<SeriesPoint> points(Selection selection) {
        List<String> where = new ArrayList<>();
        List<Object> args = new ArrayList<>();
        String[][] equal = {{"r.started_at >=", selection.since()}, {"m.scenario =", selection.scenario()},
                {"m.op =", selection.op()}, {"m.harness =", selection.harness()}, {"r.topology =", selection.topology()},
                {"r.member_release =", selection.memberRelease()}, {"m.status =", selection.okOnly() ? Status.OK.name() : null}};
        for (String[] condition : equal) {
            if (condition[1] != null) {
                where.add(condition[0] + " ?");
                args.add(condition[1]);
            }
        }
        return rows(where.isEmpty() ? "" : "WHERE " + String.join(" AND ", where), args);
    }

    /**
     * Each read is a statement of its own (auto-commit; see the class): the rows are read before the labels, so that a
     * run added between the two has its labels read too (a run goes in whole, in one transaction).
     */
    private List<SeriesPoint> rows(String where, List<Object> args) {
        List<SeriesPoint> points = new ArrayList<>();
        sql.query("SELECT m.run_id, r.started_at, r.cpbench_commit, r.member_release, r.topology, r.kind, m.scenario,"
                + " m.variant, m.op, m.harness, m.round, m.network, m.status, m.started_at, m.ops, m.errors,"
                + " m.ops_per_second, m.p50_us, m.p90_us, m.p99_us, m.p999_us, m.max_us, m.censored_from_us,"
                + " m.leader_before, m.leader_after, m.term_before, m.term_after FROM measurements m JOIN runs r"
                + " ON r.id = m.run_id " + where + " ORDER BY r.started_at, r.id, m.scenario, m.variant, m.op, m.harness,"
                + " m.round", args, rs -> points.add(new SeriesPoint(string(rs, 1), string(rs, 2), string(rs, 3),
                string(rs, 4), string(rs, 5), "", string(rs, 6),
                new HistoryRun.Row(string(rs, 7), string(rs, 8), string(rs, 9), string(rs, 10), rs.getInt(11),
                        string(rs, 12), Status.read(string(rs, 13)), string(rs, 14), rs.getLong(15), rs.getLong(16),
                        rs.getDouble(17), new HistoryRun.Latency(longValue(rs, 18), longValue(rs, 19), longValue(rs, 20),
                        longValue(rs, 21), longValue(rs, 22), longValue(rs, 23)),
                        new HistoryRun.Leaders(string(rs, 24), string(rs, 25), integer(rs, 26), integer(rs, 27))))));
        if (points.isEmpty()) {
            return points;
        }
        // the labels of these rows' runs: named when they are few (a run's report, history show), else all (a few per
        // run, far fewer than the rows)
        List<Object> runIds = new ArrayList<>(new java.util.LinkedHashSet<>(points.stream().map(SeriesPoint::runId).toList()));
        String which = runIds.size() > NAMED_RUNS ? ""
                : " WHERE run_id IN (" + String.join(", ", java.util.Collections.nCopies(runIds.size(), "?")) + ")";
        Map<String, String> labels = new HashMap<>();
        sql.query("SELECT run_id, name, value FROM run_labels" + which + " ORDER BY run_id, name",
                runIds.size() > NAMED_RUNS ? List.of() : runIds,
                rs -> labels.merge(string(rs, 1), string(rs, 2) + "=" + string(rs, 3), (a, b) -> a + "," + b));
        List<SeriesPoint> labelled = new ArrayList<>(points.size());
        for (SeriesPoint p : points) {
            labelled.add(new SeriesPoint(p.runId(), p.runStartedAt(), p.commit(), p.memberRelease(), p.topology(),
                    labels.getOrDefault(p.runId(), ""), p.kind(), p.row()));
        }
        return labelled;
    }

    private boolean exists(String id) throws SQLException {
        try (PreparedStatement s = sql.prepare("SELECT 1 FROM runs WHERE id = ?")) {
            bind(s, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Whether this store is a SQLite file (else a server's database). */
    public boolean sqlite() {
        return sqlite;
    }

    @Override
    public void close() {
        sql.close();
    }

    /** For tests: runs {@code body} on the connection. */
    void withConnection(Consumer<Connection> body) {
        body.accept(sql.connection());
    }
}
