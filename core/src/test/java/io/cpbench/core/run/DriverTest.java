package io.cpbench.core.run;

import io.cpbench.core.status.Status;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.result.RunResult;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileNotFoundException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class DriverTest {

    @TempDir
    Path dir;

    @Test
    void runsExactlyTheOpsAskedForAcrossThreadsAndKeepsWarmupOutOfTheHistogram() {
        AtomicLong calls = new AtomicLong();
        LoadSpec plan = LoadSpec.scenario().warmupOps(101).ops(1_003).threads(3).timebox(Duration.ofMinutes(1)).build();

        LoadResult m = new Driver(plan).run(calls::incrementAndGet, null, null);

        assertThat(m.outcome()).isEqualTo(Status.OK);
        assertThat(m.warmupOps()).isEqualTo(101L);
        assertThat(m.ops()).isEqualTo(1_003);
        assertThat(m.latencyHistogram().getTotalCount()).isEqualTo(1_003);
        assertThat(calls.get()).isEqualTo(101 + 1_003);
    }

    @Test
    void aWarmupTimeRunsOpsForThatLongAndKeepsThemOutOfTheHistogram() {
        AtomicLong calls = new AtomicLong();
        LoadSpec plan = LoadSpec.scenario().warmup(Duration.ofMillis(600)).ops(200).threads(2)
                .timebox(Duration.ofMinutes(1)).build();
        long start = System.nanoTime();

        LoadResult m = new Driver(plan).run(() -> {
            calls.incrementAndGet();
            Thread.sleep(1);
        }, null, null);

        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(m.outcome()).isEqualTo(Status.OK);
        assertThat(m.ops()).isEqualTo(200);
        assertThat(m.latencyHistogram().getTotalCount()).isEqualTo(200);
        // two threads of 1 ms ops for 0.6 s run hundreds of ops, none of them measured; a 0 here would mean no warm-up
        assertThat(m.warmupOps()).isGreaterThan(100L).isEqualTo(calls.get() - 200);
        assertThat(elapsedMillis).as("the warm-up ran its time before measuring").isGreaterThanOrEqualTo(600);
        assertThat(m.startedAt()).isNotNull();
    }

    @Test
    void aWarmupTimeLongerThanItsShareOfTheTimeboxIsCutThere() {
        // 20 % of a 2 s time box is 0.4 s: a 30 s warm-up must not eat the time box
        LoadSpec plan = LoadSpec.scenario().warmup(Duration.ofSeconds(30)).ops(50).timebox(Duration.ofSeconds(2)).build();

        LoadResult m = new Driver(plan).run(() -> Thread.sleep(1), null, null);

        assertThat(m.outcome()).isEqualTo(Status.OK);
        assertThat(m.ops()).isEqualTo(50);
        assertThat(m.warmupOps()).isPositive().isLessThan(450); // at most 0.4 s of 1 ms ops
    }

    @Test
    void recordsServiceTimeInMicroseconds() {
        LoadSpec plan = LoadSpec.scenario().warmupOps(0).ops(20).timebox(Duration.ofMinutes(1)).build();

        LoadResult m = new Driver(plan).run(() -> Thread.sleep(3), null, null);

        // A 3 ms sleep never takes less than 3,000 µs; a unit mix-up (ns or ms) would land far outside this range.
        assertThat(m.latencyHistogram().getMinValue()).isGreaterThanOrEqualTo(3_000);
        assertThat(m.latencyHistogram().getValueAtPercentile(50)).isLessThan(100_000);
        assertThat(m.seconds()).isGreaterThanOrEqualTo(20 * 0.003);
        assertThat(m.opsPerSecond()).isCloseTo(m.ops() / m.seconds(), org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void intervalLogAddsUpToTheMeasuredHistogram() throws FileNotFoundException {
        Path hlog = dir.resolve("run.hlog");
        LoadSpec plan = LoadSpec.scenario().warmupOps(50).ops(400).interval(Duration.ofMillis(50))
                .timebox(Duration.ofMinutes(1)).build();

        LoadResult m = new Driver(plan).run(() -> Thread.sleep(1), hlog, null);

        Histogram fromLog = new Histogram(3);
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        int intervals = 0;
        while (reader.hasNext()) {
            fromLog.add((Histogram) reader.nextIntervalHistogram());
            intervals++;
        }
        assertThat(intervals).isGreaterThan(1);
        assertThat(fromLog.getTotalCount()).isEqualTo(400);
        assertThat(fromLog).isEqualTo(m.latencyHistogram());
    }

    @Test
    void timeboxEndsARunAndKeepsWhatItMeasured() {
        LoadSpec plan = LoadSpec.scenario().warmupOps(0).ops(1_000_000).timebox(Duration.ofMillis(400)).build();

        LoadResult m = new Driver(plan).run(() -> Thread.sleep(2), null, null);

        assertThat(m.outcome()).isEqualTo(Status.TIMEBOXED);
        assertThat(m.reason()).contains("time box");
        assertThat(m.ops()).isBetween(1L, 999_999L);
        assertThat(m.latencyHistogram().getTotalCount()).isEqualTo(m.ops());
    }

    @Test
    void warmupCannotEatTheWholeTimebox() {
        LoadSpec plan = LoadSpec.scenario().warmupOps(1_000_000).ops(10).timebox(Duration.ofSeconds(2)).build();

        LoadResult m = new Driver(plan).run(() -> Thread.sleep(1), null, null);

        assertThat(m.warmupOps()).isLessThan(1_000_000L);
        assertThat(m.outcome()).isEqualTo(Status.OK);
        assertThat(m.ops()).isEqualTo(10);
    }

    @Test
    void errorsAreCountedApartFromLatencies() {
        AtomicLong calls = new AtomicLong();
        LoadSpec plan = LoadSpec.scenario().warmupOps(0).ops(300).timebox(Duration.ofMinutes(1)).build();

        LoadResult m = new Driver(plan).run(() -> {
            if (calls.incrementAndGet() % 3 == 0) {
                throw new IllegalStateException("every third op fails");
            }
        }, null, null);

        assertThat(m.outcome()).isEqualTo(Status.OK);
        assertThat(m.errors()).isEqualTo(100);
        assertThat(m.ops()).isEqualTo(200);
        assertThat(m.ops() + m.errors()).isEqualTo(300);
    }

    @Test
    void opsThatKeepFailingFailTheRunWithTheReason() {
        LoadSpec plan = LoadSpec.scenario().warmupOps(0).ops(1_000_000).timebox(Duration.ofMinutes(1)).build();

        LoadResult m = new Driver(plan).run(() -> {
            throw new IllegalStateException("cluster gone");
        }, null, null);

        assertThat(m.outcome()).isEqualTo(Status.FAIL);
        assertThat(m.reason()).contains("cluster gone").contains(Integer.toString(LoadSpec.SCENARIO_MAX_CONSECUTIVE_ERRORS));
        assertThat(m.errors()).isEqualTo(LoadSpec.SCENARIO_MAX_CONSECUTIVE_ERRORS);
    }

    @Test
    void stopFromTheOpItselfEndsTheRunAfterThatOp() {
        LoadSpec plan = LoadSpec.scenario().warmupOps(0).ops(1_000_000).timebox(Duration.ofMinutes(1)).build();
        Driver driver = new Driver(plan);
        AtomicLong calls = new AtomicLong();

        LoadResult m = driver.run(() -> {
            Thread.sleep(1);
            if (calls.incrementAndGet() == 50) {
                driver.stop();
            }
        }, null, null);

        assertThat(m.outcome()).isEqualTo(Status.INCOMPLETE);
        assertThat(m.ops()).isEqualTo(50);
    }

    @Test
    void stopFromAnotherThreadKeepsTheMeasurementAsInterrupted() throws Exception {
        LoadSpec plan = LoadSpec.scenario().warmupOps(0).ops(1_000_000).threads(2).timebox(Duration.ofMinutes(1)).build();
        Driver driver = new Driver(plan);
        AtomicLong calls = new AtomicLong();
        java.util.concurrent.CountDownLatch fifty = new java.util.concurrent.CountDownLatch(50);
        Thread stopper = new Thread(() -> {
            try {
                fifty.await();
                driver.stop(); // as the Ctrl-C hook does: neither a worker nor the sampling thread
            } catch (InterruptedException ignored) {
                // the test ends anyway
            }
        }, "test-stopper");
        stopper.start();

        LoadResult m = driver.run(() -> {
            Thread.sleep(1);
            calls.incrementAndGet();
            fifty.countDown();
        }, null, null);
        stopper.join(10_000);

        assertThat(m.outcome()).isEqualTo(Status.INCOMPLETE);
        assertThat(m.ops()).isGreaterThanOrEqualTo(50).isLessThan(1_000_000).isEqualTo(calls.get());
        assertThat(m.latencyHistogram().getTotalCount()).isEqualTo(m.ops());
    }

    @Test
    void stopDuringWarmupMeasuresNothingAndSaysInterrupted() throws Exception {
        LoadSpec plan = LoadSpec.scenario().warmupOps(1_000_000).ops(10).timebox(Duration.ofMinutes(1)).build();
        Driver driver = new Driver(plan);
        AtomicLong calls = new AtomicLong();
        Thread stopper = new Thread(() -> {
            while (calls.get() < 20) {
                Thread.onSpinWait();
            }
            driver.stop();
        }, "test-stopper");
        stopper.start();

        LoadResult m = driver.run(() -> {
            Thread.sleep(1);
            calls.incrementAndGet();
        }, null, null);
        stopper.join(10_000);

        assertThat(m.outcome()).isEqualTo(Status.INCOMPLETE);
        assertThat(m.warmupOps()).isGreaterThanOrEqualTo(20L).isLessThan(1_000_000L);
        assertThat(m.ops()).isZero();
        assertThat(m.latencyHistogram().getTotalCount()).isZero();
    }

    @Test
    void anOpStuckPastTheTimeboxIsAbandonedAfterTheGraceAndTheRestIsKept() {
        LoadSpec plan = LoadSpec.scenario().warmupOps(0).ops(1_000_000).threads(2).timebox(Duration.ofSeconds(1)).build();
        Driver driver = new Driver(plan.toBuilder().drain(Duration.ofMillis(300)).build());
        java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
        AtomicLong calls = new AtomicLong();

        LoadResult m = driver.run(() -> {
            if (calls.incrementAndGet() == 100) {
                never.await(); // one thread's op never returns, like a call to a member that died
            }
            Thread.sleep(1);
        }, null, null);

        assertThat(m.outcome()).isEqualTo(Status.TIMEBOXED);
        assertThat(m.reason()).isEqualTo("ops still in flight 0.3 s after the time box of 1 s were abandoned");
        assertThat(m.ops()).as("the other thread ran on to the time box").isGreaterThan(100);
        // The stuck op is not dropped: it counts in the histogram at its latency when abandoned (about 1.3 s, from
        // its start early in the run to the time box and its grace), as a lower bound; it is not counted as done.
        assertThat(m.censored()).isNotNull();
        assertThat(m.censored().ops()).isEqualTo(1);
        assertThat(m.censored().fromMicros()).isBetween(1_000_000L, 1_300_000L + 1_000_000L);
        assertThat(m.latencyHistogram().getTotalCount()).isEqualTo(m.ops() + 1);
        assertThat(m.latencyHistogram().getMaxValue()).isGreaterThanOrEqualTo(m.censored().fromMicros());
        RunResult.Latency latency = RunResult.Latency.of(m.latencyHistogram(), m.censored());
        assertThat(latency.mark(latency.max())).as("the max is the censored op's: a lower bound").isEqualTo("≥");
        assertThat(latency.mark(latency.p50())).as("the median is below every censored value: exact").isEmpty();
        never.countDown();
    }

    @Test
    void recordedValuesAreTheOpsRealTimesAcrossManyIntervalSwaps() {
        // 10 ms intervals: dozens of swaps, each handing the previous interval histogram back for reuse.
        LoadSpec plan = LoadSpec.scenario().warmupOps(10).ops(300).interval(Duration.ofMillis(10))
                .timebox(Duration.ofMinutes(1)).build();

        LoadResult m = new Driver(plan).run(() -> Thread.sleep(2), null, null);

        assertThat(m.latencyHistogram().getTotalCount()).isEqualTo(300);
        assertThat(m.latencyHistogram().getMinValue()).isGreaterThanOrEqualTo(2000);
        assertThat(m.latencyHistogram().getValueAtPercentile(50)).isBetween(2000L, 20_000L);
    }

    @Test
    void durationModeMeasuresForTheDurationWithoutAnOpCount() {
        LoadSpec plan = LoadSpec.scenario().warmupOps(0).duration(Duration.ofMillis(300)).timebox(Duration.ofMinutes(1)).build();

        LoadResult m = new Driver(plan).run(() -> Thread.sleep(1), null, null);

        assertThat(m.outcome()).isEqualTo(Status.OK);
        assertThat(m.seconds()).isBetween(0.3, 5.0);
        assertThat(m.ops()).isPositive();
    }

    @Test
    void progressReportsTheMeasuredPhase() {
        java.util.List<LoadEngine.IntervalReport> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        LoadSpec plan = LoadSpec.scenario().warmupOps(0).ops(200).interval(Duration.ofMillis(20))
                .timebox(Duration.ofMinutes(1)).build();

        new Driver(plan).run(() -> Thread.sleep(1), null, reports::add);

        assertThat(reports).isNotEmpty();
        LoadEngine.IntervalReport last = reports.get(reports.size() - 1);
        assertThat(last.done()).isBetween(1L, 200L);
        assertThat(reports).extracting(LoadEngine.IntervalReport::done).isSorted();
    }
}
