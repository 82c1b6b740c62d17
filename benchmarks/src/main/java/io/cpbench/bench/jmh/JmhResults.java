package io.cpbench.bench.jmh;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.suite.ResultBuilder;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.core.result.Environment;
import io.cpbench.core.result.EnvironmentBuilder;
import io.cpbench.core.result.ResultFormatException;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Folds JMH's JSON ({@code -rf json}) into cp-bench results, so one report shows JMH trials beside the driver's runs.
 *
 * <p>Each fork of a {@link CpOpBenchmark} result becomes one {@link RunResult} with harness {@value #THROUGHPUT} or
 * {@value #SAMPLE} (what the fields then mean is in {@link RunResult}'s format notes): round = the fork's number, or
 * the round {@code cpbench jmh} ran it in. Leadership, client target and the members that served the calls come from
 * the trial's {@link ScenarioSession.Report} when there is one; without it the result says they were not checked.
 * {@link HarnessCost} results become a {@link HarnessCostFigure}. Other benchmarks and modes are refused.
 */
public final class JmhResults {

    public static final String THROUGHPUT = "jmh-thrpt";
    public static final String SAMPLE = "jmh-sample";

    private static final ObjectMapper JSON = new ObjectMapper();

    private JmhResults() {
    }

    /** Finds the trial's checks: (benchmark, mode, scenario, fork) to a report, or null. */
    public interface Reports {
        ScenarioSession.Report find(String benchmark, String mode, String scenario, int fork);

        Reports NONE = (benchmark, mode, scenario, fork) -> null;
    }

    /** What the harness's own timed path costs per op, from {@link HarnessCost}. */
    public record HarnessCostFigure(double nanosPerOp, double error) {

        /** The cost as a share of an op that took {@code p50Micros}, in percent. */
        public double percentOf(double p50Micros) {
            return nanosPerOp / (p50Micros * 1000) * 100;
        }
    }

    public record Folded(List<RunResult> results, List<HarnessCostFigure> harnessCosts) {
    }

    /**
     * @param round the round to give every result, or 0 to number results by fork (1, 2, ...)
     */
    public static Folded fold(Path jmhJson, int round, Reports reports) {
        JsonNode root;
        try {
            root = JSON.readTree(jmhJson.toFile());
        } catch (JacksonException e) {
            throw new ResultFormatException(jmhJson + ": not JMH's JSON (" + io.cpbench.core.result.ResultFiles.jsonProblem(e) + ")", e);
        } catch (IOException e) {
            throw new ResultFormatException(jmhJson + ": cannot read (" + e.getMessage() + ")", e);
        }
        if (root == null || !root.isArray()) {
            throw new ResultFormatException(jmhJson + ": not JMH's JSON (expected an array of benchmark results, as -rf json writes)");
        }
        List<RunResult> results = new ArrayList<>();
        List<HarnessCostFigure> costs = new ArrayList<>();
        for (JsonNode benchmark : root) {
            try {
                foldOne(benchmark, round, reports, results, costs);
            } catch (RuntimeException e) {
                if (e instanceof ResultFormatException) {
                    throw new ResultFormatException(jmhJson + ": " + e.getMessage(), e);
                }
                throw new ResultFormatException(jmhJson + ": not a JMH result this tool can read (" + e + ")", e);
            }
        }
        return new Folded(results, costs);
    }

    private static void foldOne(JsonNode result, int round, Reports reports, List<RunResult> results,
                                List<HarnessCostFigure> costs) {
        String benchmark = text(result, "benchmark");
        String mode = text(result, "mode");
        JsonNode metric = required(result, "primaryMetric");
        if (benchmark.equals(HarnessCost.class.getName() + ".driverPerOp")) {
            double toNanos = timePerOpToMicros(text(metric, "scoreUnit")) * 1000;
            costs.add(new HarnessCostFigure(required(metric, "score").asDouble() * toNanos,
                    metric.path("scoreError").asDouble(Double.NaN) * toNanos));
            return;
        }
        if (!benchmark.startsWith(CpOpBenchmark.class.getName() + ".")) {
            throw new ResultFormatException("benchmark " + benchmark + " is not one of cp-bench's CP op benchmarks");
        }
        String harness = switch (mode) {
            case "thrpt" -> THROUGHPUT;
            case "sample" -> SAMPLE;
            default -> throw new ResultFormatException("mode '" + mode + "' of " + benchmark
                    + " is not folded; run CpOpBenchmark in thrpt or sample mode");
        };
        Scenario scenario;
        try {
            scenario = Scenarios.byName(text(required(result, "params"), "scenario"));
        } catch (IllegalArgumentException e) {
            throw new ResultFormatException(e.getMessage(), e);
        }
        int threads = required(result, "threads").asInt();
        int iterations = required(result, "measurementIterations").asInt();
        double seconds = iterations * seconds(text(result, "measurementTime"));
        double warmupSeconds = required(result, "warmupIterations").asInt() * seconds(text(result, "warmupTime"));
        JsonNode forks = required(metric, harness.equals(SAMPLE) ? "rawDataHistogram" : "rawData");
        Environment environment = environment(result);
        for (int fork = 0; fork < forks.size(); fork++) {
            Histogram histogram = new Histogram(3);
            double opsPerSecond = harness.equals(SAMPLE) ? sampled(forks.get(fork), metric, histogram, threads)
                    : throughput(forks.get(fork), metric);
            long ops = harness.equals(SAMPLE) ? histogram.getTotalCount() : Math.round(opsPerSecond * seconds);
            int resultRound = round > 0 ? round : fork + 1;
            ScenarioSession.Report report = reports.find(benchmark, mode, scenario.name(), fork);
            results.add(checked(ResultBuilder.of(scenario, resultRound).harness(harness), report)
                    .plan(new RunResult.PlanInfo(0, 0, seconds, seconds + warmupSeconds, threads))
                    .environment(environment).measured(seconds, ops, opsPerSecond, histogram).build());
        }
    }

    /** A sample-mode fork: its latencies into {@code histogram} (µs); its op/s, from their mean over the threads. */
    private static double sampled(JsonNode fork, JsonNode metric, Histogram histogram, int threads) {
        double toMicros = timePerOpToMicros(text(metric, "scoreUnit"));
        double sumMicros = 0;
        for (JsonNode iteration : fork) {
            for (JsonNode pair : iteration) {
                double micros = pair.get(0).asDouble() * toMicros;
                long count = pair.get(1).asLong();
                histogram.recordValueWithCount(Math.max(0, Math.round(micros)), count);
                sumMicros += micros * count;
            }
        }
        long ops = histogram.getTotalCount();
        return ops == 0 ? 0 : threads * 1e6 / (sumMicros / ops);
    }

    /** A throughput-mode fork's op/s: the mean of its iterations' scores. */
    private static double throughput(JsonNode fork, JsonNode metric) {
        double perSecond = opsPerSecondFactor(text(metric, "scoreUnit"));
        double sum = 0;
        for (JsonNode score : fork) {
            sum += score.asDouble() * perSecond;
        }
        return fork.size() == 0 ? 0 : sum / fork.size();
    }

    /** {@code builder} with the trial's report, and the verdict of the checks it holds. */
    private static ResultBuilder checked(ResultBuilder builder, ScenarioSession.Report report) {
        if (report == null) {
            return builder.status(Status.OK, "leadership and routing not checked: no cp-bench report for this JMH"
                    + " trial (run it with cpbench jmh)");
        }
        return builder.where(report).status(report.problems().isEmpty() ? Status.OK : Status.UNSTABLE,
                report.problems().isEmpty() ? null : String.join("; ", report.problems()));
    }

    /** A trial that measured nothing JMH reported: it failed, or was interrupted. */
    public static RunResult unmeasured(Scenario scenario, String harness, int round, Status status, String reason,
                                       int threads) {
        return ResultBuilder.of(scenario, round).harness(harness).status(status, reason)
                .plan(new RunResult.PlanInfo(0, 0, 0, 0, threads)).build();
    }

    /** This machine's environment, with the JVM the JMH fork ran on. */
    private static Environment environment(JsonNode result) {
        Environment here = Environment.current();
        return EnvironmentBuilder.builder(here).javaVersion(result.path("jdkVersion").asText(here.javaVersion()))
                .jvm(result.path("vmName").asText(here.jvm())).build();
    }

    /** JMH's time values: "10 s", "500 ms", "1 min". */
    static double seconds(String time) {
        String[] parts = time.trim().split("\\s+");
        if (parts.length != 2) {
            throw new ResultFormatException("cannot read the time '" + time + "'");
        }
        double value;
        try {
            value = Double.parseDouble(parts[0]);
        } catch (NumberFormatException e) {
            throw new ResultFormatException("cannot read the time '" + time + "'");
        }
        return value * switch (parts[1]) {
            case "ns" -> 1e-9;
            case "us" -> 1e-6;
            case "ms" -> 1e-3;
            case "s" -> 1;
            case "min" -> 60;
            case "hr" -> 3600;
            default -> throw new ResultFormatException("cannot read the time unit in '" + time + "'");
        };
    }

    /** "us/op" and the like to a factor into µs. */
    static double timePerOpToMicros(String unit) {
        return switch (unit) {
            case "ns/op" -> 1e-3;
            case "us/op" -> 1;
            case "ms/op" -> 1e3;
            case "s/op" -> 1e6;
            case "min/op" -> 60e6;
            default -> throw new ResultFormatException("unexpected unit '" + unit + "' for a time per op");
        };
    }

    /** "ops/ms" and the like to a factor into ops per second. */
    static double opsPerSecondFactor(String unit) {
        return switch (unit) {
            case "ops/ns" -> 1e9;
            case "ops/us" -> 1e6;
            case "ops/ms" -> 1e3;
            case "ops/s" -> 1;
            case "ops/min" -> 1 / 60.0;
            default -> throw new ResultFormatException("unexpected unit '" + unit + "' for a throughput");
        };
    }

    private static JsonNode required(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new ResultFormatException("missing '" + field + "'");
        }
        return value;
    }

    private static String text(JsonNode node, String field) {
        return required(node, field).asText();
    }
}
