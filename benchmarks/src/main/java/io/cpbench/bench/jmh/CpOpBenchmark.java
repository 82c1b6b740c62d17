package io.cpbench.bench.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cpbench.bench.cluster.ClusterOptions;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.suite.ClusterWarmup;
import io.cpbench.bench.suite.ScenarioRunner;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.workload.Workload;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyKind;
import io.cpbench.topology.TopologySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The seed's CP op (get + compareAndSet) per scenario, under JMH. Each trial (one fork) starts a local 5-member
 * cluster, waits until the priority member leads and the term holds still, warms the members up for 5 s with untimed
 * ops, switches the network to the scenario's and builds the scenario's client: the same code as {@code cpbench run}. After the last iteration it checks that
 * leadership held and the client stayed on its member, and stops every member.
 *
 * <p>{@link #throughput()} answers "how many ops a second" (Throughput, op/s). {@link #sampleTime()} gives the
 * distribution of op times (SampleTime, µs); it is closed-loop, so an op that stalls delays the ops behind it
 * without their being counted as slow (coordinated omission): read its tail as a lower bound.
 *
 * <p>The fork's JVM flags: Hazelcast's logging off (cp-bench reports what matters), and otherwise JMH's default, the
 * host JVM's own flags; {@code cpbench jmh} adds {@link io.cpbench.topology.MemberCommand#HAZELCAST_JVM_FLAGS}.
 *
 * <pre>java --add-modules java.se -jar benchmarks/target/benchmarks.jar CpOpBenchmark -p scenario=client-leader,client-follower -rf json</pre>
 *
 * <p>With {@code -Dcpbench.jmh.report=FILE} (which {@code cpbench jmh} passes to each fork) the checks are written
 * there as JSON ({@link ScenarioSession.Report}) and member logs next to it; otherwise they are printed.
 * {@code -Dcpbench.jmh.cluster-warmup=TIME} changes the members' warm-up (5s by default, 0 for none).
 */
@State(Scope.Benchmark)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = "-Dhazelcast.logging.type=none")
public class CpOpBenchmark {


    /** Where a fork writes its {@link ScenarioSession.Report}. */
    public static final String REPORT_PROPERTY = "cpbench.jmh.report";
    /** How long untimed ops run through a smart client before the trial, as the CLI does before its first scenario (default 5 s). */
    public static final String CLUSTER_WARMUP_PROPERTY = "cpbench.jmh.cluster-warmup";
    /**
     * The cluster to run on, as the CLI's cluster options separated by {@link #ARG_SEPARATOR} (for example
     * {@code --topology remote --inventory /path/inventory.json}); a fresh local 5-member cluster when unset.
     */
    public static final String CLUSTER_PROPERTY = "cpbench.jmh.cluster";
    public static final String ARG_SEPARATOR = "\u001f";

    @Param({"client-leader", "client-follower", "client-leader-1follower10ms", "client-follower-1follower10ms",
            "client-follower10ms-1follower10ms", "client-lb", "client-lb-10ms", "client-smart", "client-smart-10ms",
            "client-latency-aware-10ms", "client-leader-aware", "client-leader-aware-10ms",
            "client-leader-aware-from-slow-10ms"})
    public String scenario;

    private Topology topology;
    private ScenarioSession session;
    private Workload op;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        String reportFile = System.getProperty(REPORT_PROPERTY);
        Path logs = reportFile != null ? Path.of(reportFile.replaceFirst("(\\.report)?\\.json$", "") + ".members")
                : Files.createTempDirectory("cpbench-jmh-members");
        ClusterWarmup warmup = ClusterWarmup.parse(System.getProperty(CLUSTER_WARMUP_PROPERTY, "5s"));
        String cluster = System.getProperty(CLUSTER_PROPERTY);
        // A local cluster is started for this trial and stopped after it; a remote or attached one is reached, and
        // left running for the next trial.
        topology = cluster == null || cluster.isBlank() ? TopologyKind.LOCAL.start(TopologySpec.defaults(logs))
                : ClusterOptions.startFromArgs(List.of(cluster.split(ARG_SEPARATOR)), logs);
        try {
            SuiteOptions options = SuiteOptions.defaults();
            new ScenarioRunner(topology, LoadSpec.scenario().build(), logs, options, ScenarioRunner.ProgressSink.NONE)
                    .warmCluster(warmup, null);
            session = ScenarioSession.open(Scenarios.byName(scenario), topology, options);
        } catch (RuntimeException e) {
            topology.close();
            topology = null;
            throw e;
        }
        op = session.op();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (session == null) {
            return;
        }
        try {
            ScenarioSession.Report report = session.finish(false);
            String reportFile = System.getProperty(REPORT_PROPERTY);
            if (reportFile != null) {
                write(Path.of(reportFile), report);
            } else {
                System.out.println("cp-bench: " + report.cluster().clientTarget() + "; leader before " + report.leader().before()
                        + ", after " + report.leader().after() + (report.problems().isEmpty() ? ""
                        : "; UNSTABLE: " + String.join("; ", report.problems())));
            }
        } finally {
            try {
                session.close();
            } finally {
                topology.close();
                session = null;
                topology = null;
            }
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public void throughput() throws Exception {
        op.execute();
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void sampleTime() throws Exception {
        op.execute();
    }

    private static void write(Path file, ScenarioSession.Report report) {
        try {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), report);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
