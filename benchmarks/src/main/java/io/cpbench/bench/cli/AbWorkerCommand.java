package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.run.Driver;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "cpbench-ab-op");
            t.setDaemon(true);
            return t;
        });
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
                    send(out, "slice", slice(op, pool, Long.parseLong(line.substring(4).trim())));
                }
            }
        } finally {
            pool.shutdownNow();
            topology.close();
        }
        return ExitCodes.OK;
    }

    /** The op on every thread, back to back, for {@code millis}; what it did. */
    private Map<String, Object> slice(Workload op, ExecutorService pool, long millis) throws Exception {
        long start = System.nanoTime();
        long end = start + millis * 1_000_000L;
        List<Future<Histogram>> parts = new ArrayList<>();
        String[] firstError = new String[1];
        long[] errors = new long[1];
        for (int i = 0; i < threads; i++) {
            parts.add(pool.submit(() -> {
                Histogram h = new Histogram(60_000_000L, 3);
                long now = System.nanoTime();
                while (now < end) {
                    try {
                        op.execute();
                        long done = System.nanoTime();
                        h.recordValue(Math.min(Math.max(1, (done - now) / 1000), 60_000_000L));
                        now = done;
                    } catch (Exception e) {
                        synchronized (errors) {
                            errors[0]++;
                            if (firstError[0] == null) {
                                firstError[0] = Driver.describe(e);
                            }
                        }
                        now = System.nanoTime();
                    }
                }
                return h;
            }));
        }
        Histogram all = new Histogram(60_000_000L, 3);
        for (Future<Histogram> part : parts) {
            all.add(part.get());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("ops", all.getTotalCount());
        r.put("errors", errors[0]);
        r.put("seconds", seconds);
        r.put("p50", all.getTotalCount() == 0 ? 0 : all.getValueAtPercentile(50));
        r.put("p99", all.getTotalCount() == 0 ? 0 : all.getValueAtPercentile(99));
        r.put("error", firstError[0]);
        return r;
    }

    private static void send(PrintStream out, String kind, Map<String, Object> body) throws Exception {
        out.println(PREFIX + kind + " " + JSON.writeValueAsString(body));
        out.flush();
    }
}
