package io.cpbench.bench.cli;

import io.cpbench.bench.service.ExitCodes;
import io.cpbench.topology.HazelcastRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hazelcast releases: {@code ab} comparing 5.3.8 with 5.4.0 on a cluster of each (5.3.8's are stock members of its
 * own jar, which .ci/run puts in the local Maven repository first; else the CLI fetches it); {@code load} with both
 * as its version axis; and the versions refused with one line and exit 2 before any member starts.
 */
@org.junit.jupiter.api.Tag("long") // in CI's -Plong run: it keeps ./mvnw verify under 15 minutes
class HazelcastVersionIT {

    @TempDir
    Path work;

    /**
     * {@code ab --base-version 5.3.8 --new-version 5.4.0}: each side on a fresh cluster of its release, both up while
     * the sides take turns; the clients report which release they found, and the table says so. The scenario is
     * client-leader-aware: BASE's 5.4.0 client finds the leader of 5.3.8 members only if its balancer falls back from
     * the forwarding probe those members refuse (getCPObjectInfos is 5.4's) to a CP read. (A separate `load` on 5.3.8
     * ran here until 2026-11-27; it went to keep CI within its 30 minutes: the ab runs the scenario under load on a
     * 5.3.8 cluster.)
     */
    @Test
    void aShortCrossVersionAbRunsEachSideOnMembersOfItsRelease() throws Exception {
        CliProcess.Finished ab = CliProcess.run(work, 420, "ab", "--base-version", "5.3.8", "--new-version", "5.4.0",
                "--scenario", "client-leader-aware", "--members", "3", "--settle", "1s", "--warmup", "1s", "--slice", "200ms", "--until-ci", "0", "--min-pairs", "5",
                "--max-pairs", "6", "--restart-every", "0", "--out", "ab");
        // the verdict either way (0 no change, 1 slower); 2 or 3 would be a broken run
        assertThat(ab.exitCode()).as(ab.stdout() + ab.stderr()).isIn(0, 1);
        assertThat(ab.stdout()).contains("BASE's cluster ready").contains("(stock 5.3.8)").contains("NEW's cluster ready")
                .contains("(stock 5.4.0)").contains("BASE ready: cp-bench").contains("members Hazelcast 5.3.8")
                .contains("stopped after 6 pairs");
        Path runDir;
        try (java.util.stream.Stream<Path> dirs = Files.list(work.resolve("ab"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        String table = Files.readString(runDir.resolve("table.md"));
        assertThat(table).contains("members as the clients saw them: BASE Hazelcast 5.3.8, NEW Hazelcast 5.4.0")
                .contains("on 3 local members of Hazelcast 5.3.8").contains("a turn of each side on its own cluster")
                .contains("# cp-bench ab: client-leader-aware")
                .containsPattern("\\| ab +\\| all +\\| 6/6 ");
        List<String> csv = Files.readAllLines(runDir.resolve("slices.csv"));
        assertThat(csv).hasSize(1 + 2 * 6);
        assertThat(csv.subList(1, csv.size())).allSatisfy(line -> assertThat(Long.parseLong(line.split(",")[4])).as(line).isPositive());
        // each cluster's members log into the run directory, and none outlives the run
        assertThat(runDir.resolve("members-base-1").resolve("member-0.log")).content().contains("[5.3.8]");
        assertThat(runDir.resolve("members-new-1").resolve("member-0.log")).content().contains("[5.4.0]");
        assertNoneLeft("members or client processes left running");
    }

    /**
     * {@code load --hazelcast-version 5.3.8,5.4.0}, the version axis (matrix and run share its rounds: ReleaseAxisRun):
     * a round on fresh clusters of both releases, started side by side, a short load of the scenario on each; each
     * release's results in a run directory of its own, and releases.md comparing them (one round: ratios, no verdict).
     * This is also the short load on a 5.3.8 cluster that the issue on releases asks an IT for.
     */
    @Test
    void aLoadAcrossReleasesRunsOnAFreshClusterOfEach() throws Exception {
        CliProcess.Finished m = CliProcess.run(work, 300, "load", "--hazelcast-version", "5.3.8,5.4.0", "--members", "3",
                "--settle", "1s", "--scenario", "client-leader", "--mix", "cas=3,get=1", "--duration", "2s", "--warmup", "1s",
                "--cluster-warmup", "0s", "--out", "m");
        assertThat(m.exitCode()).as(m.stdout() + m.stderr()).isZero();
        assertThat(m.stdout()).contains("1 scenario x 1 round x 2 Hazelcast releases (5.3.8, 5.4.0)")
                .contains("1 round: the releases' ratios come with intervals but no verdict")
                .contains("round 1: starting fresh clusters side by side").contains("(stock 5.3.8)").contains("(stock 5.4.0)")
                .contains("client-leader on Hazelcast 5.3.8").contains("client-leader on Hazelcast 5.4.0")
                .doesNotContain("warming the cluster up").doesNotContain("s cluster:"); // --cluster-warmup 0s: none
        Path runDir;
        try (java.util.stream.Stream<Path> dirs = Files.list(work.resolve("m"))) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        assertThat(runDir.resolve("releases.md")).content().contains("# cp-bench load across Hazelcast releases")
                .contains("## Hazelcast 5.4.0 against Hazelcast 5.3.8")
                .containsPattern("\\| client-leader +\\| all +\\| 1/1 ").contains("verdict: UNDECIDED");
        assertThat(runDir.resolve("hazelcast-5.3.8/table.md")).content().contains("Members: Hazelcast 5.3.8; clients: Hazelcast 5.4.0")
                .contains("client-leader [load]");
        assertThat(runDir.resolve("hazelcast-5.4.0/table.md")).content().contains("Members: Hazelcast 5.4.0; clients: Hazelcast 5.4.0");
        assertThat(runDir.resolve("hazelcast-5.3.8/01-client-leader.load.json")).content().contains("\"cas\"").contains("\"get\"");
        assertThat(runDir.resolve("members-5.3.8-1").resolve("member-0.log")).content().contains("[5.3.8]");
        assertThat(runDir.resolve("members-5.4.0-1").resolve("member-0.log")).content().contains("[5.4.0]");
        assertNoneLeft("member processes left running");
    }

    @Test
    void badVersionsGetOneLineAndExit2BeforeAnyMemberStarts() throws Exception {
        for (String[] c : new String[][]{{"9.9", "expected a release number like 5.3.8"},
                {"banana", "expected a release number like 5.3.8"},
                {"5.5.0", "Hazelcast 5.5.0 and later refuse the CP Subsystem without an Enterprise licence"},
                {"4.2.8", "cp-bench runs Hazelcast 5.x releases"},
                {"5.3.3", "--hazelcast-version 5.3.3: not an open-source release cp-bench knows the SHA-256 of"}}) {
            CliProcess.Finished f = CliProcess.run(work, 60, "load", "--hazelcast-version", c[0], "--duration", "2s");
            assertThat(f.exitCode()).as(c[0] + ": " + f.stderr()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(f.stderr().strip().lines()).as(c[0]).hasSize(1).first().asString().contains(c[1]);
            assertThat(f.stdout()).as(c[0]).doesNotContain("starting");
        }
        // a release that is not in the local repository and cannot be fetched (the repository at a closed port)
        Path emptyRepo = Files.createDirectories(work.resolve("m2"));
        CliProcess offline = CliProcess.start(work, List.of("-Dmaven.repo.local=" + emptyRepo,
                "-Dcpbench.maven.repository=http://127.0.0.1:9/"), "load", "--hazelcast-version", "5.3.8", "--duration", "2s");
        CliProcess.Finished f = offline.finish(60);
        assertThat(f.exitCode()).as(f.stderr()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(f.stderr()).contains("--hazelcast-version 5.3.8: cannot fetch http://127.0.0.1:9/com/hazelcast/hazelcast/5.3.8/"
                + "hazelcast-5.3.8.jar (cannot connect); offline, put the jar at " + emptyRepo);
        assertThat(f.stdout()).doesNotContain("starting");
        assertThat(new HazelcastRelease("5.3.8").localJar()).as("the real repository still has it").isRegularFile();
    }

    /** No process whose command line names this test's folder is left, waited for (bounded: they end with the CLI). */
    private void assertNoneLeft(String what) {
        org.awaitility.Awaitility.await(what).atMost(java.time.Duration.ofSeconds(60))
                .pollInterval(java.time.Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(ProcessHandle.allProcesses()
                        .filter(p -> p.info().commandLine().orElse("").contains(work.toString())).toList()).as(what).isEmpty());
    }
}
