package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.bench.jmh.CpOpBenchmark;
import io.cpbench.bench.jmh.HarnessCost;
import io.cpbench.bench.jmh.JmhResults;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.suite.Matrix;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.core.load.Durations;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.ScenarioTable;
import io.cpbench.core.result.Status;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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

@Command(name = "jmh", mixinStandardHelpOptions = true,
        description = {"Runs the CP op under JMH, one trial per scenario and mode, in interleaved rounds, on the topologies "
                + "'matrix' runs on: each local trial on a fresh local 5-member cluster set up as by 'run'; with --topology "
                + "remote or attach, every trial on the same running cluster, reached anew by each JMH fork. Folds JMH's "
                + "JSON into cp-bench results and prints the same table. Then measures the harness's own cost per op.",
                "Throughput (thrpt) answers 'how many ops a second'; SampleTime (sample) gives the op-time distribution, "
                        + "closed-loop, so stalls hide behind the op that waited (coordinated omission).",
                "Without --scenario: the 13 scenarios of 'cpbench list' that run by default.",
                "--fold FILE instead turns the JSON of a 'java -jar benchmarks/target/benchmarks.jar ... -rf json' run into results."},
        footer = {"", "Examples:", "  cpbench jmh --quick --scenario client-leader,client-smart",
                "  cpbench jmh --quick --topology remote --inventory lab.json --scenario client-leader,client-follower",
                "  cpbench jmh --fold jmh-result.json"})
final class JmhCommand implements java.util.concurrent.Callable<Integer> {

    @picocli.CommandLine.Mixin
    ClusterOptions clusterOptions;

    @picocli.CommandLine.Mixin
    ScenarioOption scenarioOption;

    @Option(names = "--modes", paramLabel = "MODE", split = ",", defaultValue = "thrpt,sample",
            description = "JMH modes: thrpt, sample (default: ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1",
            description = "Interleaved rounds; each round runs every scenario and mode once, order rotated (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--quick", description = "1 warm-up iteration of 5s, 2 measured iterations of 5s per trial.")
    boolean quick;

    @Option(names = "--warmup-iterations", paramLabel = "N", description = "Warm-up iterations per trial (default: 2; quick: 1).")
    Integer warmupIterations;

