package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code cpbench jmh} through the packaged CLI: JMH trials on a real local cluster, folded into results that agree
 * with JMH's own JSON, with the routing and leadership checks of a native run; and Ctrl-C leaves no process behind.
 */
@SharedCluster.Uses
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JmhCommandIT {

    @TempDir
    static Path work;

    CliProcess.Finished finished;
    Path runDir;
    Map<String, RunResult> results;

    @BeforeAll
    void runJmh() throws Exception {
        // Each JMH fork attaches to the shared cluster (the shortest forks that still fold: 1 iteration of 1 s); the
        // interrupt test below starts its own members, as a local run does.
        finished = CliProcess.run(work, 600, SharedCluster.with("jmh", "--scenario", "client-leader,client-follower",
                "--warmup-iterations", "0", "--iterations", "1", "--iteration-time", "1s", "--cluster-warmup", "500ms",
                "--out", "runs"));
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        results = ResultFiles.readAll(List.of(runDir)).stream().collect(Collectors.toMap(RunResult::label, Function.identity()));
    }

    @Test
    void everyTrialBecameAResultThatHeldLeadership() {
        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isZero();
        assertThat(results.keySet()).containsExactlyInAnyOrder("client-leader [jmh-thrpt]", "client-leader [jmh-sample]",
                "client-follower [jmh-thrpt]", "client-follower [jmh-sample]");
        for (RunResult r : results.values()) {
            assertThat(r.status()).as(r.label() + ": " + r.reason()).isEqualTo(Status.OK);
            assertThat(r.leader().before()).as(r.label()).isNotNull().isEqualTo(r.leader().after());
            assertThat(r.measured().ops()).as(r.label()).isPositive();
        }
    }

    @Test
    void eachTrialRoutedAsTheScenarioSays() {
        // The same client code as a native run: a single-address client's bytes reach its member. Other members
        // get at most the heartbeats of cp-bench's own leadership client (about 22 bytes per 10 s were seen).
        for (RunResult r : results.values()) {
            Map<String, Long> bytes = r.cluster().networkPath().clientBytesToMember();
            String expected = r.scenario().equals("client-leader") ? "member-0" : "member-1";
            long served = bytes.getOrDefault(expected, 0L);
            // at least the requests of the ops measured: each op is two CP calls (get, compareAndSet), and a client
            // message naming its CP group and object is over 40 bytes (a fixed figure, 10,000 bytes, failed a busy
            // machine whose 1 s trial ran few ops: 7,943 bytes)
            assertThat(r.measured().ops()).as(r.label()).isPositive();
            assertThat(served).as(r.label() + " " + bytes + ", " + r.measured().ops() + " ops").isGreaterThan(2 * 40 * r.measured().ops());
            bytes.forEach((member, sent) -> {
                if (!member.equals(expected)) {
                    assertThat(sent).as(r.label() + " to " + member + " " + bytes).isLessThan(served / 100);
                }
            });
            assertThat(r.cluster().clientTarget()).as(r.label()).contains(expected);
        }
    }

    @Test
    void foldedFiguresAgreeWithJmhsOwnJson() throws Exception {
        ObjectMapper json = new ObjectMapper();
        for (RunResult r : results.values()) {
            JsonNode jmh = json.readTree(runDir.resolve("jmh").resolve(ResultFiles.fileStem(r) + ".json").toFile()).get(0);
            JsonNode metric = jmh.get("primaryMetric");
            if (r.harness().equals("jmh-thrpt")) {
                assertThat(r.measured().opsPerSecond()).as(r.label()).isCloseTo(metric.get("score").asDouble(), within(1e-6));
            } else {
                long samples = 0;
                java.util.TreeMap<Double, Long> counts = new java.util.TreeMap<>();
                for (JsonNode iteration : metric.get("rawDataHistogram").get(0)) {
                    for (JsonNode pair : iteration) {
                        samples += pair.get(1).asLong();
                        counts.merge(pair.get(0).asDouble(), pair.get(1).asLong(), Long::sum); // µs/op, as the score
                    }
                }
                assertThat(r.decodeHistogram().getTotalCount()).as(r.label()).isEqualTo(samples);
                // JMH interpolates its median between the two middle samples; HdrHistogram (3 digits) reports the
                // sample at the middle rank. Both must lie between the samples around the middle rank. JMH's samples
                // are few distinct values at millisecond latencies, so the two can be a whole step (~2 %) apart.
                double below = Double.NaN;
                double above = Double.NaN;
                long seen = 0;
                for (var e : counts.entrySet()) {
                    if (Double.isNaN(below) && seen + e.getValue() >= samples / 2) {
                        below = e.getKey();
                    }
                    seen += e.getValue();
                    if (seen >= samples / 2 + 1) {
                        above = e.getKey();
                        break;
                    }
                }
                double jmhMedian = metric.get("scorePercentiles").get("50.0").asDouble();
                assertThat(jmhMedian).as(r.label() + ": JMH's median").isBetween(below - 1, above + 1);
                assertThat((double) r.latencyMicros().p50()).as(r.label()).isBetween(below * 0.999 - 1, above * 1.001 + 1);
                // Closed loop, one thread: op/s is the inverse of JMH's mean op time.
                assertThat(r.measured().opsPerSecond()).as(r.label()).isCloseTo(1e6 / metric.get("score").asDouble(),
                        within(r.measured().opsPerSecond() * 0.001));
            }
        }
    }

    @Test
    void theTableComparesWithinEachHarnessAndReportsTheHarnessCost() throws Exception {
        assertThat(finished.stdout()).containsPattern("client-follower \\[jmh-thrpt\\] +\\| client-leader \\[jmh-thrpt\\] +\\| [0-9.]+ ");
        assertThat(finished.stdout()).containsPattern("client-follower \\[jmh-sample\\] +\\| client-leader \\[jmh-sample\\] +\\| [0-9.]+ ");
        assertThat(finished.stdout()).containsPattern("Harness cost .*: [0-9]+ ± [0-9]+ ns/op = [0-9.]+ % of the "
                + "client-leader \\[jmh-sample\\] p50");
        assertThat(Files.readString(runDir.resolve("table.md"))).contains("Harness cost");

        CliProcess.Finished report = CliProcess.run(work, 60, "report", runDir.toString());
        assertThat(report.exitCode()).as(report.stderr()).isZero();
        String table = finished.stdout().substring(finished.stdout().indexOf("| Scenario"));
        assertThat(table).startsWith(report.stdout().substring(0, report.stdout().indexOf("\n\n")));
    }

    @Test
    void anInterruptedJmhRunKeepsAnIncompleteResultAndLeavesNoProcess() throws Exception {
        Path dir = work.resolve("interrupted");
        CliProcess cli = CliProcess.start(dir, "jmh", "--scenario", "client-leader", "--modes", "thrpt",
                "--warmup-iterations", "0", "--iterations", "1", "--iteration-time", "120s", "--cluster-warmup", "0",
                "--no-harness-cost", "--out", "runs");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        // The JMH fork and its five members.
        while (cli.process.descendants().count() < 6 && cli.process.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        List<ProcessHandle> started = cli.process.descendants().toList();
        assertThat(started).as(cli.stderrSoFar()).hasSizeGreaterThanOrEqualTo(6);

        cli.process.destroy(); // SIGTERM: the JVM runs the same shutdown path as for Ctrl-C
        CliProcess.Finished ended = cli.finish(120);

        assertThat(ended.stderr()).contains("interrupted; keeping what was measured");
        for (ProcessHandle process : started) {
            process.onExit().get(30, TimeUnit.SECONDS);
            assertThat(process.isAlive()).as(process.info().commandLine().orElse("?")).isFalse();
        }
        Path result;
        try (Stream<Path> files = Files.walk(dir.resolve("runs"))) {
            result = files.filter(p -> p.getFileName().toString().equals("01-client-leader.jmh-thrpt.json")).findFirst().orElseThrow();
        }
        assertThat(ResultFiles.read(result).status()).isEqualTo(Status.INCOMPLETE);
        assertThat(Files.exists(result.resolveSibling("table.md"))).isTrue();
    }
}
