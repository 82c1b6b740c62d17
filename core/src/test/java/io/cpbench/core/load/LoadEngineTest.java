package io.cpbench.core.load;

import io.cpbench.core.status.Status;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The engine with ops that are not CP calls: what it schedules, records and judges, checked by count. */
class LoadEngineTest {

    @TempDir
    Path dir;

    private static LoadResult run(LoadSpec spec, LoadEngine.OpExecutor ops, Path out) {
        return new LoadEngine(spec, List.of(), out, null, ops).run();
    }

    /** A run whose ops in flight after the drain get {@code grace} (not the engine's 5 s) before they are abandoned. */
    private static LoadResult runWithGrace(LoadSpec spec, LoadEngine.OpExecutor ops, Duration grace) {
        return new LoadEngine(spec, List.of(), null, null, ops).inFlightGrace(grace).run();
    }

    /** One worker records through single-writer recorders, more through shared ones: both must count every op. */
    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void openLoopStartsEveryOpThatFallsDueAndWritesCsvAndHlog(int workers) throws Exception {
        LoadSpec spec = LoadSpec.builder().op(OpType.NOOP, 1).threads(workers).rate(20_000).duration(Duration.ofSeconds(2))
                .warmup(Duration.ZERO).build();
        LoadResult r = new LoadEngine(spec, List.of(), dir, null).run();

        assertThat(r.outcome()).isEqualTo(Status.OK);
        assertThat(r.schedule().due()).isEqualTo(40_000);
        assertThat(r.schedule().started()).isEqualTo(40_000);
        assertThat(r.schedule().unstarted()).isZero();
        assertThat(r.total().all().ops()).isEqualTo(40_000);
        assertThat(r.total().lag().count()).isEqualTo(40_000);
        List<String> csv = Files.readAllLines(dir.resolve("load.csv"));
        assertThat(csv.get(0)).startsWith("elapsed_s,stage,level,op,ops");
        long csvOps = csv.stream().skip(1).mapToLong(line -> Long.parseLong(line.split(",")[4])).sum();
        assertThat(csvOps).isEqualTo(40_000);
        Histogram fromLog = new Histogram(3);
        try (HistogramLogReader reader = new HistogramLogReader(dir.resolve("load-noop.hlog").toFile())) {
            while (reader.hasNext()) {
                fromLog.add((Histogram) reader.nextIntervalHistogram());
            }
        }
        assertThat(fromLog.getTotalCount()).isEqualTo(40_000);
    }

    @Test
    void aStallShowsAsLatencyFromWhenOpsWereDueNotAsAMissingRate() {
        AtomicLong calls = new AtomicLong();
        LoadSpec spec = LoadSpec.builder().op(OpType.CAS, 1).threads(1).rate(1000).duration(Duration.ofSeconds(2))
                .warmup(Duration.ZERO).build();
        LoadResult r = run(spec, (op, client, object, log) -> {
            if (calls.incrementAndGet() % 200 == 0) {
                Thread.sleep(30);
            }
        }, null);

        assertThat(r.schedule().due()).isEqualTo(2000);
        assertThat(r.schedule().started()).isEqualTo(2000);
        assertThat(r.total().all().ops()).isEqualTo(2000);
        Histogram latency = RunResultCodec.decode(r.histograms().get("cas"));
        long slowByDue = latency.getCountBetweenValues(10_000, Long.MAX_VALUE / 4);
        // 10 stalls of 30 ms; each delays the ~30 ops due behind it, which a service-time view would hide
        assertThat(r.total().all().service().max()).isGreaterThanOrEqualTo(30_000);
        assertThat(slowByDue).isGreaterThanOrEqualTo(100);
        assertThat(r.total().lag().max()).isGreaterThanOrEqualTo(20_000);
        assertThat(r.schedule().late()).isGreaterThanOrEqualTo(100);
    }

