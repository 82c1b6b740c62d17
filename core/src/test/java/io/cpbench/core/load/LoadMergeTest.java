package io.cpbench.core.load;

import io.cpbench.core.result.RunResult;
import io.cpbench.core.run.Outcome;
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

        assertThat(merged.outcome()).isEqualTo(Outcome.COMPLETED);
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
        assertThat(merged.outcome()).isEqualTo(Outcome.INTERRUPTED);
        assertThat(merged.reason()).startsWith("b: ");
        assertThat(LoadMerge.worse(Outcome.TIMEBOXED, Outcome.FAILED)).isEqualTo(Outcome.FAILED);
        assertThat(LoadMerge.worse(Outcome.ABORTED, Outcome.COMPLETED)).isEqualTo(Outcome.ABORTED);
    }
}
