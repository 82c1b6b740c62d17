package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.run.Driver;
import io.cpbench.core.run.Measurement;
import io.cpbench.core.run.Outcome;
import io.cpbench.core.run.RunPlan;
import io.cpbench.core.workload.PlantedSlowdown;
import io.cpbench.core.workload.Workload;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.Topology;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * One side of {@code cpbench ab}: a client of one build, on a cluster that {@code ab} started or reached, running
 * the scenario's op in the time slices {@code ab} hands it over standard input. Not for users; hidden from help.
 *
 * <p>Protocol, a line each way: the worker prints {@code @ab ready {json}} once its client is connected; then, for
 * each {@code run MILLIS} it reads, it runs the op for that long and prints {@code @ab slice {json}} (ops, errors,
 * seconds, p50 and p99 in µs). {@code quit} or the end of its input (the parent died) closes it. Everything else it
 * prints (the CLI's lines, Hazelcast's warnings on stderr) is not part of the protocol.
 */
@Command(name = "ab-worker", hidden = true, mixinStandardHelpOptions = true,
        description = "One side of 'cpbench ab' (started by it; not for direct use).")
final class AbWorkerCommand implements Callable<Integer> {

    /** Version of the line protocol; {@code ab} refuses a worker that speaks another. */
    static final int PROTOCOL = 1;
    static final String PREFIX = "@ab ";
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The time box past a slice's length, which a plan needs. A slice ends at its length; ops still in flight then get
     * Driver's 30 s grace, so a slice answers within length + 30 s, inside ab's wait of length + 60 s.
     */
    private static final Duration SLICE_OVERRUN = Duration.ofSeconds(20);

    @Mixin
    ClusterOptions clusterOptions;

    @Option(names = "--scenario", required = true)
    String scenario;

    @Option(names = "--threads", defaultValue = "1")
    int threads;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        Scenario chosen = Scenarios.byName(scenario);
        clusterOptions.validate(-1);
        Topology topology = clusterOptions.start(null);
        SuiteOptions options = clusterOptions.suiteOptions(-1, SuiteOptions.SEED_DELAY, ProbeSettings.defaults());
        try (ScenarioSession session = ScenarioSession.open(chosen, topology, options)) {
            Workload op = session.op();
            Map<String, Object> ready = new LinkedHashMap<>();
            ready.put("protocol", PROTOCOL);
            ready.put("version", new CpBench.Version().getVersion()[0]);
            ready.put("planted", PlantedSlowdown.fraction());
            ready.put("pid", ProcessHandle.current().pid());
            send(out, "ready", ready);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null && !line.equals("quit")) {
                if (line.startsWith("run ")) {
                    send(out, "slice", slice(op, Long.parseLong(line.substring(4).trim())));
                }
            }
        } finally {
            topology.close();
        }
        return ExitCodes.OK;
    }

    /**
     * The op on every thread, back to back, for {@code millis}, on the load engine (through {@link Driver}, as a
     * scenario run measures); what it did.
     */
    private Map<String, Object> slice(Workload op, long millis) {
        RunPlan plan = RunPlan.builder().warmupOps(0).duration(Duration.ofMillis(millis)).threads(threads)
                .timebox(Duration.ofMillis(millis).plus(SLICE_OVERRUN)).build();
        Measurement m = new Driver(plan).run(op, null, null);
        Histogram all = m.histogram();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("ops", m.ops());
        r.put("errors", m.errors());
        r.put("seconds", m.seconds());
        r.put("p50", all.getTotalCount() == 0 ? 0 : all.getValueAtPercentile(50));
        r.put("p99", all.getTotalCount() == 0 ? 0 : all.getValueAtPercentile(99));
        r.put("error", m.firstError() != null ? m.firstError() : m.outcome() == Outcome.FAILED ? m.reason() : null);
        return r;
    }

    private static void send(PrintStream out, String kind, Map<String, Object> body) throws Exception {
        out.println(PREFIX + kind + " " + JSON.writeValueAsString(body));
        out.flush();
    }
}
