package io.cpbench.bench.jmh;

import io.cpbench.core.run.Driver;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import org.HdrHistogram.Histogram;
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
 * What cp-bench's own timed path costs per op: the real {@link Driver}, which runs the load engine (two clock reads,
 * the loop's checks, the in-flight marks, one HdrHistogram {@code recordValue} inside a writer-reader phaser) around an
 * op that does nothing, in ns per op, with what a real run adds around it:
 * <ul>
 * <li><b>realistic values</b>: the driver reads a clock that the op moves on by a realistic op time each call (drawn
 * from a log-normal around 1 ms, 0.5-20 ms, as a client-leader op here), so every op records a value spread over
 * the histogram's buckets as a real run's do, not a 0;</li>
 * <li><b>interval swaps</b>: the plan's interval is the shortest allowed, 10 ms, so the recorder's interval
 * histogram is swapped (and recycled) a few times within each invocation, at least as often per second as in a
 * real run (once a second).</li>
 * </ul>
 * <p>The op itself is one volatile write (the clock's skew) and the clock read adds one volatile read: counted in the
 * figure, so it slightly overstates the driver's own cost.
 *
 * <p>Divide by an op's p50 (a client-leader op is about 1 ms here) for the harness's share of a measurement; the goal is
 * under 0.2 %.
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
    /** Realistic op times in ns, cycled through by the op. A power of two, for a cheap index. */
    static final int TIMES = 1 << 12;

    private Path dir;
    private LoadSpec plan;
    private final long[] opNanos = new long[TIMES];
    /** How far the driver's clock is ahead of real time: the op times the no-op ops pretended to take. */
    private volatile long skew;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("cpbench-harness-cost");
        // The fake clock runs about 1 ms per op: 1,000,000 ops are some 20 minutes of it, well inside the time box.
        plan = LoadSpec.scenario().warmupOps(0).ops(OPS).timebox(Duration.ofDays(1)).interval(Duration.ofMillis(10)).build();
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        for (int i = 0; i < TIMES; i++) {
            double micros = Math.exp(Math.log(1_000) + 0.6 * gaussian(random));
            opNanos[i] = (long) (Math.max(500, Math.min(20_000, micros)) * 1_000);
        }
    }

    private static double gaussian(java.util.SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
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

    /**
     * The driver's whole run of 1,000,000 ops that do nothing but move the clock on, per op: the timed path with
     * realistic values and interval swaps, plus its share of setting up a run.
     */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long driverPerOp() {
        Driver driver = Driver.withClock(plan, () -> System.nanoTime() + skew);
        LoadResult m = driver.run(() -> skew += opNanos[next++ & (TIMES - 1)],
                dir.resolve("noop.hlog"), report -> { });
        if (m.ops() != OPS) {
            throw new IllegalStateException("the driver ran " + m.ops() + " ops, not " + OPS);
        }
        Histogram latency = m.latencyHistogram();
        long p50 = latency.getValueAtPercentile(50);
        if (p50 < 500 || p50 > 2_000) {
            throw new IllegalStateException("recorded p50 " + p50 + " µs; the op times should centre on 1,000 µs");
        }
        return latency.getTotalCount();
    }

    /**
     * Reports how many interval swaps an invocation held (the intervals in the last invocation's log, at least 1, the
     * final one), once per iteration, outside the measured method.
     */
    @TearDown(Level.Iteration)
    public void reportSwaps() {
        System.out.println("HarnessCost: the last invocation's interval log holds " + countIntervals(dir.resolve("noop.hlog"))
                + " intervals");
    }

    private static int countIntervals(Path hlog) {
        try (var lines = Files.lines(hlog)) {
            return (int) lines.filter(line -> !line.isEmpty() && Character.isDigit(line.charAt(0))).count();
        } catch (IOException e) {
            return -1;
        }
    }
}
