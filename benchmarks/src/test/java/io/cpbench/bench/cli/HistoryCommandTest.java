package io.cpbench.bench.cli;

import io.cpbench.bench.results.HistoryRun;
import io.cpbench.bench.history.HistoryStore;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each history verb as a user meets it: its output, its exit code, and bad input refused in one line. */
class HistoryCommandTest {

    @TempDir
    Path dir;

    @org.junit.jupiter.api.extension.RegisterExtension
    final ConsoleCapture console = new ConsoleCapture();
    private String store;

    @BeforeEach
    void store() {
        store = dir.resolve("h.db").toString();
    }

    private int run(String... args) {
        console.reset();
        List<String> all = new java.util.ArrayList<>(List.of("history"));
        all.addAll(List.of(args));
        if (!List.of(args).contains("--help")) {
            all.add("--history=" + store);
        }
        return CpBench.execute(all.toArray(String[]::new));
    }

    private String out() {
        return console.out();
    }

    private String err() {
        return console.err();
    }

    /** 12 runs at 2,000 op/s, then 8 at 1,600: one regression, in op/s. */
    private void plant() {
        try (HistoryStore h = HistoryStore.open(store)) {
            for (int i = 0; i < 20; i++) {
                HistoryRun.Row row = new HistoryRun.Row("client-leader", "", "all", "driver", 1, "a", Status.OK, null, 1_000,
                        0, (i < 12 ? 2_000 : 1_600) + (i % 3) * 10, new HistoryRun.Latency(800L, 900L, 1_500L, 3_000L, 9_000L, null),
                        new HistoryRun.Leaders("m0", "m0", 1, 1));
                String at = String.format("2026-11-%02dT05:00:00Z", 1 + i);
                h.add(new HistoryRun(String.format("run%013d", i), "run", at, at, Status.OK,
                        new HistoryRun.Build("0.1.0", i < 12 ? "aaaaaaa" : "bbbbbbb", "5.4.0", "5.4.0"), "local",
                        new HistoryRun.Machine("host", 2, 1024L, "Linux", "JVM"), null, dir.toString(), Map.of(), List.of(row)));
            }
        }
    }

    @Test
    void eachVerbDoesWhatItsHelpSaysWithItsExitCode() throws Exception {
        assertThat(run("import", "../results/reference/local-2core-quick-20261125")).isZero();
        assertThat(out()).contains("1 run added, 0 already in " + store);
        assertThat(run("import", "../results/reference/local-2core-quick-20261125")).isZero();
        assertThat(out()).contains("0 runs added, 1 already in");
        assertThat(run("list")).isZero();
        assertThat(out()).contains("scenario", "OK");
        String id = out().lines().skip(1).findFirst().orElseThrow().substring(0, 12);
        assertThat(run("show", id)).isZero();
        assertThat(out()).contains("run " + id).contains("client-leader-aware");
        assertThat(run("regressions")).as("a single run has no change point").isZero();
        assertThat(out()).contains("no regressions in " + store);

        plant();
        assertThat(run("trend", "--scenario", "client-leader", "--format", "csv")).isZero();
        assertThat(out()).startsWith("series,metric,run").containsPattern(",run0000000000012,[^,]+,bbbbbbb,1600\\.000,false,-\\d+\\.\\d%");
        assertThat(run("regressions", "--fail-on", "5%")).as("the planted change fails the gate").isEqualTo(1);
        assertThat(out()).contains("REGRESSION client-leader all driver").contains("1 regression in");
        assertThat(run("regressions", "--fail-on", "25")).isZero();
        assertThat(run("ack", "run0000000000012", "--reason", "accepted for the test")).isZero();
        assertThat(out()).startsWith("acknowledged client-leader all driver");
        assertThat(run("regressions", "--fail-on", "5%")).as("acknowledged").isZero();
        Path html = dir.resolve("trend.html");
        assertThat(run("report", "--html", html.toString())).isZero();
        assertThat(out()).startsWith("wrote " + html + ": ");
        assertThat(html).isNotEmptyFile();
    }

    @Test
    void badInputGetsOneLineAndExitTwo() throws Exception {
        Path notADatabase = Files.writeString(dir.resolve("notes.txt"), "not a database ".repeat(300));
        String[][] cases = {
                {"list", "--limit", "0"},
                {"show", "abc"},
                {"show", "ffffffff"},
                {"trend", "--metric", "p42"},
                {"trend", "--by", "week"},
                {"trend", "--format", "xml"},
                {"regressions", "--fail-on", "lots"},
                {"regressions", "--since", "last week"},
                {"import", dir.resolve("missing").toString()},
                {"import", "--label", "bad key=x", dir.toString()},
                {"ack", "ffffffff", "--reason", "x"},
        };
        for (String[] c : cases) {
            assertThat(run(c)).as(String.join(" ", c)).isEqualTo(2);
            assertThat(err()).as(String.join(" ", c)).startsWith("cpbench: ").hasLineCount(1);
        }
        console.reset();
        assertThat(CpBench.execute("history", "list", "--history=" + notADatabase)).isEqualTo(2);
        assertThat(err()).startsWith("cpbench: history store " + notADatabase).hasLineCount(1);
        console.reset();
        assertThat(CpBench.execute("history", "list", "--history=jdbc:postgresql://127.0.0.1:1/x?user=u&password=p")).isEqualTo(2);
        assertThat(err()).contains("a password in the URL would show on the command line").doesNotContain("password=p");
    }

    @Test
    void everyVerbsHelpHasAnExampleAndItsExitCodes() {
        for (String verb : List.of("import", "list", "show", "trend", "regressions", "ack", "report")) {
            assertThat(run(verb, "--help")).isZero();
            assertThat(out()).as(verb).contains("Example").contains("./cpbench history " + verb).contains("Exit codes:");
        }
    }
}
