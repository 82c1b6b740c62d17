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
     * unsteady, and give the op/s of the overlap. The two run one after the other and the second's start is set 0.6 s
     * after the first's: the merge reads only those instants, and a busy machine cannot move them.
     */
    @Test
    void aLateGeneratorIsNamedAndOpsPerSecondAreOverTheWindowInWhichAllRan() {
        LoadSpec flat = LoadSpec.builder().op(OpType.NOOP, 1).threads(2).rate(1000)
                .stages(List.of(new Stage(Duration.ofMillis(1200), 1000))).warmup(Duration.ZERO)
                .interval(Duration.ofMillis(100)).build();
        LoadSpec ramp = LoadSpec.builder().op(OpType.NOOP, 1).threads(2).rate(10)
                .stages(List.of(new Stage(Duration.ofMillis(1200), 2000))).warmup(Duration.ZERO)
                .interval(Duration.ofMillis(100)).build();
        LoadMerge.Part first = run("first", flat);
        LoadMerge.Part late = run("late", ramp);
        LoadMerge.Part a = startingAt(first, first.parts().startMicros());
        LoadMerge.Part b = startingAt(late, first.parts().startMicros() + 600_000);
        List<LoadResult.AgentRow> rows = List.of(row("first"), row("late"));
        LoadResult merged = LoadMerge.merge(flat, List.of(a, b), rows);

        double lateSeconds = 0.6;
        assertThat(merged.agents().get(0).lateMs()).isEqualTo(0.0);
        assertThat(merged.agents().get(1).lateMs()).isCloseTo(lateSeconds * 1000, within(0.01));
        assertThat(merged.caveats().unsteady()).anySatisfy(line -> assertThat(line).startsWith("late began measuring")
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
    }

    @Test
    void generatorsThatStartTogetherAreSteadyAndTheirRatesAddUp() {
        LoadSpec spec = spec(1000);
        LoadMerge.Part a = run("a", spec);
        LoadMerge.Part b = startingAt(run("b", spec), a.parts().startMicros());
        LoadResult merged = LoadMerge.merge(spec(2000), List.of(withClock(a, 0.0), withClock(b, 0.0)),
                List.of(row("a"), row("b")));
        assertThat(merged.caveats().unsteady()).isEmpty();
        assertThat(merged.agents()).allSatisfy(r -> assertThat(r.lateMs()).isZero());
        // 0.6 s at 500 op/s, then a ramp from 500 to 1,000 op/s over 0.6 s, on each: 750 ops in 1.2 s
        assertThat(merged.total().all().opsPerSecond()).isCloseTo(2 * 750 / 1.2, within(2 * 750 / 1.2 * 0.05));
    }

    /** A started 50 ms after B is within the bound; 0.6 s after is not: the bound, checked on both sides. */
    @Test
    void theLateBoundSeparatesAStaggeredStartFromALateOne() {
        LoadSpec spec = spec(1000);
        LoadMerge.Part a = run("a", spec);
        LoadMerge.Part b = run("b", spec);
        long at = a.parts().startMicros();
        long bound = (long) (LoadMerge.LATE_BOUND_MS * 1000);
        LoadResult within = LoadMerge.merge(spec(2000), List.of(startingAt(a, at), startingAt(b, at + bound - 1_000)),
                List.of(row("a"), row("b")));
        assertThat(within.caveats().unsteady()).isEmpty();
        LoadResult past = LoadMerge.merge(spec(2000), List.of(startingAt(a, at), startingAt(b, at + bound + 1_000)),
                List.of(row("a"), row("b")));
        assertThat(past.caveats().unsteady()).filteredOn(line -> line.contains("began measuring")).singleElement()
                .satisfies(line -> assertThat(line).startsWith("b began measuring 0.50 s after"));
    }

    /**
     * Counts add up exactly across parts (the schedule's every column), each part's invariants are kept under its
     * name, and parts that measured a different number of stages are refused.
     */
    @Test
    void schedulesAddUpAndInvariantsKeepTheirGenerator() {
        LoadSpec spec = spec(1000);
        LoadMerge.Part a = run("a", spec);
        LoadMerge.Part b = run("b", spec);
        LoadResult.ScheduleStats sa = new LoadResult.ScheduleStats(10, 9, 1, 3, 2, LoadResult.LoadLatency.EMPTY);
        LoadResult.ScheduleStats sb = new LoadResult.ScheduleStats(100, 70, 30, 20, 5, LoadResult.LoadLatency.EMPTY);
        LoadMerge.Part pa = withSchedule(a, sa, new LoadResult.InvariantResult("counter", true, "ok"));
        LoadMerge.Part pb = withSchedule(b, sb, new LoadResult.InvariantResult("lock", false, "overlap"));
        LoadResult merged = LoadMerge.merge(spec(2000), List.of(pa, pb), List.of());
        LoadResult.ScheduleStats s = merged.schedule();
        assertThat(List.of(s.due(), s.started(), s.unstarted(), s.late(), s.abandoned())).containsExactly(110L, 79L, 31L, 23L, 7L);
        assertThat(merged.invariants()).extracting(LoadResult.InvariantResult::name).containsExactly("a: counter", "b: lock");
        assertThat(merged.invariants()).extracting(LoadResult.InvariantResult::holds).containsExactly(true, false);
        assertThat(merged.invariants().get(1).evidence()).isEqualTo("overlap");

        LoadSpec oneStage = LoadSpec.builder().op(OpType.NOOP, 1).threads(2).rate(500)
                .stages(List.of(new Stage(Duration.ofMillis(600), 500))).warmup(Duration.ZERO).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoadMerge.merge(oneStage, List.of(a, b), List.of()))
                .hasMessage("a measured 2 stages, the spec has 1");
    }

    /** Parts whose runs never overlapped have no window: their rates are summed, and the run says so. */
    @Test
    void partsThatNeverRanTogetherAreSummedAndSaidToBe() {
        LoadSpec spec = spec(1000);
        LoadMerge.Part a = run("a", spec);
        LoadMerge.Part b = run("b", spec);
        long at = a.parts().startMicros();
        long after = at + (long) (a.parts().ran() * 1e6) + 1_000_000; // b began a second after a had ended
        LoadResult merged = LoadMerge.merge(spec(2000), List.of(startingAt(a, at), startingAt(b, after)), List.of());
        assertThat(merged.caveats().unsteady()).contains("the generators never all ran at once: op/s are their rates summed");
        // all ops over the longer part's time: side by side, as if they had run together
        assertThat(merged.total().all().opsPerSecond()).isCloseTo(
                (a.result().total().all().ops() + b.result().total().all().ops()) / merged.seconds(), within(1e-6));
        assertThat(merged.agents()).isEmpty();
    }

    private static LoadMerge.Part withSchedule(LoadMerge.Part p, LoadResult.ScheduleStats schedule, LoadResult.InvariantResult invariant) {
        LoadParts q = p.parts();
        return new LoadMerge.Part(p.name(), LoadResultBuilder.builder(p.result()).invariants(List.of(invariant)).build(),
                new LoadParts(q.stages(), schedule, q.startMicros(), q.ran(), q.timeline()));
    }

    /** The same part as if its generator had begun measuring at {@code startMicros} (its clock's reading). */
    private static LoadMerge.Part startingAt(LoadMerge.Part p, long startMicros) {
        LoadParts q = p.parts();
        return new LoadMerge.Part(p.name(), p.result(), new LoadParts(q.stages(), q.schedule(), startMicros, q.ran(), q.timeline()),
                0.0);
    }

    private static LoadMerge.Part withClock(LoadMerge.Part p, double offsetMs) {
        return new LoadMerge.Part(p.name(), p.result(), p.parts(), offsetMs);
    }

    private static LoadResult.AgentRow row(String name) {
        return new LoadResult.AgentRow(name, "here", 0, Status.OK, null, null, null, null);
    }
}