    @Test
    void closedLoopRampActivatesWorkersOnlyWhenTheProfileReachesThem() {
        ConcurrentLinkedQueue<long[]> seen = new ConcurrentLinkedQueue<>();
        AtomicLong origin = new AtomicLong();
        LoadSpec spec = LoadSpec.builder().op(OpType.GET, 1).threads(4).stages("2s:4,1s:4").warmup(Duration.ZERO).build();
        LoadEngine.Listener listener = new LoadEngine.Listener() {
            @Override
            public void interval(LoadEngine.IntervalReport report) {
            }

            @Override
            public void measuringStarts() {
                // called just before the engine reads its clock (System::nanoTime) for the start of measuring: this
                // instant is at or before the profile's zero
                origin.set(System.nanoTime());
            }
        };
        LoadResult r = new LoadEngine(spec, List.of(), null, listener, (op, client, object, log) -> {
            String name = Thread.currentThread().getName();
            seen.add(new long[]{System.nanoTime(), Long.parseLong(name.substring(name.lastIndexOf('-') + 1))});
            Thread.sleep(1);
        }).run();

        assertThat(r.outcome()).isEqualTo(Status.OK);
        // level 1 -> 4 over 2 s: worker 3 may run once round(1 + 1.5 t) >= 4, at t >= 1.667 s of the engine's clock,
        // which reads the same clock as the op, after the origin. A bound that holds on any machine, however slow:
        // lateness only makes the worker's first op later.
        long lateWorkerFirstOp = seen.stream().filter(s -> s[1] == 3).mapToLong(s -> s[0] - origin.get()).min().orElseThrow();
        assertThat(lateWorkerFirstOp).as("ns from the start of measuring").isGreaterThanOrEqualTo(1_666_666_667L);
        // and once reached it runs: worker 3 ran while worker 0, active from the start, was still running
        long worker0First = seen.stream().filter(s -> s[1] == 0).mapToLong(s -> s[0] - origin.get()).min().orElseThrow();
        long worker0Last = seen.stream().filter(s -> s[1] == 0).mapToLong(s -> s[0] - origin.get()).max().orElseThrow();
        assertThat(worker0First).as("worker 0 runs before the profile reaches worker 3").isLessThan(lateWorkerFirstOp);
        assertThat(lateWorkerFirstOp).as("worker 3 runs before the run ends").isLessThan(worker0Last);
        assertThat(r.stages()).hasSize(2);
        assertThat(r.stages().get(1).all().ops()).isPositive();
    }

    @Test
    void errorsAreCountedByTypeAndJudgedByThresholds() {
        AtomicLong calls = new AtomicLong();
        LoadSpec spec = LoadSpec.builder().mix("cas=1,get=1").threads(2).duration(Duration.ofSeconds(1))
                .warmup(Duration.ZERO).seed(7).threshold("error_rate<1%").threshold("cas:errors<1").build();
        LoadResult r = run(spec, (op, client, object, log) -> {
            calls.incrementAndGet();
            if (op == OpType.GET) {
                throw new IllegalStateException("no");
            }
        }, null);

        LoadResult.OpStats get = r.total().ops().stream().filter(o -> o.op().equals("get")).findFirst().orElseThrow();
        LoadResult.OpStats cas = r.total().ops().stream().filter(o -> o.op().equals("cas")).findFirst().orElseThrow();
        assertThat(get.ops()).isZero();
        assertThat(get.errorTypes()).containsOnlyKeys("IllegalStateException");
        assertThat(get.errorTypes().get("IllegalStateException")).isEqualTo(get.errors());
        assertThat(cas.errors()).isZero();
        assertThat(cas.ops() + get.errors()).isEqualTo(calls.get());
        assertThat(r.thresholds()).extracting(LoadResult.ThresholdResult::passed).containsExactly(false, true);
        assertThat(r.thresholdsPassed()).isFalse();
    }

    @Test
    void abortOnFailStopsEarlyWithTheThresholdAsReason() {
        LoadSpec spec = LoadSpec.builder().op(OpType.NOOP, 1).duration(Duration.ofSeconds(30)).warmup(Duration.ZERO)
                .threshold("rate<10").abortOnFail(true).build();
        LoadResult r = new LoadEngine(spec, List.of(), null, null).run();

        assertThat(r.outcome()).isEqualTo(Status.ABORTED);
        assertThat(r.reason()).contains("threshold 'rate<10' crossed");
        assertThat(r.seconds()).as("stopped before its 30 s").isLessThan(30);
        assertThat(r.thresholds().get(0).passed()).isFalse();
    }