    @Option(names = "--warmup-time", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Length of a warm-up iteration (default: 5s).")
    Duration warmupTime;

    @Option(names = "--iterations", paramLabel = "N", description = "Measured iterations per trial (default: 3; quick: 2).")
    Integer iterations;

    @Option(names = "--iteration-time", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Length of a measured iteration (default: 10s; quick: 5s).")
    Duration iterationTime;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1", description = "Client threads (JMH -t) (default: ${DEFAULT-VALUE}).")
    int threads;

    /** In every trial's fork, before the trial: each local trial's cluster is fresh. */
    @picocli.CommandLine.Mixin
    ClusterWarmupOption clusterWarmup;

    @Option(names = "--harness-cost", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also run HarnessCost (about 10s) and report it against the client-leader p50 (default: on).")
    boolean harnessCost;

    @Option(names = "--fold", paramLabel = "JMH_JSON",
            description = "Run nothing: fold this JMH JSON file into cp-bench results (round = fork) and print the table.")
    Path fold;

    @picocli.CommandLine.Mixin
    OutOption out;

    /**
     * What a trial takes here beyond its iterations, for the estimate: JMH's fork, starting and settling a 5-member
     * cluster, its warm-up, stopping it. Measured on 2 cores: 44-51 s (12 trials in 17m03s with 40 s of iterations,
     * 8 quick trials in 8m50s with 15 s).
     */
    static final long TRIAL_OVERHEAD_SECONDS = 50;
    /** The same on a running cluster (remote, attach): the fork reaches it and warms it up; about 20 s on loopback. */
    static final long REACH_OVERHEAD_SECONDS = 20;

    private final List<RunResult> results = new CopyOnWriteArrayList<>();
    private Path runDir;
    /** The trial JMH is running, for Ctrl-C to keep as INCOMPLETE; null between trials. */
    private volatile Trial current;
    private volatile boolean stopped;

    @Override
    public Integer call() {
        if (fold != null) {
            return foldOnly();
        }
        List<Scenario> scenarios = Scenarios.byNames(scenarioOption.names());
        List<String> harnesses = harnesses();
        clusterOptions.validate(-1);
        if (scenarios.stream().anyMatch(Scenario::slowNetwork) && !clusterOptions.canSlowAMemberDown()) {
            throw new IllegalArgumentException("network (b) scenarios ("
                    + scenarios.stream().filter(Scenario::slowNetwork).map(Scenario::name).toList()
                    + ") need a local topology with --network emulated, or remote with an inventory that has an ssh section");
        }
        if (rounds < 1 || rounds > 100) {
            throw new IllegalArgumentException("rounds must be 1-100, was " + rounds);
        }
        if (threads < 1 || threads > 256) {
            throw new IllegalArgumentException("threads must be 1-256, was " + threads);
        }
        int wi = positive("warm-up iterations", warmupIterations != null ? warmupIterations : quick ? 1 : 2, 0);
        int mi = positive("iterations", iterations != null ? iterations : quick ? 2 : 3, 1);
        Duration wt = atLeastASecond("--warmup-time", warmupTime != null ? warmupTime : Duration.ofSeconds(5));
        Duration mt = atLeastASecond("--iteration-time", iterationTime != null ? iterationTime
                : Duration.ofSeconds(quick ? 5 : 10));

        PrintStream console = System.out;
        runDir = RunDirectory.create(out.dir, "jmh");
        Path jmhDir = runDir.resolve("jmh");
        createDirectories(jmhDir);
        int trials = rounds * scenarios.size() * harnesses.size();
        long perTrial = (clusterOptions.startsMembers() ? TRIAL_OVERHEAD_SECONDS : REACH_OVERHEAD_SECONDS)
                + wi * wt.toSeconds() + mi * mt.toSeconds();
        console.printf(Locale.ROOT, "cp-bench jmh: %d scenario%s x %d mode%s x %d round%s = %d trials; each %s, "
                        + "then %d x %s warm-up and %d x %s measured iterations; about %s in all%n",
                scenarios.size(), scenarios.size() == 1 ? "" : "s", harnesses.size(), harnesses.size() == 1 ? "" : "s",
                rounds, rounds == 1 ? "" : "s", trials, clusterOptions.startsMembers()
                        ? "starts a fresh cluster (" + clusterOptions.describe() + ")"
                        : "reaches " + clusterOptions.describe(), wi, Durations.human(wt.toSeconds()), mi,
                Durations.human(mt.toSeconds()), Durations.human(trials * perTrial + (harnessCost ? 15 : 0)));
        console.println("results -> " + runDir + "   (JMH's own JSON and output: " + jmhDir + ")");

        Interruption interruption = new Interruption(() -> {
            stopped = true;
            Trial inFlight = current;
            if (inFlight != null) {
                keep(JmhResults.unmeasured(inFlight.scenario, inFlight.harness, inFlight.round, Status.INCOMPLETE,
                        "interrupted during the JMH trial; JMH reports a trial only when it ends", threads));
            }
            stopDescendants();
        }, () -> { });
        List<String> notes = new ArrayList<>();
        try {
            List<Trial> units = new ArrayList<>();
            scenarios.forEach(scenario -> harnesses.forEach(harness -> units.add(new Trial(scenario, harness, 0))));
            Matrix.rounds(units, rounds, () -> stopped, done -> true, (round, unit) -> {
                Trial trial = new Trial(unit.scenario, unit.harness, round);
                current = trial;
                console.printf("[round %d/%d] %s (%s): %s%n", round, rounds, trial.scenario.name(), trial.harness,
                        trial.scenario.description());
                RunResult result = runTrial(trial, jmhDir, wi, wt, mi, mt);
                current = null;
                if (!stopped) {
                    keep(result);
                    console.println("    " + SuiteCommand.oneLine(result));
                }
            });
            if (harnessCost && !stopped) {
                console.println("[harness] HarnessCost: cp-bench's own timed path around a no-op ...");
                harnessCostNote().ifPresent(notes::add);
            }
        } finally {
            try {
                RunDirectory.writeSummary(console, runDir, "jmh", sorted(), notes);
                String summary = ExitCodes.summary("jmh", sorted());
                if (summary != null) {
                    System.err.println(summary);
                }
            } finally {
                interruption.written();
            }
        }
        boolean interrupted = !interruption.disarm() || stopped;
        return ExitCodes.of(sorted(), interrupted, false);
    }

    private int foldOnly() {
        if (!Files.isRegularFile(fold)) {
            throw new IllegalArgumentException("--fold: no such file " + fold);
        }
        JmhResults.Folded folded = JmhResults.fold(fold, 0, JmhResults.Reports.NONE);
        if (folded.results().isEmpty() && folded.harnessCosts().isEmpty()) {
            throw new IllegalArgumentException("--fold: " + fold + " holds no CpOpBenchmark or HarnessCost result");
        }
        runDir = RunDirectory.create(out.dir, "jmh-fold");
        folded.results().forEach(this::keep);
        List<String> notes = new ArrayList<>();
        folded.harnessCosts().forEach(cost -> notes.add(harnessCostLine(cost)));
        RunDirectory.writeSummary(System.out, runDir, "jmh-fold", sorted(), notes);
        return ExitCodes.OK;
    }

    private record Trial(Scenario scenario, String harness, int round) {
        String stem() {
            return String.format("%02d-%s.%s", round, scenario.name(), harness);
        }

        String method() {
            return harness.equals(JmhResults.SAMPLE) ? "sampleTime" : "throughput";
        }
    }

    private RunResult runTrial(Trial trial, Path jmhDir, int wi, Duration wt, int mi, Duration mt) {
        Path json = jmhDir.resolve(trial.stem() + ".json");
        Path report = jmhDir.resolve(trial.stem() + ".report.json");
        Path log = jmhDir.resolve(trial.stem() + ".log");
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include("^" + Pattern.quote(CpOpBenchmark.class.getName() + "." + trial.method()) + "$")
                .param("scenario", trial.scenario.name())
                .forks(1)
                .warmupIterations(wi).warmupTime(TimeValue.milliseconds(wt.toMillis()))
                .measurementIterations(mi).measurementTime(TimeValue.milliseconds(mt.toMillis()))
                .threads(threads)
                .jvmArgsPrepend("-D" + CpOpBenchmark.REPORT_PROPERTY + "=" + report.toAbsolutePath(),
                        "-D" + CpOpBenchmark.CLUSTER_WARMUP_PROPERTY + "=" + clusterWarmup.get(quick),
                        "-D" + CpOpBenchmark.CLUSTER_PROPERTY + "=" + String.join(CpOpBenchmark.ARG_SEPARATOR, clusterOptions.toArgs()))
                .jvmArgsAppend(forkFlags())
                .shouldFailOnError(true)
                .resultFormat(org.openjdk.jmh.results.format.ResultFormatType.JSON)
                .result(json.toString());
        try {
            runJmh(options, log);
        } catch (RunnerException | RuntimeException e) {
            return JmhResults.unmeasured(trial.scenario, trial.harness, trial.round, stopped ? Status.INCOMPLETE : Status.FAIL,
                    "JMH trial failed: " + failureIn(log, e) + " (see " + log + ")", threads);
        }
        ScenarioSession.Report checks = readReport(report);
        List<RunResult> folded = JmhResults.fold(json, trial.round, (b, m, s, fork) -> checks).results();
        if (folded.size() != 1) {
            return JmhResults.unmeasured(trial.scenario, trial.harness, trial.round, Status.FAIL,
                    "JMH wrote " + folded.size() + " results for one trial (see " + json + ")", threads);
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
            return costs.isEmpty() ? Optional.empty() : Optional.of(harnessCostLine(costs.get(0)));
        } catch (RunnerException | RuntimeException e) {
            return Optional.of("Harness cost: the HarnessCost benchmark failed: " + failureIn(log, e));
        }
    }

    /** The harness's cost per op, and its share of the client-leader op's p50 measured by SampleTime here. */
    private String harnessCostLine(JmhResults.HarnessCostFigure cost) {
        String figure = String.format(Locale.ROOT, "Harness cost (HarnessCost: cp-bench's driver around a no-op): %.0f ± %.0f ns/op",
                cost.nanosPerOp(), cost.error());
        Optional<ScenarioTable.Row> reference = ScenarioTable.rows(sorted()).stream()
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

    private List<String> harnesses() {
        List<String> chosen = new ArrayList<>();
        for (String mode : modes) {
            String harness = switch (mode.trim().toLowerCase(Locale.ROOT)) {
                case "thrpt", "throughput" -> JmhResults.THROUGHPUT;
                case "sample", "sampletime" -> JmhResults.SAMPLE;
                default -> throw new IllegalArgumentException("unknown JMH mode '" + mode + "'; choose thrpt or sample");
            };
            if (!chosen.contains(harness)) {
                chosen.add(harness);
            }
        }
        return chosen;
    }

    private static int positive(String what, int value, int min) {
        if (value < min || value > 1000) {
            throw new IllegalArgumentException(what + " must be " + min + "-1000, was " + value);
        }
        return value;
    }

    private static Duration atLeastASecond(String option, Duration value) {
        if (value.compareTo(Duration.ofSeconds(1)) < 0 || value.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException(option + " must be 1s-1h, was " + value.toMillis() + " ms");
        }
        return value;
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

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
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
