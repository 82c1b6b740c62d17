package io.cpbench.bench.cli;

import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import io.cpbench.topology.ChildJvmOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The distribution, as a load host gets it (docs/agents.md): {@code target/cpbench-<version>.tar.gz}, unpacked with
 * tar into an empty directory, runs {@code bin/cpbench --version}, an agent started from it, and a coordinator from
 * it whose load runs on that agent against the shared cluster ({@link SharedCluster}). Nothing of the checkout is on
 * their path: they run in the unpacked tree's own directory.
 */
@SharedCluster.Uses
@Tag("long") // in CI's -Plong run
class DistributionIT {

    /** A control port of its own: AgentHostsIT's agents use 5871-5872, 'load --agents' 5801 up. */
    private static final String HOST = "127.0.0.1:5881";

    @TempDir
    Path work;

    @Test
    void theTarballUnpackedAloneRunsTheCliAnAgentAndALoadOnIt() throws Exception {
        Path tarball;
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            List<Path> found = files.filter(p -> p.getFileName().toString().matches("cpbench-.*\\.tar\\.gz")).toList();
            assertThat(found).as("the distribution ./mvnw package made").hasSize(1);
            tarball = found.get(0).toAbsolutePath();
        }
        String version = tarball.getFileName().toString().replaceAll("^cpbench-|\\.tar\\.gz$", "");
        Path unpacked = work.resolve("empty");
        Files.createDirectories(unpacked);
        Process tar = new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", unpacked.toString()).inheritIO().start();
        assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).isZero();
        Path home = unpacked.resolve("cpbench-" + version);
        try (Stream<Path> all = Files.walk(unpacked)) {
            assertThat(all.filter(Files::isRegularFile).map(p -> unpacked.relativize(p).toString()).sorted().toList())
                    .containsExactly("cpbench-" + version + "/LICENSE", "cpbench-" + version + "/README.txt",
                            "cpbench-" + version + "/bin/cpbench", "cpbench-" + version + "/lib/cpbench.jar");
        }
        assertThat(Files.isExecutable(home.resolve("bin/cpbench"))).isTrue();
        assertThat(Files.readString(home.resolve("README.txt"))).startsWith("cp-bench " + version + ": ");

        CliProcess.Finished shown = run(home, 60, "--version");
        assertThat(shown.exitCode()).as(shown.stderr()).isZero();
        assertThat(shown.stdout().strip()).isEqualTo("cp-bench " + version + ", Hazelcast 5.4.0");

        Path secret = work.resolve("control.secret");
        CliProcess.Finished made = run(home, 60, "agent", "--new-secret", "--secret-file", secret.toString());
        assertThat(made.exitCode()).as(made.stdout() + made.stderr()).isZero();
        CliProcess agent = start(home, "agent", "--control", HOST, "--port", "5881", "--name", "from-tarball",
                "--secret-file", secret.toString());
        try {
            assertThat(agent.awaitStdout("waiting for runs", 90)).as(agent.stdoutSoFar()).isTrue();
            CliProcess.Finished load = run(home, 180, SharedCluster.with("load", "--agent-hosts", HOST, "--secret-file",
                    secret.toString(), "--mix", "cas", "--clients", "1", "--threads", "1", "--duration", "2s",
                    "--warmup", "1s", "--cluster-warmup", "0s", "--scenario", "client-smart", "--settle", "1s",
                    "--quiet", "--no-history", "--out", work.resolve("runs").toString()));
            assertThat(load.exitCode()).as(load.stdout() + load.stderr()).isEqualTo(ExitCodes.OK);
            RunResult r = CliProcess.onlyResult(work.resolve("runs"));
            assertThat(r.status()).as(r.reason()).isEqualTo(Status.OK);
            assertThat(r.load().agents()).extracting(LoadResult.AgentRow::agent).containsExactly("from-tarball");
            assertThat(r.load().total().all().ops()).isGreaterThan(0);
            assertThat(r.environment().cpbenchVersion()).isEqualTo(version);
        } finally {
            agent.stop();
        }
    }

    private CliProcess start(Path home, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/cpbench").toString()));
        command.addAll(List.of(args));
        // this JVM's JDK, and the tests' lighter JIT for the CLI's JVM as for every JVM the tests start
        return CliProcess.launch(home, command, Map.of("JAVA_HOME", System.getProperty("java.home"),
                "CPBENCH_JAVA_OPTS", String.join(" ", ChildJvmOptions.fromEnvironment())));
    }

    private CliProcess.Finished run(Path home, long seconds, String... args) throws Exception {
        return start(home, args).finish(seconds);
    }
}
