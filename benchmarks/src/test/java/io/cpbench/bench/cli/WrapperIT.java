package io.cpbench.bench.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code ./cpbench} wrapper the README's main command runs, on a copy of a checkout: it builds the CLI when the
 * jar is missing, not again while the jar is newer than every pom and main source, once more after a source changes,
 * says so on stderr, stops with one line when the build fails, and runs the jar with the options and environment the
 * containers topology needs. Maven is a stand-in here (a script in place of {@code mvnw} that logs its arguments and
 * puts the jar this build packaged where Maven would): a real build of the project takes minutes, and the README's
 * main command runs the real one. The {@code --version} runs are the real CLI.
 */
class WrapperIT {

    @TempDir
    Path checkout;
    private Path builds;

    @BeforeEach
    void aCheckoutWithoutItsJar() throws IOException {
        Files.copy(Path.of("..", "cpbench"), checkout.resolve("cpbench"));
        Files.writeString(checkout.resolve("pom.xml"), "<project/>");
        for (String module : List.of("client-lb", "core", "topology", "benchmarks")) {
            Path main = Files.createDirectories(checkout.resolve(module).resolve("src/main/java/io/cpbench"));
            Files.writeString(checkout.resolve(module).resolve("pom.xml"), "<project/>");
            Files.writeString(main.resolve("Some.java"), "class Some {}");
            aged(main.resolve("Some.java"), 120);
            aged(checkout.resolve(module).resolve("pom.xml"), 120);
        }
        aged(checkout.resolve("pom.xml"), 120);
        builds = checkout.resolve("builds.log");
        Path jar = Path.of("target", "cpbench.jar").toAbsolutePath();
        assertThat(jar).as("the packaged CLI (the package phase runs before the integration tests)").exists();
        // Maven's stand-in: logs each build and, unless told to fail, writes the jar where the wrapper looks for it
        Files.writeString(checkout.resolve("mvnw"), "#!/usr/bin/env bash\n"
                + "echo \"$*\" >> '" + builds + "'\n"
                + "[[ -n \"${FAIL_BUILD:-}\" ]] && { echo '[ERROR] a planted build failure'; exit 1; }\n"
                + "mkdir -p benchmarks/target && cp '" + jar + "' benchmarks/target/cpbench.jar\n");
        Files.setPosixFilePermissions(checkout.resolve("mvnw"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(checkout.resolve("cpbench"), PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private record Ran(int exit, String stdout, String stderr) {
    }

    private Ran cpbench(Map<String, String> env, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(checkout.resolve("cpbench").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(checkout.toFile());
        pb.environment().putAll(env);
        Path out = checkout.resolve("out.txt");
        Path err = checkout.resolve("err.txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("./cpbench " + String.join(" ", args) + " did not end within 120 s");
        }
        return new Ran(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private List<String> builds() throws IOException {
        return Files.exists(builds) ? Files.readAllLines(builds, StandardCharsets.UTF_8) : List.of();
    }

    @Test
    void buildsWhenTheJarIsMissingAndAgainOnlyAfterASourceChanges() throws Exception {
        Ran first = cpbench(Map.of(), "--version");
        assertThat(first.exit()).as(first.stderr()).isZero();
        assertThat(first.stdout()).startsWith("cp-bench ").contains("Hazelcast 5.4.0");
        assertThat(first.stderr()).contains("cpbench: building the CLI (first run, or sources changed)");
        assertThat(builds()).as("one build, quiet, batch, without tests").containsExactly("-q -B -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -Dassembly.skipAssembly=true package");

        Ran second = cpbench(Map.of(), "--version");
        assertThat(second.exit()).isZero();
        assertThat(second.stderr()).doesNotContain("building");
        assertThat(builds()).as("the jar is newer than every source: no build").hasSize(1);

        // an edit half an hour after the jar was built (the jar aged an hour, the source half of that)
        Path jar = checkout.resolve("benchmarks/target/cpbench.jar");
        aged(jar, 60);
        aged(checkout.resolve("core/src/main/java/io/cpbench/Some.java"), 30);
        Ran third = cpbench(Map.of(), "--version");
        assertThat(third.exit()).isZero();
        assertThat(third.stderr()).contains("cpbench: building the CLI");
        assertThat(builds()).as("a source newer than the jar: one build more").hasSize(2);
        assertThat(cpbench(Map.of(), "--version").stderr()).doesNotContain("building");
        assertThat(builds()).hasSize(2);

        aged(jar, 60);
        aged(checkout.resolve("topology/pom.xml"), 30);
        assertThat(cpbench(Map.of(), "--version").stderr()).as("a pom newer than the jar").contains("building the CLI");
        assertThat(builds()).hasSize(3);
        assertThat(cpbench(Map.of(), "--version").stderr()).doesNotContain("building");
        assertThat(builds()).hasSize(3);
    }

    /** Sets {@code file}'s modification time {@code minutes} ago. */
    private static void aged(Path file, int minutes) throws IOException {
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(60L * minutes)));
    }

    @Test
    void aFailedBuildIsOneLineAndNoRun() throws Exception {
        Ran failed = cpbench(Map.of("FAIL_BUILD", "1"), "--version");
        assertThat(failed.exit()).isEqualTo(1);
        assertThat(failed.stdout()).isEmpty();
        assertThat(failed.stderr().strip().lines().toList()).last()
                .isEqualTo("cpbench: the build failed; see the Maven output above");
        assertThat(failed.stderr()).contains("[ERROR] a planted build failure");
    }

    /** What the wrapper hands the JVM: a {@code java} first on the PATH that prints its arguments and environment. */
    @Test
    void runsTheJarWithTheModulesAndTheContainersEnvironment() throws Exception {
        assertThat(cpbench(Map.of(), "--version").exit()).isZero(); // built
        Path bin = Files.createDirectories(checkout.resolve("bin"));
        Files.writeString(bin.resolve("java"), "#!/usr/bin/env bash\necho \"args: $*\"\n"
                + "echo \"ryuk: ${TESTCONTAINERS_RYUK_DISABLED:-unset}\"\necho \"host: ${TESTCONTAINERS_HOST_OVERRIDE:-unset}\"\n");
        Files.setPosixFilePermissions(bin.resolve("java"), PosixFilePermissions.fromString("rwxr-xr-x"));
        String path = bin + ":" + System.getenv("PATH");

        Ran ran = cpbench(Map.of("PATH", path, "CPBENCH_JAVA_OPTS", "-Xmx1g"), "list", "--all");
        assertThat(ran.stdout().lines().toList()).containsExactly(
                "args: -Xmx1g --add-modules java.se -jar " + checkout.resolve("benchmarks/target/cpbench.jar") + " list --all",
                "ryuk: true", "host: localhost");
        Ran overridden = cpbench(Map.of("PATH", path, "TESTCONTAINERS_HOST_OVERRIDE", "docker.example"), "list");
        assertThat(overridden.stdout()).contains("host: docker.example").contains("args: --add-modules java.se -jar ");
    }
}