    @Test
    void stopKeepsWhatWasMeasuredAndCountsOnlyOpsDueUntilThen() throws Exception {
        LoadSpec spec = LoadSpec.builder().op(OpType.NOOP, 1).rate(1000).duration(Duration.ofSeconds(30))
                .warmup(Duration.ZERO).build();
        // the stop comes from the 1,500th op itself (a state, not a clock): at 1,000 op/s it is due 1.5 s in
        java.util.concurrent.atomic.AtomicReference<LoadEngine> self = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();
        LoadEngine engine = new LoadEngine(spec, List.of(), null, null, (op, client, object, log) -> {
            if (calls.incrementAndGet() == 1500) {
                self.get().stop();
            }
        });
        self.set(engine);
        LoadResult r = engine.run();

        assertThat(r.outcome()).isEqualTo(Status.INCOMPLETE);
        assertThat(r.seconds()).as("op 1,500 is not due before 1.499 s; the run was stopped long before its 30 s")
                .isGreaterThanOrEqualTo(1.499).isLessThan(30.0);
        assertThat(r.schedule().due()).isBetween(1500L, 30_000L - 1);
        assertThat(r.schedule().started()).isEqualTo(r.total().all().ops());
        // due counts the slots of 1 ms that fell due before the run ended (its own seconds), not the 30 s schedule's:
        // however late a busy machine makes the end, the count follows it
        long dueByEnd = (long) Math.ceil(r.seconds() * 1000);
        assertThat(r.schedule().due()).isBetween(dueByEnd - 1, dueByEnd + 1);
        assertThat(r.schedule().started()).as("the stop came from op 1,500; one worker starts no op after it").isEqualTo(1500);
    }

    @Test
    void lockOpsFeedTheLockInvariant() {
        LoadSpec spec = LoadSpec.builder().op(OpType.LOCK, 1).threads(3).duration(Duration.ofMillis(500))
                .warmup(Duration.ZERO).build();
        AtomicLong fence = new AtomicLong();
        Object monitor = new Object();
        LoadResult r = run(spec, (op, client, object, log) -> {
            synchronized (monitor) { // a correct lock: one holder at a time, fences growing
                long held = System.nanoTime();
                log.add(object, fence.incrementAndGet(), held, System.nanoTime());
            }
        }, null);
        assertThat(r.invariants()).singleElement().satisfies(i -> {
            assertThat(i.name()).isEqualTo("lock");
            assertThat(i.holds()).as(i.evidence()).isTrue();
        });

        LoadResult broken = run(spec, (op, client, object, log) -> {
            long held = System.nanoTime(); // no exclusion at all, and every holder gets fence 1
            Thread.sleep(1);
            log.add(object, 1, held, System.nanoTime());
        }, null);
        assertThat(broken.invariants().get(0).holds()).isFalse();
        assertThat(broken.invariantsHold()).isFalse();
    }

