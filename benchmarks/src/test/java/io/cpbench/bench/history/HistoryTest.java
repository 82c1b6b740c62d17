package io.cpbench.bench.history;

import io.cpbench.bench.results.HistoryRun;
import io.cpbench.core.status.Status;
import io.cpbench.core.trend.EDivisive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Import, trends and regressions on a SQLite store, from result folders in the repository and planted series. */
class HistoryTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);

    private String printed() {
        String s = text.toString(StandardCharsets.UTF_8);
        text.reset();
        return s;
    }

    @Test
    void importingTheReferenceResultsTwiceAddsThemOnce() {
        try (HistoryStore store = HistoryStore.open(dir.resolve("h.db").toString())) {
            Path reference = Path.of("../results/reference");
            History.importRuns(store, List.of(reference), Map.of(), out);
            String first = printed();
            long runs = store.count();
            assertThat(runs).as(first).isGreaterThanOrEqualTo(10);
            assertThat(first).contains("local-2core-quick-20261125").contains(runs + " runs added, 0 already in");
            History.importRuns(store, List.of(reference), Map.of(), out);
            assertThat(printed()).contains("0 runs added, " + runs + " already in");
            assertThat(store.count()).isEqualTo(runs);

            // a quick matrix: 13 scenarios x 3 rounds, each a row; its kind from the results (not a cp-bench name)
            HistoryRun quick = store.runs(1_000).stream().filter(r -> r.directory().endsWith("local-2core-quick-20261125"))
                    .findFirst().map(r -> store.run(r.id())).orElseThrow();
            assertThat(quick.kind()).isEqualTo("scenario");
            assertThat(quick.rows()).hasSize(39);
            assertThat(quick.rows()).extracting(HistoryRun.Row::harness).containsOnly("driver");
            assertThat(quick.rows()).filteredOn(r -> r.scenario().equals("client-leader") && r.round() == 1).singleElement()
                    .satisfies(r -> {
                        assertThat(r.opsPerSecond()).isPositive();
                        assertThat(r.latency().p99()).isGreaterThanOrEqualTo(r.latency().p50());
                        assertThat(r.leaders().before()).isNotNull();
                    });
            // a load run keeps a row per op beside its total
            assertThat(store.points(HistoryStore.Selection.ALL)).anySatisfy(p -> {
                assertThat(p.row().harness()).isEqualTo("load");
                assertThat(p.row().op()).isNotEqualTo("all");
            });
        }
    }

    @Test
    void aPlantedSlowdownIsTheOneRegressionUntilItIsAcknowledged() throws java.io.IOException {
        try (HistoryStore store = HistoryStore.open(dir.resolve("h.db").toString())) {
            SplittableRandom random = new SplittableRandom(11);
            for (int i = 0; i < 24; i++) {
                String commit = i < 8 ? "aaaaaaa" : i < 16 ? "bbbbbbb" : "ccccccc";
                double level = i < 16 ? 2_000 : 1_700; // commit ccccccc costs 15 % of op/s
                String at = String.format("2026-11-%02dT05:00:00Z", 1 + i);
                HistoryRun run = HistoryStoreTest.run(String.format("%016x", 0xa000 + i), at, commit,
                        level * (1 + 0.02 * gaussian(random)), Map.of("env", "lab"));
                store.add(run);
            }
            // a run that did not end OK does not join the series
            HistoryRun failed = HistoryStoreTest.run("f000000000000001", "2026-11-30T05:00:00Z", "ccccccc", 10, Map.of("env", "lab"));
            store.add(new HistoryRun(failed.id(), failed.kind(), failed.startedAt(), failed.endedAt(), Status.FAIL,
                    new HistoryRun.Build(null, failed.build().cpbenchCommit(), "5.4.0", null), "local", null, null, null,
                    failed.labels(), List.of(new HistoryRun.Row("client-leader", "", "all", "driver", 1, "a", Status.FAIL,
                    failed.startedAt(), 1, 1, 10, null, null))));

            History.Query query = new History.Query(null, null, null, null, null, Map.of(), Trends.Metric.OPS,
                    Trends.Order.TIME, null, EDivisive.Options.DEFAULT);
            List<History.Regression> found = History.regressions(store, query, List.of(Trends.Metric.OPS, Trends.Metric.P99), 5);
            assertThat(found).singleElement().satisfies(r -> {
                assertThat(r.change().after().commit()).isEqualTo("ccccccc");
                assertThat(r.change().before().commit()).isEqualTo("bbbbbbb");
                assertThat(r.change().changePercent()).isBetween(-18.0, -12.0);
                assertThat(r.change().pValue()).isLessThanOrEqualTo(0.001);
                assertThat(r.series().points()).hasSize(24);
            });
            assertThat(History.regressions(store, query, List.of(Trends.Metric.OPS), 20)).as("--fail-on 20%").isEmpty();
            History.Query recent = new History.Query(null, null, null, null, null, Map.of(), Trends.Metric.OPS,
                    Trends.Order.TIME, History.since("2026-11-20"), EDivisive.Options.DEFAULT);
            assertThat(History.regressions(store, recent, List.of(Trends.Metric.OPS), 5)).as("--since after it").isEmpty();

            // over commits: three points, the change between the second and the third
            History.Query byCommit = new History.Query(null, null, null, null, null, Map.of(), Trends.Metric.OPS,
                    Trends.Order.COMMIT, null, EDivisive.Options.welch(30, 0.05, 2));
            History.trend(store, byCommit, "csv", out);
            String csv = printed();
            assertThat(csv.lines().skip(1)).hasSize(3);
            // read back as CSV: the series key (spaces, a '|', labels) is one value, the value a number
            java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("trend.csv"), csv);
            io.cpbench.core.csv.Csv.Table table = io.cpbench.core.csv.Csv.read(file);
            assertThat(table.rows()).hasSize(3).allSatisfy(r -> {
                assertThat(r.get("series")).startsWith("client-leader all driver").contains("env=lab");
                assertThat(Double.parseDouble(r.get("value"))).isPositive();
                assertThat(r.whole(table)).isTrue();
            });

            History.printRegressions(found, store, out);
            String lines = printed();
            assertThat(lines).contains("REGRESSION client-leader all driver | local 5.4.0 | env=lab op/s: -1")
                    .contains("acknowledge it: cpbench history ack " + found.get(0).change().after().runId().substring(0, 12));

            assertThatThrownBy(() -> History.ack(store, found.get(0).change().before().runId(), "x", query,
                    List.of(Trends.Metric.OPS), out)).hasMessageContaining("no change point starts at run");
            History.ack(store, found.get(0).change().after().runId(), "ccccccc trades op/s for safety", query,
                    List.of(Trends.Metric.OPS), out);
            assertThat(printed()).startsWith("acknowledged client-leader all driver");
            assertThat(History.regressions(store, query, List.of(Trends.Metric.OPS, Trends.Metric.P99), 5)).isEmpty();
        }
    }

    @Test
    void aSeriesNamesItsReleaseOnceButItsAcknowledgementsKeepTheirStoredName() {
        Trends.Key stock = new Trends.Key("client-leader", "", "all", "driver", "stock 5.3.8", "5.3.8", "");
        assertThat(stock.text()).isEqualTo("client-leader all driver | stock 5.3.8");
        assertThat(stock.ackName()).isEqualTo("client-leader all driver | stock 5.3.8 5.3.8");
        Trends.Key local = new Trends.Key("client-leader", "", "all", "driver", "local", "5.4.0", "env=lab");
        assertThat(local.text()).isEqualTo("client-leader all driver | local 5.4.0 | env=lab").isEqualTo(local.ackName());
    }

    @Test
    void aTrendSaysWhenNothingMatchesAndRejectsBadInput() {
        try (HistoryStore store = HistoryStore.open(dir.resolve("h.db").toString())) {
            History.Query query = new History.Query("nope", null, null, null, null, Map.of(), Trends.Metric.OPS,
                    Trends.Order.TIME, null, EDivisive.Options.DEFAULT);
            assertThatThrownBy(() -> History.trend(store, query, "table", out)).hasMessageStartingWith("no series in ");
            assertThatThrownBy(() -> Trends.Metric.of("p42")).hasMessageContaining("known: ops, p50");
            assertThatThrownBy(() -> History.since("last week")).hasMessageContaining("is not a date");
            History.list(store, 10, out);
            assertThat(printed()).startsWith("no runs in ");
        }
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
