package io.cpbench.bench.cli;

import io.cpbench.topology.ChildJvmOptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The packaged CLI ({@code target/cpbench.jar}) run as a user runs it: its own JVM, exit code, stdout, stderr. */
final class CliProcess {

    static final Path JAR = Path.of("target", "cpbench.jar");

    final Process process;
    final Path stdout;
    final Path stderr;
    private final Path workDir;
    private final long startedMillis;

    private CliProcess(Process process, Path stdout, Path stderr, Path workDir, long startedMillis) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
        this.workDir = workDir;
        this.startedMillis = startedMillis;
    }

    static CliProcess start(Path workDir, String... args) throws IOException {
        return start(workDir, List.of(), args);
    }

    /** As {@link #start(Path, String...)}, with {@code jvmArgs} (system properties, say) before {@code -jar}. */
    static CliProcess start(Path workDir, List<String> jvmArgs, String... args) throws IOException {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR.toAbsolutePath() + " is missing; run the tests with 'mvn verify'");
        }
        List<String> command = new ArrayList<>();
        if (SIGINT_IGNORED) {
            // Started from a background job of a script, this JVM ignores SIGINT, and so would the CLI: reset it, so
            // that a Ctrl-C test's SIGINT reaches the CLI as a terminal's would (coreutils' env, 8.31 and later).
            command.addAll(List.of("env", "--default-signal=INT"));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--add-modules", "java.se"));
        // The CLI's own JVM gets what the JVMs it starts get (ChildJvmOptions): the tests' lighter JIT and GC.
        command.addAll(ChildJvmOptions.fromEnvironment());
        command.addAll(jvmArgs);
        command.addAll(List.of("-jar", JAR.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        return launch(workDir, command, java.util.Map.of());
    }

    /**
     * A command other than the packaged jar that runs the CLI (the distribution's {@code bin/cpbench}, say), with
     * {@code env} added to this JVM's environment.
     */
    static CliProcess launch(Path workDir, List<String> command, java.util.Map<String, String> env) throws IOException {
        Files.createDirectories(workDir);
        Path out = Files.createTempFile(workDir, "stdout", ".txt");
        Path err = Files.createTempFile(workDir, "stderr", ".txt");
        long started = System.currentTimeMillis() - 50; // file times come from a coarser clock than this one
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        return new CliProcess(process, out, err, workDir, started);
    }

    /** The one result of the one run directory under {@code runs}, asserted to be one. */
    /**
     * Processes still alive that a CLI run in {@code workDir} left: their command line names {@code runDir}'s folder
     * and they run in {@code workDir} (a run started in another test's folder in the same second has the same name).
     */
    static List<ProcessHandle> leftovers(Path workDir, Path runDir) {
        Path work = workDir.toAbsolutePath().normalize();
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("")
                .contains(runDir.getFileName().toString())).filter(p -> {
                    try {
                        return java.nio.file.Files.readSymbolicLink(Path.of("/proc", Long.toString(p.pid()), "cwd"))
                                .normalize().startsWith(work);
                    } catch (IOException | UnsupportedOperationException e) {
                        return p.isAlive(); // gone meanwhile, or no /proc: count it when it still runs
                    }
                }).toList();
    }

    static io.cpbench.core.result.RunResult onlyResult(Path runs) throws IOException {
        Path runDir;
        try (java.util.stream.Stream<Path> dirs = Files.list(runs)) {
            runDir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        List<io.cpbench.core.result.RunResult> results = io.cpbench.core.result.ResultFiles.readAll(List.of(runDir));
        org.assertj.core.api.Assertions.assertThat(results).hasSize(1);
        return results.get(0);
    }

    /** Runs to the end (at most {@code seconds}) and returns the exit code. */
    static Finished run(Path workDir, long seconds, String... args) throws IOException, InterruptedException {
        CliProcess cli = start(workDir, args);
        return cli.finish(seconds);
    }

    Finished finish(long seconds) throws InterruptedException, IOException {
        boolean ended;
        try {
            ended = process.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            // JUnit's timeout interrupted the test: the CLI must not outlive it (nor its members)
            String dump = threadDump();
            stop();
            System.err.println("cpbench was stopped when the test was interrupted; its threads were:\n" + dump);
            throw e;
        }
        if (!ended) {
            String dump = threadDump();
            stop();
            throw new AssertionError("cpbench did not end within " + seconds + " s; stderr: " + Files.readString(stderr)
                    + "\nits threads were:\n" + dump);
        }
        // every result file this run wrote, finished or interrupted, matches its published schema (docs/schemas)
        List<String> invalid = ResultSchemas.problemsUnder(workDir, startedMillis);
        if (!invalid.isEmpty()) {
            throw new AssertionError("result files that do not match docs/schemas/:\n  " + String.join("\n  ", invalid));
        }
        return new Finished(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8),
                Files.readString(stderr, StandardCharsets.UTF_8));
    }

    /** The CLI JVM's threads ({@code jcmd PID Thread.print}), for a run that hung; empty if it could not be had. */
    String threadDump() {
        try {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            byte[] out = dump.getInputStream().readAllBytes();
            if (!dump.waitFor(20, TimeUnit.SECONDS)) {
                dump.destroyForcibly();
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no thread dump: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(no thread dump: interrupted)";
        }
    }

    /**
     * Ends the CLI as a user's terminal would, then harder: SIGTERM lets its shutdown hooks stop the members it
     * started; whatever is still running after 30 s is killed, the CLI's descendants included.
     */
    void stop() {
        if (!process.isAlive()) {
            return;
        }
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        boolean ended = false;
        try {
            ended = process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!ended) {
            process.destroyForcibly();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * Whether this JVM ignores SIGINT. A background job of a non-interactive shell ({@code ./mvnw verify &} in a
     * script) starts with SIGINT ignored, a JVM keeps an ignored SIGINT ignored, and the processes it starts inherit
     * that: a Ctrl-C test would then wait out its bound for nothing.
     */
    static final boolean SIGINT_IGNORED = ignoresSigint(ProcessHandle.current().pid());

    static {
        if (SIGINT_IGNORED) {
            System.err.println("cpbench tests: this JVM ignores SIGINT (started in the background by a script?); "
                    + "the CLI processes are started with SIGINT at its default (env --default-signal=INT)");
        }
    }

    /** Whether process {@code pid} ignores SIGINT, from the SigIgn mask in {@code /proc/PID/status} (false elsewhere). */
    static boolean ignoresSigint(long pid) {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        try {
            for (String line : Files.readAllLines(status, StandardCharsets.UTF_8)) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & (1L << (2 - 1))) != 0;
                }
            }
        } catch (IOException | NumberFormatException notLinux) {
            return false;
        }
        return false;
    }

    /**
     * Ctrl-C, as a terminal sends it: SIGINT to the CLI's JVM. Fails at once, saying why, if the CLI ignores SIGINT
     * (it would never see this Ctrl-C).
     */
    void interrupt() throws IOException, InterruptedException {
        if (ignoresSigint(process.pid())) {
            throw new AssertionError("cpbench (pid " + process.pid() + ") ignores SIGINT, so Ctrl-C cannot reach it: it "
                    + "inherited an ignored SIGINT (the test JVM's SigIgn: " + (SIGINT_IGNORED ? "ignored" : "default")
                    + "); run the tests from a terminal, or reset SIGINT first: env --default-signal=INT ./mvnw verify");
        }
        new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
    }

    /** Waits (at most {@code seconds}) until standard error shows {@code text}; false if the CLI ended or time ran out. */
    boolean awaitStderr(String text, long seconds) throws IOException, InterruptedException {
        return await(stderr, text, seconds);
    }

    /** As {@link #awaitStderr}, on standard output. */
    boolean awaitStdout(String text, long seconds) throws IOException, InterruptedException {
        return await(stdout, text, seconds);
    }

    String stdoutSoFar() throws IOException {
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    private boolean await(Path file, String text, long seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!Files.readString(file, StandardCharsets.UTF_8).contains(text)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(100);
        }
        return true;
    }

    /** The processes this one started, and theirs, now. */
    List<ProcessHandle> descendants() {
        return process.descendants().toList();
    }

    String stderrSoFar() throws IOException {
        return Files.readString(stderr, StandardCharsets.UTF_8);
    }

    record Finished(int exitCode, String stdout, String stderr) {
    }
}