    @Test
    void anOpStillInFlightAfterTheDrainIsAbandonedAndSaidSo() {
        AtomicLong calls = new AtomicLong();
        LoadSpec spec = LoadSpec.builder().op(OpType.GET, 1).threads(2).duration(Duration.ofSeconds(1))
                .drain(Duration.ZERO).warmup(Duration.ZERO).build();
        long start = System.nanoTime();
        LoadResult r = runWithGrace(spec, (op, client, object, log) -> {
            if (calls.incrementAndGet() == 10) {
                Thread.sleep(60_000); // stuck: a daemon thread, left behind
            }
        }, Duration.ofSeconds(1));

        assertThat(r.outcome()).isEqualTo(Status.OK);
        assertThat(r.reason()).isEqualTo("1 op still in flight 0s after the end were abandoned (outcome unknown)");
        assertThat(r.total().all().ops()).isEqualTo(calls.get() - 1);
        assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(30).toNanos());
        // Not dropped: counted in the percentiles at its latency when abandoned (after the 1 s run and the 1 s grace),
        // a lower bound that the summary marks.
        LoadResult.LoadLatency latency = r.total().all().latency();
        assertThat(latency.censored()).isNotNull();
        assertThat(latency.censored().ops()).isEqualTo(1);
        assertThat(latency.censored().fromMicros()).isBetween(1_000_000L, 30_000_000L);
        assertThat(latency.count()).isEqualTo(r.total().all().ops() + 1);
        assertThat(latency.max()).isGreaterThanOrEqualTo(latency.censored().fromMicros());
        assertThat(RunResultCodec.decode(r.histograms().get("get")).getTotalCount()).isEqualTo(latency.count());
        assertThat(LoadSummary.render(r)).contains("≥").contains("1 op still in flight at the end is counted at");
    }

    @Test
    void anOpenLoopCountsEveryAbandonedOpAtItsLatencyFromWhenItWasDue() {
        AtomicLong calls = new AtomicLong();
        java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
        LoadSpec spec = LoadSpec.builder().op(OpType.GET, 1).threads(4).open(true).rate(200).duration(Duration.ofSeconds(1))
                .drain(Duration.ofMillis(200)).warmup(Duration.ZERO).build();
        LoadResult r = runWithGrace(spec, (op, client, object, log) -> {
            long n = calls.incrementAndGet();
            if (n == 20 || n == 40) {
                never.await(); // two workers stuck until the test ends
            }
        }, Duration.ofSeconds(1));
        never.countDown();

        LoadResult.LoadLatency latency = r.total().all().latency();
        assertThat(r.schedule().abandoned()).isEqualTo(2);
        assertThat(latency.censored()).isNotNull();
        assertThat(latency.censored().ops()).as("every abandoned op is in the percentiles").isEqualTo(r.schedule().abandoned());
        // due at about 0.1 s and 0.2 s, abandoned after the 1 s schedule, the drain and the 1 s grace
        assertThat(latency.censored().fromMicros()).isBetween(1_800_000L, 30_000_000L);
        assertThat(latency.mark(latency.max())).isEqualTo("≥");
        assertThat(latency.mark(latency.p50())).isEmpty();
    }

    /** Decodes a result's histogram, as reports do. */
    static final class RunResultCodec {
        static Histogram decode(String encoded) {
            return io.cpbench.core.result.RunResult.decode(encoded);
        }
    }

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 3})
    void boundedRunsExactlyTheWarmupAndMeasuredOpsOfAMixAndRecordsEachOnce(int workers) {
        AtomicLong calls = new AtomicLong();
        LoadSpec spec = LoadSpec.builder().mix("cas=1,get=1").threads(workers).drain(Duration.ofSeconds(1))
                .bounds(new LoadSpec.Bounds(301, 3_001, Duration.ofMinutes(1), 0)).seed(3).build();
        LoadEngine engine = new LoadEngine(spec, List.of(), null, null, (op, client, object, log) -> calls.incrementAndGet());

        LoadResult r = engine.run();

        assertThat(r.outcome()).isEqualTo(Status.OK);
        assertThat(calls.get()).isEqualTo(301 + 3_001);
        assertThat(r.warmupOps()).isEqualTo(301L);
        assertThat(r.ops()).isEqualTo(3_001);
        assertThat(r.latencyHistogram().getTotalCount()).isEqualTo(3_001);
        // a closed loop records latency once and reports it as the service time too
        assertThat(r.total().ops()).allSatisfy(o -> assertThat(o.service()).isEqualTo(o.latency()));
        assertThat(r.total().ops()).extracting(LoadResult.OpStats::ops).containsExactlyInAnyOrder(
                r.total().ops().get(0).ops(), 3_001 - r.total().ops().get(0).ops());
        assertThat(r.total().ops()).allSatisfy(o -> assertThat(o.ops()).isBetween(1_200L, 1_800L));
    }

    @Test
    void boundedNeedsAClosedLoopAndACallerOpRunsAlone() {
        LoadSpec open = LoadSpec.builder().op(OpType.NOOP, 1).rate(100).duration(Duration.ofSeconds(1)).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> open.toBuilder()
                        .bounds(new LoadSpec.Bounds(0, 10, Duration.ofSeconds(5), 0)).build())
                .hasMessageContaining("closed loop");
        LoadSpec cas = LoadSpec.builder().op(OpType.CAS, 1).duration(Duration.ofSeconds(1)).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoadEngine.call(cas, () -> { }, null, null, System::nanoTime))
                .hasMessageContaining("the mix must be call only");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoadSpec.builder().op(OpType.CALL, 1).op(OpType.GET, 1)
                .duration(Duration.ofSeconds(1)).build()).hasMessageContaining("cannot be mixed");
    }
}
