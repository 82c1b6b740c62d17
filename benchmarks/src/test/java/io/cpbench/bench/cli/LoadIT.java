package io.cpbench.bench.cli;

import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cpbench load} end to end on the shared local 3-member cluster ({@link SharedCluster}): two scenarios (each
 * through its own routing, with 2
 * clients) interleaved, a staged open loop, a threshold that passes and one that cannot, so the exit is 99.
 */
@SharedCluster.Uses
class LoadIT {

    @TempDir
    static Path work;
    static CliProcess.Finished finished;
    static List<RunResult> results;
    static Path runDir;

    @BeforeAll
    static void run() throws Exception {
        Files.writeString(work.resolve("load.yaml"), """
                mix: {cas: 3, get: 1, increment: 2, lock: 1}
                objects: {count: 2}
                clients: 2
                threads: 3
                schedule:
                  mode: open
                  start: 100
                  stages: ["2s:100", "2s:200"]
                  warmup: 1s
                thresholds: ["rate>=50", "cas:p50<1us"]
                """);
        finished = CliProcess.run(work, 300, SharedCluster.with("load", "--spec", "load.yaml", "--scenario",
                "client-leader,client-leader-aware", "--settle", "2s", "--out", "runs"));
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        results = ResultFiles.readAll(List.of(runDir));
    }

    @Test
    void aCrossedThresholdExits99AndTheSummarySaysWhich() {
        assertThat(finished.exitCode()).as(finished.stderr()).isEqualTo(ExitCodes.THRESHOLDS);
        assertThat(finished.stdout()).contains("PASS  rate>=50").contains("FAIL  cas:p50<1us");
        // the exit code is the results' status: BREACHED, with the threshold it crossed, in the files and on stderr
        assertThat(finished.stderr()).contains("cpbench load: 2 BREACHED of 2 results: client-leader round 1 BREACHED"
                + " (threshold crossed: cas:p50<1us (was ");
        assertThat(results).hasSize(2).allSatisfy(r -> {
            assertThat(r.status()).as(r.scenario() + ": " + r.reason()).isEqualTo(Status.BREACHED);
            assertThat(r.reason()).startsWith("threshold crossed: cas:p50<1us (was ");
            assertThat(r.harness()).isEqualTo("load");
            assertThat(r.load().thresholds()).extracting(LoadResult.ThresholdResult::passed).containsExactly(true, false);
        });
    }

    /** BREACHED in every place that says how the run ended: exit 99, the results, the history's run, the report. */
    @Test
    void theCrossedThresholdIsTheRunsOneVerdict() throws Exception {
        OneVerdict.agree(Status.BREACHED, finished, runDir, null);
    }

    @Test
    void eachScenarioRanItsOwnRoutingWithEveryOpDueStarted() {
        assertThat(results).extracting(RunResult::scenario).containsExactly("client-leader", "client-leader-aware");
        for (RunResult r : results) {
            LoadResult load = r.load();
            // 2 s at 100 op/s, then 2 s ramping 100 -> 200: 200 + 300 ops due
            assertThat(load.schedule().due()).as(r.scenario()).isEqualTo(500);
            assertThat(load.schedule().started()).as(r.scenario()).isEqualTo(500);
            assertThat(r.measured().ops() + r.measured().errors()).as(r.scenario()).isEqualTo(500);
            assertThat(r.decodeHistogram().getTotalCount()).isEqualTo(r.measured().ops());
            assertThat(load.stages()).hasSize(2);
            assertThat(load.invariants()).allSatisfy(i -> assertThat(i.holds()).as(i.evidence()).isTrue());
            assertThat(r.cluster().clientTarget()).contains("each of 2 clients");
        }
        // leader-routed clients: the leader received the calls; any other member under 1 % of its bytes (what the
        // suite's own leadership client sends, such as a 22-byte heartbeat, counts as client bytes too)
        RunResult leader = results.get(0);
        String leaderName = leader.leader().before().name();
        Map<String, Long> bytes = leader.cluster().networkPath().clientBytesToMember();
        long toLeader = bytes.get(leaderName);
        assertThat(toLeader).as(bytes.toString()).isGreaterThan(10_000L); // 500 measured ops, each at least one request
        bytes.forEach((member, sent) -> {
            if (!member.equals(leaderName)) {
                assertThat(sent).as(member + " " + bytes).isLessThan(toLeader / 100);
            }
        });
    }

    @Test
    void theCsvHasARowPerIntervalAndOpAndTheHlogsAreThere() throws Exception {
        Path dir = runDir.resolve("01-client-leader.load");
        List<String> csv = Files.readAllLines(dir.resolve("load.csv"));
        assertThat(csv.get(0)).startsWith("elapsed_s,stage,level,op,ops,errors");
        long ops = csv.stream().skip(1).filter(l -> l.split(",")[3].equals("all")).mapToLong(l -> Long.parseLong(l.split(",")[4])).sum();
        assertThat(ops).isEqualTo(results.get(0).measured().ops());
        assertThat(csv.stream().skip(1).map(l -> l.split(",")[1]).distinct()).containsExactly("1", "2");
        for (String op : List.of("cas", "get", "increment", "lock")) {
            assertThat(dir.resolve("load-" + op + ".hlog")).exists();
        }
        assertThat(runDir.resolve("table.md")).exists();
        assertThat(finished.stdout()).contains("Per op, median over rounds");
    }

    @Test
    @io.cpbench.bench.report.NeedsChromium
    void theHtmlReportDrawsTheStagesInChromium() throws Exception {
        io.cpbench.bench.report.Browser.Rendered report = io.cpbench.bench.report.Browser.renderAndCheck(runDir, "load-it");
        var time = report.charts("time");
        assertThat(time).as("an op/s and p99 chart per scenario").hasSize(2);
        for (var chart : time) {
            assertThat(chart.path("bands")).as(chart.path("title").asText()).hasSize(2)
                    .allSatisfy(b -> assertThat(b.path("kind").asText()).isEqualTo("stage"));
            assertThat(chart.path("series").get(0).path("y").size()).isGreaterThanOrEqualTo(3);
        }
        assertThat(report.charts("percentiles")).isNotEmpty();
        assertThat(report.page().dom()).contains("cas:p50&lt;1us").contains("Per op");
    }

    @Test
    void ranOnTheClusterItWasGivenAndStartedNoMemberOfItsOwn() {
        String clusterName = SharedCluster.topology().clusterName();
        assertThat(results).allSatisfy(r -> assertThat(r.cluster().name()).isEqualTo(clusterName));
        assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("")
                .contains("--cluster-name " + clusterName + " ")).count()).as("the shared cluster's 3 members only").isEqualTo(3);
    }
}
