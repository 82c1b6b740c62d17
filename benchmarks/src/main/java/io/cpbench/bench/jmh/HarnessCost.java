package io.cpbench.bench.jmh;

import io.cpbench.core.run.Driver;
import io.cpbench.core.run.RunPlan;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What cp-bench's own timed path costs per op: the real {@link Driver} (two {@code nanoTime} calls, the loop's checks,
 * one HdrHistogram {@code recordValue}) around an op that does nothing, in ns per op. Divide by an op's p50 (a
 * client-leader op is about 1 ms here) for the harness's share of a measurement.
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar HarnessCost}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HarnessCost {

    static final int OPS = 1_000_000;

    private Path dir;
    private RunPlan plan;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("cpbench-harness-cost");
        plan = RunPlan.builder().warmupOps(0).ops(OPS).timebox(Duration.ofMinutes(5)).build();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(dir);
    }

    /** The driver's whole run of 1,000,000 no-op ops, per op: the timed path plus its share of setting up a run. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long driverPerOp() {
        io.cpbench.core.run.Measurement m = new Driver(plan).run(() -> { }, dir.resolve("noop.hlog"), progress -> { });
        if (m.ops() != OPS) {
            throw new IllegalStateException("the driver ran " + m.ops() + " ops, not " + OPS);
        }
        return m.histogram().getTotalCount();
    }
}
