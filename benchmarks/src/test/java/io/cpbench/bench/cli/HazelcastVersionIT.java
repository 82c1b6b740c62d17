package io.cpbench.bench.cli;

import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.Status;
import io.cpbench.topology.HazelcastRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --hazelcast-version}: members of 5.3.8 (stock members of its own jar, which .ci/run puts in the local Maven
 * repository first; else the CLI fetches it) under a scenario run and a short load, their release recorded; and the versions refused with one
 * line and exit 2 before any member starts.
 */
@org.junit.jupiter.api.Tag("long") // in CI's -Plong run: it keeps ./mvnw verify under 15 minutes
class HazelcastVersionIT {

    @TempDir
    Path work;

    @Test
    void aScenarioAndAShortLoadRunOnMembersOf538AndSaySo() throws Exception {
        CliProcess.Finished run = CliProcess.run(work, 300, "run", "--hazelcast-version", "5.3.8", "--members", "3",
                "--scenario", "client-leader", "--ops", "2000", "--warmup", "200", "--cluster-warmup", "0s", "--settle", "2s",
                "--out", "run");
        assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();
        assertThat(run.stdout()).contains("3 local members of Hazelcast 5.3.8").contains("Members: Hazelcast 5.3.8; clients: Hazelcast 5.4.0");
        RunResult scenario = CliProcess.onlyResult(work.resolve("run"));
        assertThat(scenario.status()).as(scenario.reason()).isEqualTo(Status.OK);
        assertThat(scenario.cluster().memberVersion()).isEqualTo("5.3.8");
        assertThat(scenario.cluster().topology()).isEqualTo("stock 5.3.8");
        assertThat(scenario.measured().ops()).isEqualTo(2000);

        CliProcess.Finished load = CliProcess.run(work, 300, "load", "--hazelcast-version", "5.3.8", "--members", "3",
                "--scenario", "client-smart", "--mix", "cas=1,get=1", "--duration", "3s", "--cluster-warmup", "0s",
                "--settle", "2s", "--quiet", "--out", "load");
        assertThat(load.exitCode()).as(load.stdout() + load.stderr()).isZero();
        RunResult loaded = CliProcess.onlyResult(work.resolve("load"));
        assertThat(loaded.status()).as(loaded.reason()).isEqualTo(Status.OK);
        assertThat(loaded.cluster().memberVersion()).isEqualTo("5.3.8");
        assertThat(loaded.load().total().all().ops()).isGreaterThan(0);
        Thread.sleep(1_000); // the members' wrappers kill them as the CLI's pipes close
        assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(work.toString()))
                .toList()).as("members left running").isEmpty();
    }

    @Test
    void badVersionsGetOneLineAndExit2BeforeAnyMemberStarts() throws Exception {
        for (String[] c : new String[][]{{"9.9", "expected a release number like 5.3.8"},
                {"banana", "expected a release number like 5.3.8"},
                {"5.5.0", "Hazelcast 5.5.0 and later refuse the CP Subsystem without an Enterprise licence"},
                {"4.2.8", "cp-bench runs Hazelcast 5.x releases"}}) {
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
}
