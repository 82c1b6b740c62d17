package io.cpbench.bench.history;

import io.cpbench.bench.results.HistoryRun;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The store on SQLite files: what goes in comes out, twice is once, and what cannot work says so in one line. */
class HistoryStoreTest {

    @TempDir
    Path dir;

    static HistoryRun run(String id, String startedAt, String commit, double opsPerSecond, Map<String, String> labels) {
        HistoryRun.Row row = new HistoryRun.Row("client-leader", "", "all", "driver", 1, "a", Status.OK, startedAt, 1_000, 0,
                opsPerSecond, new HistoryRun.Latency(800L, 900L, 1_500L, 3_000L, 9_000L, null),
                new HistoryRun.Leaders("member-0", "member-0", 1, 1));
        return new HistoryRun(id, "run", startedAt, startedAt, Status.OK, new HistoryRun.Build("0.1.0", commit, "5.4.0", "5.4.0"),
                "local", new HistoryRun.Machine("host", 2, 1024L, "Linux", "OpenJDK"), "cpbench run --quick", "/tmp/x",
                labels, List.of(row));
    }

    @Test
    void aRunGoesInOnceAndComesBackAsItWent() {
        String where = dir.resolve("h.db").toString();
        HistoryRun run = run("abcdef0123456789", "2026-11-28T05:00:00Z", "8e4b343", 1_234.5, Map.of("env", "lab"));
        try (HistoryStore store = HistoryStore.open(where)) {
            assertThat(store.add(run)).isTrue();
            assertThat(store.add(run)).as("the same run again").isFalse();
            assertThat(store.count()).isEqualTo(1);
            HistoryRun back = store.run("abcdef");
            assertThat(back).isEqualTo(run);
            assertThat(store.run("fedcba")).isNull();
            assertThatThrownBy(() -> store.run("abc")).hasMessageContaining("at least 6 characters");
            assertThat(store.points(HistoryStore.Selection.ALL)).singleElement().satisfies(p -> {
                assertThat(p.labels()).isEqualTo("env=lab");
                assertThat(p.commit()).isEqualTo("8e4b343");
                assertThat(p.row()).isEqualTo(run.rows().get(0));
            });
            assertThat(store.points("2026-11-29T00:00:00Z")).isEmpty();
        }
        try (HistoryStore again = HistoryStore.open(where)) {
            assertThat(again.count()).as("a second open migrates nothing and keeps the rows").isEqualTo(1);
        }
    }

