package io.cpbench.core.load;

import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LoadMergeTest {

    /** An open loop of noop ops in two stages, at {@code rate} op/s at its end. */
    private static LoadSpec spec(double rate) {
        return LoadSpec.builder().op(OpType.NOOP, 1).threads(2).rate(rate / 2)
                .stages(List.of(new Stage(Duration.ofMillis(600), rate / 2), new Stage(Duration.ofMillis(600), rate)))
                .warmup(Duration.ZERO).threshold("rate>=100").build();
    }

    private static LoadMerge.Part run(String name, LoadSpec spec) {
        LoadEngine engine = new LoadEngine(spec, List.of(), null, null);
        LoadResult result = engine.run();
        return new LoadMerge.Part(name, result, engine.parts());
    }

    @Test
    void twoGeneratorsMergePerStageIntoTheirSumsAndTheUnionOfTheirHistograms() {
        LoadSpec whole = spec(2000);
        LoadMerge.Part a = run("a", spec(1000));
        LoadMerge.Part b = run("b", spec(1000));
        LoadResult merged = LoadMerge.merge(whole, List.of(a, b), List.of());

        assertThat(merged.outcome()).isEqualTo(Status.OK);
        assertThat(merged.stages()).hasSize(2);
        for (int s = 0; s < 2; s++) {
            long ops = a.result().stages().get(s).all().ops() + b.result().stages().get(s).all().ops();
            assertThat(merged.stages().get(s).all().ops()).as("stage " + (s + 1)).isEqualTo(ops);
            // the levels are the whole load's, not a part's
            assertThat(merged.stages().get(s).toLevel()).isEqualTo(whole.profile().stages().get(s).target());
        }
        assertThat(merged.total().all().ops()).isEqualTo(a.result().total().all().ops() + b.result().total().all().ops());
        assertThat(merged.schedule().due()).isEqualTo(a.result().schedule().due() + b.result().schedule().due());

        Histogram union = RunResult.decode(a.result().histograms().get("noop"));
        union.add(RunResult.decode(b.result().histograms().get("noop")));
        assertThat(RunResult.decode(merged.histograms().get("noop"))).isEqualTo(union);
        assertThat(merged.total().all().latency().p99()).isEqualTo(union.getValueAtPercentile(99));
        // side by side: the merged run lasts as long as its longer part, and its rate is the two together
        assertThat(merged.seconds()).isEqualTo(Math.max(a.result().seconds(), b.result().seconds()));
        assertThat(merged.total().all().opsPerSecond()).isCloseTo(merged.total().all().ops() / merged.seconds(),
                within(1e-6));
        assertThat(merged.thresholds()).singleElement().satisfies(t -> assertThat(t.passed()).isTrue());
    }

    @Test
    void theWorstOutcomeWinsAndEachReasonNamesItsGenerator() {
        LoadSpec spec = spec(1000);
        LoadMerge.Part a = run("a", spec);
        LoadEngine stopped = new LoadEngine(spec, List.of(), null, null);
        stopped.stop();
        LoadResult interrupted = stopped.run();
        LoadMerge.Part b = new LoadMerge.Part("b", interrupted, stopped.parts());
        LoadResult merged = LoadMerge.merge(spec, List.of(a, b), List.of());
        assertThat(merged.outcome()).isEqualTo(Status.INCOMPLETE);
        assertThat(merged.reason()).startsWith("b: ");
        assertThat(Status.worse(Status.TIMEBOXED, Status.FAIL)).isEqualTo(Status.FAIL);
        assertThat(Status.worse(Status.ABORTED, Status.OK)).isEqualTo(Status.ABORTED);
    }
    /**
     * Two generators of one open-loop load, the second started 0.6 s after the first: one runs a flat 1,000 op/s for
     * 1.2 s, the other ramps from 10 to 2,000 op/s over its 1.2 s. Added up whole, their rates come to some 2,000
     * op/s; over the 0.6 s in which both ran, to some 1,500. The merge must say the second is late, make the run
     * unsteady, and give the op/s of the overlap.
     */
    @Test
    void aLateGeneratorIsNamedAndOpsPerSecondAreOverTheWindowInWhichAllRan() throws Exception {
        LoadSpec flat = LoadSpec.builder().op(OpType.NOOP, 1).threads(2).rate(1000)
                .stages(List.of(new Stage(Duration.ofMillis(1200), 1000))).warmup(Duration.ZERO)
                .interval(Duration.ofMillis(100)).build();
        LoadSpec ramp = LoadSpec.builder().op(OpType.NOOP, 1).threads(2).rate(10)
                .stages(List.of(new Stage(Duration.ofMillis(1200), 2000))).warmup(Duration.ZERO)
                .interval(Duration.ofMillis(100)).build();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.CountDownLatch measuring = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.Future<LoadMerge.Part> first = pool.submit(() -> {
                LoadEngine engine = new LoadEngine(flat, List.of(), null, new LoadEngine.Listener() {
                    @Override
                    public void interval(LoadEngine.IntervalReport report) {
                    }

                    @Override
                    public void measuringStarts() {
                        measuring.countDown();
                    }
                });
                LoadResult result = engine.run();
                return new LoadMerge.Part("first", result, engine.parts());
            });
            assertThat(measuring.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            Thread.sleep(600); // then the second starts: it begins measuring 0.6 s and its own start-up later
            java.util.concurrent.Future<LoadMerge.Part> late = pool.submit(() -> run("late", ramp));
            LoadMerge.Part a = withClock(first.get(), 0.0);
            LoadMerge.Part b = withClock(late.get(), 0.0);
            List<LoadResult.AgentRow> rows = List.of(row("first"), row("late"));
            LoadResult merged = LoadMerge.merge(flat, List.of(a, b), rows);

            double lateSeconds = (b.parts().startMicros() - a.parts().startMicros()) / 1e6;
            assertThat(lateSeconds).as("the second really started late").isBetween(0.6, 1.1);
            assertThat(merged.agents().get(0).lateMs()).isEqualTo(0.0);
            assertThat(merged.agents().get(1).lateMs()).isCloseTo(lateSeconds * 1000, within(0.01));
            assertThat(merged.unsteady()).anySatisfy(line -> assertThat(line).startsWith("late began measuring")
                    .contains("bound 0.5 s"));

            // what ran in the overlap, from the two rates: the flat one's, and the ramp's first (1.2 s - late)
            double window = Math.min(a.parts().ran(), lateSeconds + b.parts().ran()) - lateSeconds;
            double rampSlope = (2000 - 10) / 1.2;
            double expected = (1000 * window + 10 * window + rampSlope * window * window / 2) / window;
            double naive = merged.total().all().ops() / merged.seconds();
            assertThat(merged.total().all().opsPerSecond()).as("op/s over the overlap")
                    .isCloseTo(expected, within(expected * 0.05));
            assertThat(naive).as("the rates added up whole say more").isGreaterThan(expected * 1.15);
            // counts are never scaled: every op is in the total
            assertThat(merged.total().all().ops())
                    .isEqualTo(a.result().total().all().ops() + b.result().total().all().ops());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void generatorsThatStartTogetherAreSteadyAndTheirRatesAddUp() throws Exception {
        LoadSpec spec = spec(1000);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.Future<LoadMerge.Part> f1 = pool.submit(() -> run("a", spec));
            java.util.concurrent.Future<LoadMerge.Part> f2 = pool.submit(() -> run("b", spec));
            LoadResult merged = LoadMerge.merge(spec(2000), List.of(withClock(f1.get(), 0.0), withClock(f2.get(), 0.0)),
                    List.of(row("a"), row("b")));
            assertThat(merged.unsteady()).isEmpty();
            assertThat(merged.agents()).allSatisfy(r -> assertThat(r.lateMs()).isLessThan(LoadMerge.LATE_BOUND_MS));
            // 0.6 s at 500 op/s, then a ramp from 500 to 1,000 op/s over 0.6 s, on each: 750 ops in 1.2 s
            assertThat(merged.total().all().opsPerSecond()).isCloseTo(2 * 750 / 1.2, within(2 * 750 / 1.2 * 0.05));
        } finally {
            pool.shutdownNow();
        }
    }

    private static LoadMerge.Part withClock(LoadMerge.Part p, double offsetMs) {
        return new LoadMerge.Part(p.name(), p.result(), p.parts(), offsetMs);
    }

    private static LoadResult.AgentRow row(String name) {
        return new LoadResult.AgentRow(name, "here", 0, Status.OK, null, null, null, null);
    }
}
