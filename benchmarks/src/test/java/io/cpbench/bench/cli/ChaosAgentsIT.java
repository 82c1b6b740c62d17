package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.core.history.Event;
import io.cpbench.core.history.HistoryFiles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code chaos --agents 2} on 3 local members: two agent processes run the load and record their ops; the
 * coordinator pauses the leader, merges the agents' histories (moved onto its clock, their processes kept apart) and
 * checks them.
 */
@Tag("long") // in CI's -Plong run: it keeps ./mvnw verify under 15 minutes
class ChaosAgentsIT {

    @TempDir
    Path work;

    @Test
    void twoAgentsHistoriesMergeIntoOneCheckedHistoryWithTheirProcessesApart() throws Exception {
        CliProcess.Finished finished = CliProcess.run(work, 400, "chaos", "--agents", "2", "--nemesis", "pause-leader",
                "--duration", "16s", "--fault-for", "4s", "--interval", "4s", "--faults", "1", "--members", "3",
                "--clients", "2", "--threads", "2", "--failover", "fast", "--settle", "2s", "--cluster-warmup", "1s",
                "--quiet", "--out", "runs");
        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isZero();
        assertThat(finished.stdout()).contains("2 agents joined the control cluster").contains("linearizability: linearizable");
        Path runDir;
        try (Stream<Path> dirs = Files.list(work.resolve("runs"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        JsonNode chaos = new ObjectMapper().readTree(runDir.resolve("chaos.json").toFile());
        assertThat(chaos.get("load").get("agents")).hasSize(2);
        assertThat(chaos.get("faults")).hasSize(1);
        assertThat(chaos.get("faults").get(0).get("firstOkMs").isNumber()).as("an op succeeded after the pause").isTrue();

        List<Event> events = HistoryFiles.read(runDir.resolve("history.jsonl")).events();
        List<Event> first = events.stream().filter(e -> e.key() != null && e.key().contains("-a1")).toList();
        List<Event> second = events.stream().filter(e -> e.key() != null && e.key().contains("-a2")).toList();
        assertThat(first).as("agent-1's ops").hasSizeGreaterThan(100);
        assertThat(second).as("agent-2's ops").hasSizeGreaterThan(100);
        assertThat(first.size() + second.size()).as("every op is one agent's").isEqualTo(
                (int) events.stream().filter(e -> e.key() != null).count());
        // agent i of 2: process p became 2p + i - 1, its setup's -1 became -i, so no process holds ops of both agents
        assertThat(first).allSatisfy(e -> assertThat(agentOf(e.process())).as(e.toString()).isEqualTo(1))
                .anyMatch(e -> e.process() == -1);
        assertThat(second).allSatisfy(e -> assertThat(agentOf(e.process())).as(e.toString()).isEqualTo(2))
                .anyMatch(e -> e.process() == -2);
        long registerOps = events.stream().filter(e -> e.registerOp() && e.completion()).count();
        assertThat(chaos.get("linearizability").get("ops").asLong()).isEqualTo(registerOps);
        // on the coordinator's clock: both agents' ops span the fault
        long injected = Math.round(chaos.get("faults").get(0).get("injectedAtS").asDouble() * 1e9);
        assertThat(first.get(0).time()).isLessThan(injected);
        assertThat(second.get(0).time()).isLessThan(injected);
        assertThat(first.get(first.size() - 1).time()).isGreaterThan(injected);
        assertThat(second.get(second.size() - 1).time()).isGreaterThan(injected);
    }

    /** Which of 2 agents a merged history's process belongs to. */
    private static long agentOf(long process) {
        return process >= 0 ? process % 2 + 1 : -process;
    }
}
