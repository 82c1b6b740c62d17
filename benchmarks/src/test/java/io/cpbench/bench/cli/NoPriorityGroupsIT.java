package io.cpbench.bench.cli;

import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --no-priority} on a real 3-member cluster: it becomes ready with whichever member Hazelcast elects, a load
 * over three CP groups runs through leader-aware routing, and each group's leader is named after the warm-up.
 */
@Tag("long") // in CI's -Plong run: it keeps ./mvnw verify under 15 minutes
class NoPriorityGroupsIT {

    @TempDir
    static Path work;

    @Test
    void aClusterWithNoPriorityRunsALoadOverSeveralGroupsAndNamesTheirLeaders() throws Exception {
        // A cluster warm-up of 5 s, not less: without priority, a group's leader that was elected moments before
        // the warm-up's report can still move before the run ends (it did with 2 s, in two CI runs), and then the
        // report's leaders are not the ones the balancers chose.
        CliProcess.Finished finished = CliProcess.run(work, 300, "load", "--no-priority", "--groups", "g1,g2,g3",
                "--objects", "3", "--mix", "cas,get", "--scenario", "client-leader-aware,client-leader-aware-per-group",
                "--threads", "4", "--duration", "1s", "--warmup", "1s", "--cluster-warmup", "5s", "--members", "3",
                "--settle", "2s", "--quiet", "--out", "runs");

        assertThat(finished.exitCode()).as(finished.stderr()).isEqualTo(ExitCodes.OK);
        assertThat(finished.stdout()).contains("no leadership priority").doesNotContain(", priority)");
        String leadersLine = finished.stdout().lines().filter(l -> l.startsWith("CP group leaders: ")).findFirst().orElseThrow();
        List<String> leaders = Arrays.stream(leadersLine.substring("CP group leaders: ".length()).split(", ")).toList();
        assertThat(leaders).hasSize(3).allSatisfy(l -> assertThat(l).matches("g[123] -> member-[012]"));
        Path runDir;
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        List<RunResult> results = ResultFiles.readAll(List.of(runDir));
        assertThat(results).hasSize(2).allSatisfy(r -> {
            assertThat(r.status()).as(r.reason()).isEqualTo(Status.OK);
            assertThat(r.measured().ops()).isPositive();
            assertThat(r.load().invariants()).allSatisfy(i -> assertThat(i.holds()).isTrue());
        });
        // The per-group route: each group's client chose that group's leader, as the members report it.
        RunResult perGroup = results.stream().filter(r -> r.scenario().equals("client-leader-aware-per-group"))
                .findFirst().orElseThrow();
        Map<String, String> addressOf = perGroup.cluster().members().stream()
                .collect(Collectors.toMap(RunResult.MemberInfo::name, RunResult.MemberInfo::address));
        assertThat(perGroup.cluster().clientTarget()).contains("a client per CP group");
        for (String leader : leaders) {
            String group = leader.substring(0, leader.indexOf(' '));
            String member = leader.substring(leader.lastIndexOf(' ') + 1);
            assertThat(perGroup.cluster().clientTarget()).as(leader).contains(group + ": leader-aware chose " + addressOf.get(member));
        }
    }
}
