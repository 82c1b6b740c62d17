package io.cpbench.core.load;

import io.cpbench.core.result.RunResult;
import io.cpbench.core.run.Outcome;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One load's result from what several generators measured of it: per stage and op, their histograms added
 * ({@code Histogram.add}, exact), their ops, errors and error types summed; a stage lasts as long as its longest
 * part. Thresholds are judged on the merged numbers; invariants are each generator's (each checked the objects it
 * alone used). The outcome is the worst of the parts', with each reason named by its generator.
 */
public final class LoadMerge {

    private LoadMerge() {
    }

    /**
     * What one generator returned.
     *
     * @param name   the generator, as its row and reasons name it
     * @param result its own result
     * @param parts  its numbers in a form that adds up ({@link LoadEngine#parts()})
     */
    public record Part(String name, LoadResult result, LoadParts parts) {
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
        LoadResult.ScheduleStats schedule = closed ? null : schedule(parts, whole);
        List<LoadResult.InvariantResult> invariants = new ArrayList<>();
        for (Part part : parts) {
            part.result().invariants().forEach(i -> invariants.add(new LoadResult.InvariantResult(
                    part.name() + ": " + i.name(), i.holds(), i.evidence())));
        }
        List<LoadResult.ThresholdResult> thresholds = new ArrayList<>();
        for (Threshold t : spec.thresholds()) {
            thresholds.add(t.judge(t.stage() == 0 ? total : stageStats.get(t.stage() - 1)));
        }
        Map<String, String> histograms = new LinkedHashMap<>();
        for (int i = 0; i < used.length; i++) {
            histograms.put(used[i].key(), RunResult.encode(whole.latency[i]));
        }
        Outcome outcome = Outcome.COMPLETED;
        List<String> reasons = new ArrayList<>();
        String startedAt = null;
        for (Part part : parts) {
            outcome = worse(outcome, part.result().outcome());
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
                .build();
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

    /** The worse of two outcomes: FAILED, then ABORTED, INTERRUPTED, TIMEBOXED, COMPLETED. */
    public static Outcome worse(Outcome a, Outcome b) {
        return rank(b) > rank(a) ? b : a;
    }

    private static int rank(Outcome o) {
        return switch (o) {
            case COMPLETED -> 0;
            case TIMEBOXED -> 1;
            case INTERRUPTED -> 2;
            case ABORTED -> 3;
            case FAILED -> 4;
        };
    }
}
