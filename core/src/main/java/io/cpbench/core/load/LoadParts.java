package io.cpbench.core.load;

import io.cpbench.core.stats.HistogramCodec;
import io.cpbench.core.stats.Censored;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one load generator measured, per stage, in a form that adds up exactly: per op the latency (and, in an open
 * loop, service) histogram in HdrHistogram's compressed encoding, errors by type and what was recorded censored; the
 * stage's lag histogram and its length. Several generators' parts merge into one result with
 * {@link LoadMerge#merge}: histograms are added ({@code Histogram.add}), never percentiles averaged.
 *
 * @param stages      the measured stages, in order
 * @param schedule    open loop: ops due, started, never started, late and abandoned; null in a closed loop
 * @param startMicros when this generator began to measure, µs since the epoch on its own clock; 0 when not known
 * @param ran         seconds from then until its schedule ended or it was stopped: how long it made load (the drain
 *                    after that only finishes ops in flight)
 * @param timeline    after each interval, the ops it had done by then: what lets several generators' rates be taken
 *                    over the window in which all of them ran ({@link LoadMerge})
 */
public record LoadParts(List<Stage> stages, LoadResult.ScheduleStats schedule, long startMicros, double ran,
                        List<Sample> timeline) {

    public LoadParts {
        stages = List.copyOf(stages);
        timeline = timeline == null ? List.of() : List.copyOf(timeline);
    }

    /**
     * @param at seconds since the generator began to measure
     * @param ok per op, in the mix's order, the ops that had ended without an error by then
     */
    public record Sample(double at, List<Long> ok) {
        public Sample {
            ok = List.copyOf(ok);
        }
    }

    /**
     * Per op, how many ops ended without an error between {@code from} and {@code to} (seconds since this generator
     * began to measure), the timeline read as straight between its samples; null when it has no timeline.
     */
    double[] okBetween(double from, double to) {
        if (timeline.isEmpty()) {
            return null;
        }
        int n = timeline.get(0).ok().size();
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = okAt(i, to) - okAt(i, from);
        }
        return out;
    }

    private double okAt(int op, double at) {
        double prevAt = 0;
        double prevOk = 0;
        for (Sample s : timeline) {
            double ok = s.ok().get(op);
            if (at <= s.at()) {
                return s.at() <= prevAt ? ok : prevOk + (ok - prevOk) * (at - prevAt) / (s.at() - prevAt);
            }
            prevAt = s.at();
            prevOk = ok;
        }
        return prevOk;
    }

    /**
     * @param nanos how long the stage lasted on this generator
     * @param lag   how late ops started (open loop), encoded
     */
    public record Stage(long nanos, List<Op> ops, String lag) {
        public Stage {
            ops = List.copyOf(ops);
        }
    }

    /**
     * @param op      the op's key in the mix
     * @param latency encoded latency histogram, µs
     * @param service encoded service-time histogram, µs; null in a closed loop (it is the latency)
     */
    public record Op(String op, String latency, String service, long errors, Censored censored,
                     Map<String, Long> errorTypes) {
        public Op {
            errorTypes = errorTypes == null ? Map.of() : Map.copyOf(errorTypes);
        }
    }

    static Stage of(Tally tally, boolean closed) {
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < tally.ops.length; i++) {
            ops.add(new Op(tally.ops[i].key(), HistogramCodec.encode(tally.latency[i]),
                    closed ? null : HistogramCodec.encode(tally.service[i]), tally.errors[i], tally.censored[i],
                    tally.errorTypes.get(i)));
        }
        return new Stage(tally.nanos, ops, HistogramCodec.encode(tally.lag));
    }

    /** Adds {@code stage} into {@code into}, whose ops must be the same, in the same order. */
    static void addInto(Tally into, Stage stage, boolean closed) {
        if (stage.ops().size() != into.ops.length) {
            throw new IllegalArgumentException("a generator measured " + stage.ops().size() + " ops, the spec has "
                    + into.ops.length);
        }
        for (int i = 0; i < into.ops.length; i++) {
            Op op = stage.ops().get(i);
            if (!op.op().equals(into.ops[i].key())) {
                throw new IllegalArgumentException("a generator measured op " + op.op() + " where the spec has "
                        + into.ops[i].key());
            }
            into.latency[i].add(HistogramCodec.decode(op.latency()));
            if (!closed) {
                into.service[i].add(HistogramCodec.decode(op.service()));
            }
            into.errors[i] += op.errors();
            into.censored[i] = Censored.merge(into.censored[i], op.censored());
            Map<String, Long> mine = into.errorTypes.get(i);
            op.errorTypes().forEach((type, n) -> mine.merge(type, n, Long::sum));
        }
        into.lag.add(HistogramCodec.decode(stage.lag()));
        // the generators ran side by side: a merged stage lasts as long as its longest part, not their sum
        into.nanos = Math.max(into.nanos, stage.nanos());
    }
}
