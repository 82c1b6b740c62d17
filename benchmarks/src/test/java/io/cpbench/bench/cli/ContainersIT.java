package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import io.cpbench.topology.NeedsDocker;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI on {@code --topology containers}: a quick matrix of three routings, a chaos run that kills the leader's
 * container, and Ctrl-C in the middle of a run on members of another release. Each run's containers carry the CLI's PID as a label; none may be
 * left when it ends, whichever way it ends.
 */
@NeedsDocker
class ContainersIT {

    @TempDir
    Path work;

    static DockerClient docker;

    @BeforeAll
    static void docker() {
        docker = DockerClientFactory.instance().client();
    }

    /** Containers (running or not) that the CLI process {@code pid} created. */
    static List<String> containersOf(long pid) {
        return docker.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of("io.cpbench.pid", Long.toString(pid))).exec().stream()
                .map(c -> c.getNames()[0]).toList();
    }

    static long networksOf(long pid) {
        return docker.listNetworksCmd().withFilter("label", List.of("io.cpbench.pid=" + pid)).exec().size();
    }

    /** {@code stderr}: the CLI's, which says why a removal failed. */
    static void assertNothingLeftBy(long pid, String stderr) {
        assertThat(containersOf(pid)).as("containers of " + pid + "; stderr:\n" + stderr).isEmpty();
        assertThat(networksOf(pid)).as("networks of " + pid + "; stderr:\n" + stderr).isZero();
    }

    static Path onlyRunDir(Path runs) throws Exception {
        try (Stream<Path> dirs = Files.list(runs)) {
            return dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    @Test
    void aQuickMatrixOfThreeRoutingsRunsOnContainers() throws Exception {
        CliProcess cli = CliProcess.start(work, "matrix", "--topology", "containers",
                "--scenario", "client-leader,client-follower,client-leader-aware", "--ops", "500", "--warmup", "200ms",
                "--rounds", "1", "--members", "3", "--settle", "2s", "--cluster-warmup", "500ms", "--out", "runs");
        long pid = cli.process.pid();
        CliProcess.Finished finished = cli.finish(600);

        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isZero();
        assertThat(finished.stdout()).contains("(containers)");
        Map<String, RunResult> results = ResultFiles.readAll(List.of(onlyRunDir(work.resolve("runs")))).stream()
                .collect(Collectors.toMap(RunResult::scenario, Function.identity()));
        assertThat(results.keySet()).containsExactlyInAnyOrder("client-leader", "client-follower", "client-leader-aware");
        for (RunResult r : results.values()) {
            assertThat(r.status()).as(r.scenario() + ": " + r.reason()).isEqualTo(Status.OK);
            assertThat(r.measured().ops()).isEqualTo(500);
            assertThat(r.measured().errors()).isZero();
            assertThat(r.cluster().topology()).isEqualTo("containers");
            assertThat(r.cluster().networkPath().method()).contains("containers");
        }
        // The routings reached the members they name: the leader, a follower, and the leader again by its hint.
        assertThat(results.get("client-leader").cluster().clientTarget()).contains("leader");
        assertThat(results.get("client-follower").cluster().clientTarget()).contains("follower");
        // Bytes from clients per member (the emulator counts them): the leader-aware client sent most to the leader.
        Map<String, Long> served = results.get("client-leader-aware").cluster().networkPath().clientBytesToMember();
        String leader = results.get("client-leader").leader().before().name();
        assertThat(served).containsKey(leader);
        served.forEach((member, bytes) -> {
            if (!member.equals(leader)) {
                assertThat(bytes).as(member + " against the leader " + leader + ": " + served).isLessThan(served.get(leader));
            }
        });
        assertThat(finished.stdout()).contains("client-leader-aware");
        assertNothingLeftBy(pid, finished.stderr());
    }

    @Test
    void killingTheLeadersContainerIsAFaultTheChaosRunReports() throws Exception {
        CliProcess cli = CliProcess.start(work, "chaos", "--topology", "containers", "--nemesis", "kill-leader",
                "--duration", "15s", "--fault-for", "6s", "--interval", "3s", "--faults", "1", "--members", "3",
                "--failover", "fast", "--settle", "2s", "--cluster-warmup", "1s", "--quiet", "--out", "runs");
        long pid = cli.process.pid();
        CliProcess.Finished finished = cli.finish(400);

        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isZero();
        assertThat(finished.stdout()).contains("kill member").contains("linearizability: linearizable");
        JsonNode chaos = new ObjectMapper().readTree(onlyRunDir(work.resolve("runs")).resolve("chaos.json").toFile());
        assertThat(chaos.get("faults")).hasSize(1);
        assertThat(chaos.get("faults").get(0).get("fault").asText()).isEqualTo("kill");
        assertThat(chaos.get("linearizability").get("verdict").asText()).isEqualTo("LINEARIZABLE");
        assertThat(chaos.get("linearizability").get("status").asText()).isEqualTo("OK");
        assertNothingLeftBy(pid, finished.stderr());
    }

    /**
     * On members of another release too (a stock image of hazelcast-5.3.8.jar alone, leader from metrics): Ctrl-C while
     * it measures keeps what was measured, marked INCOMPLETE and naming the members' release, and leaves no container.
     */
    @Test
    void ctrlCInTheMiddleOfARunOnAnotherReleasesContainersLeavesNoContainer() throws Exception {
        CliProcess cli = CliProcess.start(work, "run", "--topology", "containers", "--hazelcast-version", "5.3.8",
                "--scenario", "client-leader", "--ops", "10000000", "--warmup", "0", "--members", "3", "--settle", "1s",
                "--cluster-warmup", "0", "--progress", "1s", "--out", "runs");
        long pid = cli.process.pid();
        assertThat(cli.awaitStderr("measure", 300)).as("measuring: " + cli.stderrSoFar()).isTrue();
        assertThat(containersOf(pid)).hasSize(3);
        assertThat(docker.listContainersCmd().withLabelFilter(Map.of("io.cpbench.pid", Long.toString(pid))).exec())
                .allSatisfy(c -> assertThat(c.getImage()).startsWith("cpbench-stock-member:5.3.8-"));

        cli.interrupt(); // Ctrl-C
        CliProcess.Finished finished = cli.finish(120);

        assertThat(finished.exitCode()).as(finished.stdout() + finished.stderr()).isEqualTo(ExitCodes.INTERRUPTED);
        assertThat(finished.stderr()).contains("INCOMPLETE");
        assertThat(finished.stdout()).contains("(containers, stock 5.3.8)").contains("Members: Hazelcast 5.3.8; clients: Hazelcast 5.4.0");
        RunResult result = ResultFiles.readAll(List.of(onlyRunDir(work.resolve("runs")))).get(0);
        assertThat(result.status()).isEqualTo(Status.INCOMPLETE);
        assertThat(result.measured().ops()).isPositive().isLessThan(10_000_000);
        assertThat(result.cluster().memberVersion()).isEqualTo("5.3.8");
        assertThat(result.cluster().topology()).isEqualTo("containers, stock 5.3.8");
        // The members ran the stock jar alone: the leader query's class was not there to load.
        assertThat(Files.readString(onlyRunDir(work.resolve("runs")).resolve("members").resolve("member-0.log")))
                .contains("[5.3.8]").contains("ClassNotFoundException: io.cpbench.topology.LeaderQuery");
        assertNothingLeftBy(pid, finished.stderr());
    }
}
