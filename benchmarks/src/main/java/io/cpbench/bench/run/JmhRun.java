package io.cpbench.bench.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.jmh.CpOpBenchmark;
import io.cpbench.bench.jmh.HarnessCost;
import io.cpbench.bench.jmh.JmhResults;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.results.RunLines;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.service.RunContext;
import io.cpbench.bench.service.RunKind;
import io.cpbench.bench.suite.ClusterWarmup;
import io.cpbench.bench.suite.Matrix;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.core.load.Durations;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.ScenarioTable;
import io.cpbench.core.status.Status;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A JMH run: the CP op under JMH ({@link CpOpBenchmark}), one trial per scenario and mode, in interleaved rounds;
 * each trial a JMH fork of its own that starts (or reaches) the cluster, its JSON folded into a cp-bench result
 * ({@link JmhResults}) and written as it ends. Then, optionally, JMH measures the harness's own cost per op
 * ({@link HarnessCost}), set against the client-leader p50.
 *
 * <p>A run runs once. {@link #stop()} may be called from any thread (a Ctrl-C hook): the trial in flight is kept as
 * INCOMPLETE (JMH reports a trial only when it ends), the JMH fork and the members it started are stopped, and no
 * other trial starts.
 */
public final class JmhRun implements RunKind {

    /**
     * Each trial's iterations.
     *
     * @param warmup       warm-up iterations, 0-1000
     * @param warmupTime   length of a warm-up iteration, 1s-1h
     * @param measured     measured iterations, 1-1000
     * @param measuredTime length of a measured iteration, 1s-1h
     */
    public record Iterations(int warmup, Duration warmupTime, int measured, Duration measuredTime) {
        public Iterations {
            count("warm-up iterations", warmup, 0);
            count("iterations", measured, 1);
            length("--warmup-time", warmupTime);
            length("--iteration-time", measuredTime);
        }

        /** The iterations' time in a trial, in seconds. */
        public long seconds() {
            return warmup * warmupTime.toSeconds() + measured * measuredTime.toSeconds();
        }

        private static void count(String what, int value, int min) {
            if (value < min || value > 1000) {
                throw new IllegalArgumentException(what + " must be " + min + "-1000, was " + value);
            }
        }

        private static void length(String option, Duration value) {
            if (value.compareTo(Duration.ofSeconds(1)) < 0 || value.compareTo(Duration.ofHours(1)) > 0) {
                throw new IllegalArgumentException(option + " must be 1s-1h, was " + value.toMillis() + " ms");
            }
        }
    }

    /**
     * @param scenarios     the scenarios, each a trial per harness per round
     * @param harnesses     {@link JmhResults#THROUGHPUT} and/or {@link JmhResults#SAMPLE}
     * @param rounds        interleaved rounds, 1-100
     * @param iterations    each trial's iterations
     * @param threads       client threads (JMH -t), 1-256
     * @param clusterWarmup in every trial's fork, before the trial
     * @param clusterArgs   cp-bench's cluster options, for the fork to start or reach the cluster with
     * @param harnessCost   whether HarnessCost runs after the trials
     * @param cluster       the cluster that {@code clusterArgs} give, for the opening line: each trial's fork starts or
     *                      reaches it, not this process
     */
    public record Config(List<Scenario> scenarios, List<String> harnesses, int rounds, Iterations iterations, int threads,
                         ClusterWarmup clusterWarmup, List<String> clusterArgs, boolean harnessCost, ClusterChoice cluster) {
        public Config {
            scenarios = List.copyOf(scenarios);
            harnesses = List.copyOf(harnesses);
            clusterArgs = List.copyOf(clusterArgs);
            if (rounds < 1 || rounds > 100) {
                throw new IllegalArgumentException("rounds must be 1-100, was " + rounds);
            }
            if (threads < 1 || threads > 256) {
                throw new IllegalArgumentException("threads must be 1-256, was " + threads);
            }
        }

        public int trials() {
            return rounds * scenarios.size() * harnesses.size();
        }
    }

    private final Config config;
    private final PrintStream console;
    private volatile Path runDir;
    private final List<RunResult> results = new CopyOnWriteArrayList<>();
    private final List<String> notes = new CopyOnWriteArrayList<>();
    /** The trial JMH is running, for a stop to keep as INCOMPLETE; null between trials. */
    private volatile Trial current;
    private volatile boolean stopped;

    /**
     * What a trial takes here beyond its iterations, for the estimate: JMH's fork, starting and settling a 5-member
     * cluster, its warm-up, stopping it. Measured on 2 cores: 44-51 s (12 trials in 17m03s with 40 s of iterations,
     * 8 quick trials in 8m50s with 15 s).
     */
    static final long TRIAL_OVERHEAD_SECONDS = 50;
    /** The same on a running cluster (remote, attach): the fork reaches it and warms it up; about 20 s on loopback. */
    static final long REACH_OVERHEAD_SECONDS = 20;

    public JmhRun(Config config, PrintStream console) {
        this.config = config;
        this.console = console;
    }

    @Override
    public String name() {
        return "jmh";
    }

    @Override
    public void announce(PrintStream out, Path dir) {
        List<Scenario> scenarios = config.scenarios();
        List<String> harnesses = config.harnesses();
        Iterations it = config.iterations();
        ClusterChoice cluster = config.cluster();
        int trials = config.trials();
        long perTrial = (cluster.startsMembers() ? TRIAL_OVERHEAD_SECONDS : REACH_OVERHEAD_SECONDS) + it.seconds();
        out.printf(Locale.ROOT, "cp-bench jmh: %d scenario%s x %d mode%s x %d round%s = %d trials; each %s, "
                        + "then %d x %s warm-up and %d x %s measured iterations; about %s in all%n",
                scenarios.size(), scenarios.size() == 1 ? "" : "s", harnesses.size(), harnesses.size() == 1 ? "" : "s",
                config.rounds(), config.rounds() == 1 ? "" : "s", trials, cluster.startsMembers()
                        ? "starts a fresh cluster (" + cluster.describe() + ")"
                        : "reaches " + cluster.describe(), it.warmup(), Durations.human(it.warmupTime().toSeconds()),
                it.measured(), Durations.human(it.measuredTime().toSeconds()),
                Durations.human(trials * perTrial + (config.harnessCost() ? 15 : 0)));
        out.println("results -> " + dir + "   (JMH's own JSON and output: " + dir.resolve("jmh") + ")");
    }

    @Override
    public void run(RunContext context) {
        runDir = context.runDir();
        run();
    }

    @Override
    public void write(RunContext context) {
        RunDirectory.writeSummary(console, context.runDir(), "jmh", results(), notes());
        String summary = RunLines.notOk("jmh", results());
        if (summary != null) {
            System.err.println(summary);
        }
    }

    /** The worst of its results' statuses; OK with none. */
    @Override
    public Status status() {
        return ResultRun.worstOrOk(results());
    }

    /** Runs every trial, round after round, then HarnessCost if asked. */
    private void run() {
        Path jmhDir = RunDirectory.create(runDir.resolve("jmh"));
        List<Trial> units = new ArrayList<>();
        config.scenarios().forEach(scenario -> config.harnesses().forEach(harness -> units.add(new Trial(scenario, harness, 0))));
        Matrix.rounds(units, config.rounds(), () -> stopped, done -> true, (round, unit) -> {
            Trial trial = new Trial(unit.scenario, unit.harness, round);
            current = trial;
            console.printf("[round %d/%d] %s (%s): %s%n", round, config.rounds(), trial.scenario.name(), trial.harness,
                    trial.scenario.description());
            RunResult result = runTrial(trial, jmhDir);
            current = null;
            if (!stopped) {
                keep(result);
                console.println("    " + RunLines.oneLine(result));
            }
        });
        if (config.harnessCost() && !stopped) {
            console.println("[harness] HarnessCost: cp-bench's own timed path around a no-op ...");
            harnessCostNote().ifPresent(notes::add);
        }
    }

    /** Ends the run: the trial in flight is kept as INCOMPLETE, JMH's fork and its members are stopped. */
    @Override
    public void stop() {
        stopped = true;
        Trial inFlight = current;
        if (inFlight != null) {
            keep(JmhResults.unmeasured(inFlight.scenario, inFlight.harness, inFlight.round, Status.INCOMPLETE,
                    "interrupted during the JMH trial; JMH reports a trial only when it ends", config.threads()));
        }
        stopDescendants();
    }

    @Override
    public boolean stopped() {
        return stopped;
    }

    /** The results so far, by round. */
    public List<RunResult> results() {
        return sorted();
    }

    /** Lines for the summary: the harness cost, when it ran. */
    public List<String> notes() {
        return List.copyOf(notes);
    }

    private record Trial(Scenario scenario, String harness, int round) {
        String stem() {
            return String.format("%02d-%s.%s", round, scenario.name(), harness);
        }

        String method() {
            return harness.equals(JmhResults.SAMPLE) ? "sampleTime" : "throughput";
        }
    }

    private RunResult runTrial(Trial trial, Path jmhDir) {
        Iterations it = config.iterations();
        Path json = jmhDir.resolve(trial.stem() + ".json");
        Path report = jmhDir.resolve(trial.stem() + ".report.json");
        Path log = jmhDir.resolve(trial.stem() + ".log");
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include("^" + Pattern.quote(CpOpBenchmark.class.getName() + "." + trial.method()) + "$")
                .param("scenario", trial.scenario.name())
                .forks(1)
                .warmupIterations(it.warmup()).warmupTime(TimeValue.milliseconds(it.warmupTime().toMillis()))
                .measurementIterations(it.measured()).measurementTime(TimeValue.milliseconds(it.measuredTime().toMillis()))
                .threads(config.threads())
                .jvmArgsPrepend("-D" + CpOpBenchmark.REPORT_PROPERTY + "=" + report.toAbsolutePath(),
                        "-D" + CpOpBenchmark.CLUSTER_WARMUP_PROPERTY + "=" + config.clusterWarmup(),
                        "-D" + CpOpBenchmark.CLUSTER_PROPERTY + "=" + String.join(CpOpBenchmark.ARG_SEPARATOR, config.clusterArgs()))
                .jvmArgsAppend(forkFlags())
                .shouldFailOnError(true)
                .resultFormat(org.openjdk.jmh.results.format.ResultFormatType.JSON)
                .result(json.toString());
        try {
            runJmh(options, log);
        } catch (RunnerException | RuntimeException e) {
            return JmhResults.unmeasured(trial.scenario, trial.harness, trial.round, stopped ? Status.INCOMPLETE : Status.FAIL,
                    "JMH trial failed: " + failureIn(log, e) + " (see " + log + ")", config.threads());
        }
        ScenarioSession.Report checks = readReport(report);
        List<RunResult> folded = JmhResults.fold(json, trial.round, (b, m, s, fork) -> checks).results();
        if (folded.size() != 1) {
            return JmhResults.unmeasured(trial.scenario, trial.harness, trial.round, Status.FAIL,
                    "JMH wrote " + folded.size() + " results for one trial (see " + json + ")", config.threads());
        }
        return folded.get(0);
    }

    /** The fork's JVM flags: Hazelcast's on Java 17, from their one home, and the benchmark's logging setting. */
    static String[] forkFlags() {
        List<String> flags = new ArrayList<>(io.cpbench.topology.MemberCommand.HAZELCAST_JVM_FLAGS);
        flags.addAll(List.of(CpOpBenchmark.class.getAnnotation(org.openjdk.jmh.annotations.Fork.class).jvmArgsAppend()));
        return flags.toArray(String[]::new);
    }

    /** Runs JMH in this JVM (its trials fork JVMs of their own); its output goes to the log, iteration lines also here. */
    private static void runJmh(ChainedOptionsBuilder options, Path log) throws RunnerException {
        try (OutputStream file = Files.newOutputStream(log);
             PrintStream tee = new PrintStream(new IterationLines(file, System.out), true, StandardCharsets.UTF_8)) {
            new Runner(options.build(), OutputFormatFactory.createFormatInstance(tee, VerboseMode.NORMAL)).run();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + log + ": " + e.getMessage(), e);
        }
    }

    private Optional<String> harnessCostNote() {
        Path json = runDir.resolve("jmh").resolve("harness-cost.json");
        Path log = runDir.resolve("jmh").resolve("harness-cost.log");
        try {
            runJmh(new OptionsBuilder().include("^" + Pattern.quote(HarnessCost.class.getName() + ".driverPerOp") + "$")
                    .shouldFailOnError(true).resultFormat(org.openjdk.jmh.results.format.ResultFormatType.JSON)
                    .result(json.toString()), log);
            List<JmhResults.HarnessCostFigure> costs = JmhResults.fold(json, 1, JmhResults.Reports.NONE).harnessCosts();
            return costs.isEmpty() ? Optional.empty() : Optional.of(harnessCostLine(costs.get(0), sorted()));
        } catch (RunnerException | RuntimeException e) {
            return Optional.of("Harness cost: the HarnessCost benchmark failed: " + failureIn(log, e));
        }
    }

    /** The harness's cost per op, and its share of the client-leader op's p50 measured by SampleTime here. */
    public static String harnessCostLine(JmhResults.HarnessCostFigure cost, List<RunResult> results) {
        // JMH gives no error for one measurement iteration (its scoreError is NaN): say so rather than print "± NaN"
        String error = Double.isFinite(cost.error()) ? String.format(Locale.ROOT, " ± %.0f ns/op", cost.error())
                : " ns/op (one iteration: no error bar)";
        String figure = String.format(Locale.ROOT, "Harness cost (HarnessCost: cp-bench's driver around a no-op): %.0f%s",
                cost.nanosPerOp(), error);
        Optional<ScenarioTable.Row> reference = ScenarioTable.rows(results).stream()
                .filter(row -> row.latency().p50() > 0 && row.scenario().endsWith("[" + JmhResults.SAMPLE + "]"))
                .min(Comparator.comparing((ScenarioTable.Row row) -> !row.scenario().startsWith("client-leader ["))
                        .thenComparingLong(row -> row.latency().p50()));
        if (reference.isEmpty()) {
            return figure + "; no SampleTime p50 in this run to compare it with";
        }
        long p50 = reference.get().latency().p50();
        return figure + String.format(Locale.ROOT, " = %.4f %% of the %s p50 (%,d µs); goal: under 0.2 %%",
                cost.percentOf(p50), reference.get().scenario(), p50);
    }

    private List<RunResult> sorted() {
        List<RunResult> all = new ArrayList<>(results);
        all.sort(Comparator.comparingInt(RunResult::round));
        return all;
    }

    private void keep(RunResult result) {
        results.add(result);
        ResultFiles.write(runDir, result);
    }

    private static ScenarioSession.Report readReport(Path report) {
        if (!Files.isRegularFile(report)) {
            return null;
        }
        try {
            return new ObjectMapper().readValue(report.toFile(), ScenarioSession.Report.class);
        } catch (IOException e) {
            return null;
        }
    }

    /** The first line JMH printed after {@code <failure>}, which names the exception; else the exception itself. */
    static String failureIn(Path log, Exception e) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains("<failure>")) {
                    for (int k = i + 1; k < lines.size(); k++) {
                        if (!lines.get(k).isBlank()) {
                            return lines.get(k).trim();
                        }
                    }
                }
            }
        } catch (IOException ignored) {
            // Fall back to the exception.
        }
        return e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse(e.toString());
    }

    /** Stops the JMH fork and the members it started, gracefully first: on Ctrl-C nothing may outlive the CLI. */
    private static void stopDescendants() {
        List<ProcessHandle> children = ProcessHandle.current().descendants().toList();
        children.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (ProcessHandle child : children) {
            while (child.isAlive() && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    break;
                }
            }
            if (child.isAlive()) {
                child.destroyForcibly();
            }
        }
    }

    /**
     * Everything JMH prints goes to the trial's log; the lines that close an iteration ("Iteration 1: 512 ops/s")
     * also go to the console, indented, as the trial's progress.
     */
    static final class IterationLines extends OutputStream {
        private final OutputStream log;
        private final PrintStream console;
        private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

        IterationLines(OutputStream log, PrintStream console) {
            this.log = log;
            this.console = console;
        }

        @Override
        public void write(int b) throws IOException {
            log.write(b);
            if (b == '\n') {
                String text = line.toString(StandardCharsets.UTF_8);
                line.reset();
                if (text.startsWith("# Warmup Iteration") || text.startsWith("Iteration")) {
                    console.println("      " + text.stripTrailing());
                }
            } else {
                line.write(b);
            }
        }

        @Override
        public void flush() throws IOException {
            log.flush();
        }
    }
}
