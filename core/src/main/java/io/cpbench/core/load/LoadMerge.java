package io.cpbench.core.load;

import io.cpbench.core.status.Status;


import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One load's result from what several generators measured of it: per stage and op, their histograms added
 * ({@code Histogram.add}, exact), their ops, errors and error types summed; a stage lasts as long as its longest
 * part. Thresholds are judged on the merged numbers; invariants are each generator's (each checked the objects it
 * alone used). The outcome is the worst of the parts', with each reason named by its generator.
 * <p>
 * Generators that should start together do not quite: one busy connecting begins late. When their clocks were
 * compared, each one's lateness (when it began to measure, after the first) is in its row, and the whole run's op/s
 * are taken over the window in which all of them ran, from their timelines: summing rates measured at different
 * times would overstate what the cluster did under the full load. One later than {@link #LATE_BOUND_MS} makes the
 * run unsteady ({@link LoadResult#unsteady}), with a line naming it. Per-stage op/s stay each stage's ops over its
 * longest part.
 */
public final class LoadMerge {

    /** A generator that began to measure later than this after the first makes the merged run unsteady. */
    public static final double LATE_BOUND_MS = 500;

    private LoadMerge() {
    }

    /**
     * What one generator returned.
     *
     * @param name          the generator, as its row and reasons name it
     * @param result        its own result
     * @param parts         its numbers in a form that adds up ({@link LoadEngine#parts()})
     * @param clockOffsetMs its clock minus the merger's; null when not compared (then no lateness is worked out, and
     *                      op/s are the generators' rates summed)
     */
    public record Part(String name, LoadResult result, LoadParts parts, Double clockOffsetMs) {

        public Part(String name, LoadResult result, LoadParts parts) {
            this(name, result, parts, null);
        }

        /** When it began to measure, µs since the epoch on the merger's clock. */
        double startMicros() {
            return parts.startMicros() - clockOffsetMs * 1000;
        }
    }

    /**
     * The window in which every generator ran, on the merger's clock (µs), and each one's lateness; null when the
     * parts cannot say (clocks not compared, a part with no timeline, or one part).
     */
    record Overlap(double fromMicros, double toMicros, Map<String, Double> lateMs) {

        static Overlap of(List<Part> parts) {
            if (parts.size() < 2 || parts.stream().anyMatch(p -> p.clockOffsetMs() == null
                    || p.parts().startMicros() <= 0 || p.parts().timeline().isEmpty())) {
                return null;
            }
            double first = parts.stream().mapToDouble(Part::startMicros).min().orElseThrow();
            double from = parts.stream().mapToDouble(Part::startMicros).max().orElseThrow();
            double to = parts.stream().mapToDouble(p -> p.startMicros() + p.parts().ran() * 1e6).min().orElseThrow();
            Map<String, Double> late = new LinkedHashMap<>();
            parts.forEach(p -> late.put(p.name(), (p.startMicros() - first) / 1000));
            return new Overlap(from, to, late);
        }

        double seconds() {
            return (toMicros - fromMicros) / 1e6;
        }

        /** Per op, the ops that ended without error in this window, all generators together. */
        double[] ok(List<Part> parts, int opCount) {
            double[] sum = new double[opCount];
            for (Part p : parts) {
                double[] mine = p.parts().okBetween((fromMicros - p.startMicros()) / 1e6, (toMicros - p.startMicros()) / 1e6);
                for (int i = 0; i < opCount; i++) {
                    sum[i] += mine[i];
                }
            }
            return sum;
        }
    }

    /**
     * @param spec  the whole load, before it was split between the generators: its stages' levels are the merged
     *              result's, its thresholds are judged on it
     * @param parts at least one
     * @param rows  a row per generator, into the result
     */
    public static LoadResult merge(LoadSpec spec, List<Part> parts, List<LoadResult.AgentRow> rows) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge: no generator returned a result");
        }
        OpType[] used = spec.mix().keySet().toArray(new OpType[0]);
        boolean closed = !spec.open();
        Profile profile = spec.profile();
        int stageCount = profile.stages().size();
        List<LoadResult.StageStats> stageStats = new ArrayList<>();
        Tally whole = new Tally(used, closed);
        for (int s = 0; s < stageCount; s++) {
            Tally stage = new Tally(used, closed);
            for (Part part : parts) {
                if (part.parts().stages().size() != stageCount) {
                    throw new IllegalArgumentException(part.name() + " measured " + part.parts().stages().size()
                            + " stages, the spec has " + stageCount);
                }
                LoadParts.addInto(stage, part.parts().stages().get(s), closed);
            }
            stageStats.add(stage.stats(s + 1, s == 0 ? profile.startLevel() : profile.stages().get(s - 1).target(),
                    profile.stages().get(s).target(), spec.open()));
            whole.add(stage);
        }
        double seconds = parts.stream().mapToDouble(p -> p.result().seconds()).max().orElse(0);
        whole.nanos = Math.round(seconds * 1e9);
        LoadResult.StageStats total = whole.stats(0, profile.startLevel(), profile.stages().get(stageCount - 1).target(),
                spec.open());
        Overlap overlap = Overlap.of(parts);
        List<String> unsteady = new ArrayList<>();
        if (overlap != null) {
            total = overOverlap(total, overlap, parts, unsteady);
            rows = withLateness(rows, overlap);
        }
        LoadResult.ScheduleStats schedule = closed ? null : schedule(parts, whole);
        List<LoadResult.InvariantResult> invariants = new ArrayList<>();
        for (Part part : parts) {
            part.result().invariants().forEach(i -> invariants.add(new LoadResult.InvariantResult(
                    part.name() + ": " + i.name(), i.holds(), i.evidence())));
        }
        List<LoadResult.ThresholdResult> thresholds = Threshold.judgeAll(spec.thresholds(), total, stageStats);
        Map<String, String> histograms = whole.encodedLatencies();
        Status outcome = Status.OK;
        List<String> reasons = new ArrayList<>();
        String startedAt = null;
        for (Part part : parts) {
            outcome = Status.worse(outcome, part.result().outcome());
            if (part.result().reason() != null) {
                reasons.add(part.name() + ": " + part.result().reason());
            }
            String started = part.result().startedAt();
            if (started != null && (startedAt == null || Instant.parse(started).isBefore(Instant.parse(startedAt)))) {
                startedAt = started;
            }
        }
        return LoadResultBuilder.builder().outcome(outcome).reason(reasons.isEmpty() ? null : String.join("; ", reasons))
                .spec(spec.describe()).startedAt(startedAt).seconds(seconds).stages(stageStats).total(total)
                .schedule(schedule).thresholds(thresholds).invariants(invariants).histograms(histograms).agents(rows)
                .caveats(new LoadResult.Caveats(unsteady, null)).build();
    }

    /**
     * {@code total} with its op/s (each op's and all together) taken over the window in which every generator ran;
     * what makes the run unsteady added to {@code unsteady}.
     */
    private static LoadResult.StageStats overOverlap(LoadResult.StageStats total, Overlap overlap, List<Part> parts,
                                                     List<String> unsteady) {
        overlap.lateMs().forEach((name, late) -> {
            if (late > LATE_BOUND_MS) {
                unsteady.add(String.format(Locale.ROOT, "%s began measuring %.2f s after the first generator (bound"
                        + " %.1f s)", name, late / 1000, LATE_BOUND_MS / 1000));
            }
        });
        double window = overlap.seconds();
        if (window <= 0) {
            unsteady.add("the generators never all ran at once: op/s are their rates summed");
            return total;
        }
        if (!unsteady.isEmpty()) {
            unsteady.add(String.format(Locale.ROOT, "op/s are over the %.1f s in which all of them ran", window));
        }
        double[] ok = overlap.ok(parts, total.ops().size());
        List<LoadResult.OpStats> per = new ArrayList<>();
        double all = 0;
        for (int i = 0; i < ok.length; i++) {
            per.add(withRate(total.ops().get(i), ok[i] / window));
            all += ok[i];
        }
        return new LoadResult.StageStats(total.stage(), total.seconds(), total.fromLevel(), total.toLevel(), per,
                withRate(total.all(), all / window), total.lag());
    }

    private static LoadResult.OpStats withRate(LoadResult.OpStats s, double opsPerSecond) {
        return new LoadResult.OpStats(s.op(), s.ops(), s.errors(), opsPerSecond, s.errorRate(), s.latency(), s.service(),
                s.errorTypes());
    }

    private static List<LoadResult.AgentRow> withLateness(List<LoadResult.AgentRow> rows, Overlap overlap) {
        return rows.stream().map(r -> new LoadResult.AgentRow(r.agent(), r.host(), r.clockOffsetMs(), r.outcome(),
                r.reason(), r.all(), r.histograms(), overlap.lateMs().get(r.agent()))).toList();
    }

    private static LoadResult.ScheduleStats schedule(List<Part> parts, Tally whole) {
        long due = 0;
        long started = 0;
        long unstarted = 0;
        long late = 0;
        long abandoned = 0;
        for (Part part : parts) {
            LoadResult.ScheduleStats s = part.parts().schedule();
            if (s != null) {
                due += s.due();
                started += s.started();
                unstarted += s.unstarted();
                late += s.late();
                abandoned += s.abandoned();
            }
        }
        return new LoadResult.ScheduleStats(due, started, unstarted, late, abandoned, LoadResult.LoadLatency.of(whole.lag));
    }
}
