package io.cpbench.bench.suite;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.core.result.Environment;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import org.HdrHistogram.Histogram;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Builds a scenario's {@link RunResult} from its parts: what ran (the scenario, the round), where (the session's
 * report), what was measured, and the verdict. Every harness (cp-bench's driver, JMH) builds its results here, so
 * they say the same things the same way.
 */
public final class ResultBuilder {

    private final Scenario scenario;
    private final int round;
    private Status status = Status.OK;
    private String reason;
    private ScenarioSession.Report where;
    private RunResult.PlanInfo plan = new RunResult.PlanInfo(0, 0, 0, 0, 1);
    private Environment environment = Environment.current();
    private String startedAt = Instant.now().toString();
    private double seconds;
    private long warmupOps;
    private long ops;
    private long errors;
    private double opsPerSecond;
    private Histogram histogram = new Histogram(3);
    private io.cpbench.core.stats.Censored censored;
    private String hlog;
    private String harness;
    private String firstError;
    private Map<String, Long> counters = Map.of();
    private io.cpbench.core.load.LoadResult load;

    private ResultBuilder(Scenario scenario, int round) {
        this.scenario = scenario;
        this.round = round;
    }

    public static ResultBuilder of(Scenario scenario, int round) {
        return new ResultBuilder(scenario, round);
    }

    public ResultBuilder status(Status value, String why) {
        status = value;
        reason = why;
        return this;
    }

    /** Where it ran and what the checks around it saw; null when nothing could be set up. */
    public ResultBuilder where(ScenarioSession.Report report) {
        where = report;
        if (report != null && report.startedAt() != null) {
            startedAt = report.startedAt();
        }
        return this;
    }

    /** @param value a scenario run's spec: bounded by op counts and a time box ({@link LoadSpec#scenario()}) */
    public ResultBuilder plan(LoadSpec value) {
        LoadSpec.Bounds bounds = value.bounds();
        plan = new RunResult.PlanInfo(bounds.warmupOps(), bounds.ops(),
                value.measuredFor() == null ? 0 : value.measuredFor().toMillis() / 1000.0,
                bounds.timebox().toMillis() / 1000.0, value.threads(), value.warmup().toMillis() / 1000.0);
        return this;
    }

    public ResultBuilder plan(RunResult.PlanInfo value) {
        plan = value;
        return this;
    }

    public ResultBuilder environment(Environment value) {
        environment = value;
        return this;
    }

    /** What the load engine measured, all ops together. */
    public ResultBuilder measured(LoadResult m) {
        startedAt = m.startedAt();
        seconds = m.seconds();
        warmupOps = m.warmupOps() == null ? 0 : m.warmupOps();
        ops = m.ops();
        errors = m.errors();
        opsPerSecond = m.opsPerSecond();
        histogram = m.latencyHistogram();
        censored = m.censored();
        firstError = m.caveats().firstError();
        counters = m.counters();
        return this;
    }

    /** What another harness measured. */
    public ResultBuilder measured(double measuredSeconds, long measuredOps, double rate, Histogram latencies) {
        seconds = measuredSeconds;
        ops = measuredOps;
        opsPerSecond = rate;
        histogram = latencies;
        return this;
    }

    /** What a load run measured: all ops together in the row ({@link #measured(LoadResult)}), the rest in the {@code load} section. */
    public ResultBuilder measuredLoad(LoadResult result) {
        load = result;
        return measured(result);
    }

    public ResultBuilder hlog(String fileName) {
        hlog = fileName;
        return this;
    }

    public ResultBuilder harness(String name) {
        harness = name;
        return this;
    }

    public RunResult build() {
        ScenarioSession.Report w = where;
        return RunResult.builder()
                .run(new RunResult.RunInfo(scenario.name(), scenario.network().code(), scenario.description(), round,
                        harness, scenario.isBaseline()))
                .status(status, reason).firstError(firstError)
                .cluster(w != null ? w.cluster() : null).leader(w != null ? w.leader() : null)
                .plan(plan).environment(environment)
                .measured(new RunResult.Measured(startedAt, seconds, warmupOps, ops, errors, opsPerSecond, counters))
                .latency(RunResult.Latency.of(histogram, censored), RunResult.encode(histogram))
                .hlog(hlog).load(load).build();
    }
}
