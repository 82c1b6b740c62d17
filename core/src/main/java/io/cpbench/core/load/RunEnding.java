package io.cpbench.core.load;

import io.cpbench.core.status.Status;


import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the end of one run of a {@link LoadEngine} makes of what was measured: each stage's numbers and the whole's,
 * the open loop's schedule, the invariants and thresholds judged, the histograms, how the run ended and why
 * ({@link Status}), and the parts that add up with other load generators' ({@link LoadParts}).
 */
final class RunEnding {

    /**
     * @param result the run's result
     * @param parts  what it measured per stage, in a form that merges with other generators'
     */
    record Ended(LoadResult result, LoadParts parts) {
    }

    private final LoadSpec spec;
    private final LoadSpec.Bounds bounds;
    private final OpType[] used;
    private final Recording recording;
    private final RunState state;
    private final LoadOps ops;

    RunEnding(LoadSpec spec, OpType[] used, Recording recording, RunState state, LoadOps ops) {
        this.spec = spec;
        this.bounds = spec.bounds();
        this.used = used;
        this.recording = recording;
        this.state = state;
        this.ops = ops;
    }

    /**
     * @param lockLogs  every worker's lock holds, for the lock invariant
     * @param origin    the lock logs' time base
     * @param startedAt when the run began, wall clock
     */
    Ended end(Sampling.Measured measured, List<LockLog> lockLogs, long origin, Instant startedAt) {
        Profile profile = spec.profile();
        Tally[] stages = measured.stages();
        long endNanos = measured.endNanos();
        long measureStart = state.measureStart;
        List<LoadResult.StageStats> stageStats = new ArrayList<>();
        Tally whole = new Tally(used, !spec.open());
        for (int s = 0; s < stages.length; s++) {
            stageStats.add(stages[s].stats(s + 1, s == 0 ? profile.startLevel() : profile.stages().get(s - 1).target(),
                    profile.stages().get(s).target(), spec.open()));
            whole.add(stages[s]);
        }
        whole.nanos = endNanos - measureStart;
        LoadResult.StageStats total = whole.stats(0, profile.startLevel(), profile.stages().get(stages.length - 1).target(),
                spec.open());
        LoadResult.ScheduleStats schedule = null;
        if (spec.open()) {
            long due = state.stopReason != null ? profile.dueBy(Math.min(endNanos, state.measureEnd) - measureStart)
                    : (long) Math.ceil(profile.totalOps());
            schedule = new LoadResult.ScheduleStats(due, measured.started(), Math.max(0, due - measured.started()),
                    recording.late.sum(), measured.abandoned(), LoadResult.LoadLatency.of(whole.lag));
        }
        List<LoadResult.InvariantResult> invariants = new ArrayList<>(ops.checkCounters(Duration.ofSeconds(10)));
        if (spec.mix().containsKey(OpType.LOCK)) {
            invariants.add(Invariants.locks(lockLogs, ops::objectName, spec.objects(), origin));
        }
        List<LoadResult.ThresholdResult> thresholds = Threshold.judgeAll(spec.thresholds(), total, stageStats);
        Map<String, String> histograms = whole.encodedLatencies();
        List<LoadParts.Stage> stageParts = new ArrayList<>();
        for (Tally stage : stages) {
            stageParts.add(LoadParts.of(stage, !spec.open()));
        }
        LoadParts parts = new LoadParts(stageParts, schedule, ChronoUnit.MICROS.between(Instant.EPOCH, startedAt),
                (Math.min(endNanos, state.measureEnd) - measureStart) / 1e9, measured.timeline());
        Ending ending = ending(measured.abandoned());
        LoadResult result = LoadResultBuilder.builder().outcome(ending.outcome()).reason(ending.reason())
                .spec(spec.describe()).startedAt(startedAt.toString()).seconds((endNanos - measureStart) / 1e9)
                .stages(stageStats).total(total).schedule(schedule).thresholds(thresholds).invariants(invariants)
                .histograms(histograms).warmupOps(bounds == null ? null : state.warmupDone.sum()).caveats(new LoadResult.Caveats(List.of(), recording.firstError())).build();
        return new Ended(result, parts);
    }

    private record Ending(Status outcome, String reason) {
    }

    /** How the run ended and why: failed, time-boxed, aborted, interrupted or completed, in that order of precedence. */
    private Ending ending(long abandoned) {
        Status outcome;
        String reason;
        if (state.failure() != null) {
            outcome = Status.FAIL;
            reason = state.failure();
        } else if (state.timeboxHit) {
            outcome = Status.TIMEBOXED;
            reason = abandoned > 0 ? "ops still in flight " + spec.drain().toMillis() / 1000.0
                    + " s after the time box of " + bounds.timebox().toSeconds() + " s were abandoned"
                    : "time box of " + bounds.timebox().toSeconds() + " s reached";
        } else if (state.aborted) {
            outcome = Status.ABORTED;
            reason = state.stopReason;
        } else if (state.stopReason != null) {
            outcome = Status.INCOMPLETE;
            reason = abandoned > 0 ? state.stopReason + "; ops in flight were abandoned" : state.stopReason;
        } else {
            outcome = Status.OK;
            reason = abandoned > 0 ? String.format(Locale.ROOT, "%,d op%s still in flight %s after the end were"
                    + " abandoned (outcome unknown)", abandoned, abandoned == 1 ? "" : "s", Durations.format(spec.drain())) : null;
        }
        if (recording.clamped.sum() > 0) {
            reason = (reason == null ? "" : reason + "; ") + recording.clamped.sum() + " latencies over an hour recorded as one hour";
        }
        return new Ending(outcome, reason);
    }
}