    @Test
    void twoWritersThatEndAtOnceBothLand() throws Exception {
        String where = dir.resolve("h.db").toString();
        HistoryStore.open(where).close();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> adds = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                String id = String.format("%016x", i);
                adds.add(pool.submit(() -> {
                    try (HistoryStore store = HistoryStore.open(where)) {
                        return store.add(run(id, "2026-11-28T05:00:" + id.substring(14) + "Z", "c", 1_000, Map.of()));
                    }
                }));
            }
            for (Future<Boolean> add : adds) {
                assertThat(add.get(60, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        try (HistoryStore store = HistoryStore.open(where)) {
            assertThat(store.count()).isEqualTo(16);
        }
    }

    @Test
    void aStoreNewerThanThisBuildIsRefusedInOneLine() throws Exception {
        String where = dir.resolve("h.db").toString();
        try (HistoryStore store = HistoryStore.open(where)) {
            store.withConnection(c -> {
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
                            + " checksum, installed_by, installed_on, execution_time, success) VALUES (99, '99', 'later', 'SQL',"
                            + " 'V99__later.sql', 0, 'test', '2026-11-28 05:00:00', 1, 1)");
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        assertThatThrownBy(() -> HistoryStore.open(where)).isInstanceOf(HistoryStore.TooNew.class)
                .hasMessage("history store " + where + " has schema version 99, newer than this cp-bench knows (1): use a"
                        + " newer cp-bench with it");
    }

    @Test
    void aCorruptFileOrAPasswordInTheUrlGetsOneLine() throws Exception {
        Path corrupt = dir.resolve("corrupt.db");
        Files.write(corrupt, "this is not a database, it only has its name".repeat(200).getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> HistoryStore.open(corrupt.toString())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("history store " + corrupt + ": ").satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> HistoryStore.open("jdbc:postgresql://127.0.0.1:1/x?user=u&password=secret"))
                .hasMessage("history store jdbc:postgresql://127.0.0.1:1/x: a password in the URL would show on the command"
                        + " line; give it in PGPASSWORD or ~/.pgpass instead");
        assertThatThrownBy(() -> HistoryStore.open("jdbc:postgresql://127.0.0.1:1/x?user=u"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("history store jdbc:postgresql://127.0.0.1:1/x: ");
    }

    /**
     * A run readies its store as it starts and records as it ends; runs that end meanwhile must not wait for it. (The
     * first version held the store open through the run, and an open SQLite connection holds its write lock: CI's
     * sweep and ab runs, ending while others ran, got SQLITE_BUSY after the 10 s busy timeout.)
     */
    @Test
    void aRunThatHasBegunRecordingDoesNotBlockOthersFromRecording() throws Exception {
        Path runDir = dir.resolve("20261128-060000-run");
        Files.createDirectories(runDir);
        Files.copy(Path.of("../results/reference/local-2core-quick-20261125/01-client-leader.json"), runDir.resolve("01-client-leader.json"));
        Recorder recorder = new Recorder(dir.resolve("h.db").toString(), Map.of(), "cpbench run");
        Recorder.Pending longRun = recorder.begin();
        // readied (opened, migrated, closed again), its run still going
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(longRun::readied);
        ByteArrayOutputStream other = new ByteArrayOutputStream();
        recorder.record(runDir, "run", false, new PrintStream(other, true, StandardCharsets.UTF_8));
        // had the first recording kept the store's write lock, this one would wait out the busy timeout and then
        // say "history: not recorded (... SQLITE_BUSY ...)": the line tells, however long the machine took
        assertThat(other.toString(StandardCharsets.UTF_8)).startsWith("history: recorded run ");
        ByteArrayOutputStream own = new ByteArrayOutputStream();
        longRun.record(runDir, "run", false, new PrintStream(own, true, StandardCharsets.UTF_8));
        assertThat(own.toString(StandardCharsets.UTF_8)).startsWith("history: already had run ");
    }

    @Test
    void anAddThatFailsLeavesNothingAndTheStoreGoesOn() {
        try (HistoryStore store = HistoryStore.open(dir.resolve("h.db").toString())) {
            failedAddLeavesNothing(store, "0000000000000a01");
        }
    }

    /**
     * Adds a run whose second row the schema refuses (no scenario): the add fails in one line, the run's first rows
     * are rolled back with it, and the same store then adds a run as usual. Also on PostgreSQL (HistoryPostgresIT).
     */
    static void failedAddLeavesNothing(HistoryStore store, String id) {
        HistoryRun good = run(id, "2026-11-28T05:00:00Z", "c", 1_000, Map.of("env", "lab"));
        HistoryRun.Row row = good.rows().get(0);
        HistoryRun.Row bad = new HistoryRun.Row(null, "", "all", "driver", 2, "a", Status.OK, row.startedAt(), 1, 0, 1.0,
                null, null);
        HistoryRun broken = good.as(id, good.startedAt(), good.endedAt(), List.of(row, bad));
        long before = store.count();
        assertThatThrownBy(() -> store.add(broken)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("history store " + store.shown() + ": cannot add run " + id + ": ");
        assertThat(store.count()).as("nothing of the failed run").isEqualTo(before);
        assertThat(store.run(id)).isNull();
        assertThat(store.add(good)).as("the same store, afterwards").isTrue();
        assertThat(store.run(id)).isEqualTo(good);
    }

    /**
     * A store kept open, that has read and written, holds no lock: another process's run still goes in (sqlite-jdbc
     * begins a transaction the moment one commits, which in IMMEDIATE mode took the write lock until the store closed).
     */
    @Test
    void aStoreKeptOpenDoesNotKeepOthersFromWriting() {
        String where = dir.resolve("h.db").toString();
        try (HistoryStore open = HistoryStore.open(where)) {
            assertThat(open.add(run("0000000000000001", "2026-11-28T05:00:00Z", "c", 1_000, Map.of("env", "lab")))).isTrue();
            assertThat(open.count()).isEqualTo(1);
            assertThat(open.points(HistoryStore.Selection.ALL)).hasSize(1);
            try (HistoryStore other = HistoryStore.open(where)) {
                assertThat(other.add(run("0000000000000002", "2026-11-28T05:01:00Z", "c", 1_100, Map.of()))).isTrue();
                other.ack("client-leader", "0000000000000002", "a test");
            }
            assertThat(open.count()).as("the open store sees the other's run").isEqualTo(2);
            assertThat(open.points(HistoryStore.Selection.ALL)).extracting(HistoryStore.SeriesPoint::labels)
                    .containsExactly("env=lab", "");
            assertThat(open.add(run("0000000000000003", "2026-11-28T05:02:00Z", "c", 1_200, Map.of()))).isTrue();
            assertThat(open.acks()).containsOnlyKeys("client-leader");
            assertThat(open.runs(2)).as("the newest two, with their labels").extracting(HistoryRun::id, HistoryRun::labels)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("0000000000000003", Map.of()),
                            org.assertj.core.groups.Tuple.tuple("0000000000000002", Map.of()));
            assertThat(open.runs(5)).extracting(HistoryRun::labels).last().isEqualTo(Map.of("env", "lab"));
            assertThat(open.points(List.of("0000000000000001", "0000000000000003"))).extracting(HistoryStore.SeriesPoint::runId,
                    HistoryStore.SeriesPoint::labels).containsExactly(org.assertj.core.groups.Tuple.tuple("0000000000000001",
                    "env=lab"), org.assertj.core.groups.Tuple.tuple("0000000000000003", ""));
            assertThat(open.directories()).containsOnlyKeys("0000000000000001", "0000000000000002", "0000000000000003")
                    .containsValue("/tmp/x");
        }
    }

    @Test
    void aRecorderThatCannotWriteSaysSoAndTheRunGoesOn() throws Exception {
        Path runDir = dir.resolve("20261128-050000-run");
        Files.createDirectories(runDir);
        Files.copy(Path.of("../results/reference/local-2core-quick-20261125/01-client-leader.json"), runDir.resolve("01-client-leader.json"));
        Path blocked = dir.resolve("file-not-dir");
        Files.writeString(blocked, "x");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        new Recorder(blocked.resolve("h.db").toString(), Map.of(), "cpbench run").record(runDir, "run", false,
                new PrintStream(text, true, StandardCharsets.UTF_8));
        assertThat(text.toString(StandardCharsets.UTF_8)).startsWith("history: not recorded (history store ")
                .contains("'cpbench history import " + runDir + "' adds them later").hasLineCount(1);

        ByteArrayOutputStream ok = new ByteArrayOutputStream();
        new Recorder(dir.resolve("h.db").toString(), Map.of("env", "test"), "cpbench run").record(runDir, "run", true,
                new PrintStream(ok, true, StandardCharsets.UTF_8));
        assertThat(ok.toString(StandardCharsets.UTF_8)).startsWith("history: recorded run ").contains("(INCOMPLETE, 1 rows)");
        try (HistoryStore store = HistoryStore.open(dir.resolve("h.db").toString())) {
            HistoryRun run = store.runs(1).get(0);
            assertThat(run.status()).as("a stopped run").isEqualTo(Status.INCOMPLETE);
            assertThat(run.kind()).isEqualTo("run");
            assertThat(run.labels()).containsEntry("env", "test");
            assertThat(run.options()).isEqualTo("cpbench run");
        }
    }

    @Test
    void theSchemaVersionThisBuildWritesIsItsHighestMigration() throws Exception {
        try (var files = Files.list(Path.of("src/main/resources/io/cpbench/bench/history/migration"))) {
            int highest = files.map(p -> p.getFileName().toString()).filter(n -> n.matches("V\\d+__.*\\.sql"))
                    .mapToInt(n -> Integer.parseInt(n.substring(1, n.indexOf("__")))).max().orElse(0);
            assertThat(highest).isEqualTo(HistoryStore.SCHEMA_VERSION);
        }
    }
}
