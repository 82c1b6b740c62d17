package io.cpbench.core.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The sampling thread of one run of a {@link LoadEngine}. During warm-up it takes the numbers once an interval and
 * throws them away (so the sampling code is compiled before the first measured interval); while measuring it takes
 * them once an interval and at each stage boundary (so no interval spans two stages), writes them ({@link LoadOutput}),
 * tells the listener, judges abort-on-fail thresholds on the numbers so far, and after the schedule gives the ops in
 * flight their drain; at the end it counts what is still in flight as abandoned, at its latency so far.
 */
final class Sampling {

    /**
     * What the measured phase recorded.
     *
     * @param stages    per stage of the profile, every interval's numbers added up
     * @param timeline  successful ops so far, per op, at each sample
     * @param endNanos  when the last numbers were taken
     * @param started   measured ops started (unbounded loops; 0 for bounded ones, whose timed path counts none)
     * @param abandoned ops still in flight at the end, counted at their latency so far
     */
    record Measured(Tally[] stages, List<LoadParts.Sample> timeline, long endNanos, long started, long abandoned) {
    }

    private final LoadSpec spec;
    private final LoadSpec.Bounds bounds;
    private final OpType[] used;
    private final Recording recording;
    private final RunState state;
    private final LoadEngine.Listener listener;

    Sampling(LoadSpec spec, OpType[] used, Recording recording, RunState state,
             LoadEngine.Listener listener) {
        this.spec = spec;
        this.bounds = spec.bounds();
        this.used = used;
        this.recording = recording;
        this.state = state;
        this.listener = listener;
    }

    /** Says how the run warms up, if it does. */
    void announceWarmup() {
        if (bounds != null && bounds.warmupOps() > 0) {
            message(String.format(Locale.ROOT, "warming up: %,d ops, closed loop, %d worker%s", bounds.warmupOps(),
                    spec.workers(), spec.workers() == 1 ? "" : "s"));
        } else if (!spec.warmup().isZero()) {
            Profile warmup = state.warmupProfile;
            message(warmup != null
                    ? String.format(Locale.ROOT, "warming up for %s: open loop at %,.0f op/s", Durations.format(spec.warmup()),
                    warmup.startLevel())
                    : String.format(Locale.ROOT, "warming up for %s: closed loop, %d worker%s", Durations.format(spec.warmup()),
                    spec.workers(), spec.workers() == 1 ? "" : "s"));
        }
    }

    /** Waits for every worker to be warm (at most the drain and a second past {@code warmupEnd}), sampling as it goes. */
    void warmUp(long warmupEnd) throws InterruptedException {
        // Takes the numbers once an interval during warm-up too, and throws them away: the sampling code is then
        // compiled before the first measured interval instead of competing with the workers in it.
        long warmupDeadline = warmupEnd + spec.drain().toNanos() + Duration.ofSeconds(1).toNanos();
        boolean warm = false;
        Tally discarded = new Tally(used, !spec.open());
        long lastSample = state.clock.getAsLong();
        long warmOk = 0;
        long target = bounds == null ? 0 : bounds.warmupOps();
        while (!warm && state.clock.getAsLong() < warmupDeadline) {
            // real time between samples; the deadline follows the engine's clock
            warm = state.warmedUp.await(Math.min(spec.interval().toNanos(), Math.max(1, warmupDeadline - state.clock.getAsLong())),
                    TimeUnit.NANOSECONDS);
            recording.take(discarded.reset());
            long now = state.clock.getAsLong();
            discarded.nanos = now - lastSample;
            lastSample = now;
            warmOk += discarded.okOps();
            LoadResult.OpStats all = discarded.stats(1, 0, 0, spec.open()).all();
            if (listener != null && !warm) {
                listener.warmingUp(warmOk, target,
                        (now - state.warmupStart) / 1e9, all.opsPerSecond(), all.latency().p50());
            }
        }
        if (!warm) {
            message("warm-up: some ops were still in flight " + Durations.format(spec.drain())
                    + " after it ended; measuring anyway");
        }
    }

    /**
     * Opens the measured phase and samples it until every worker has ended or the drain is over; then counts what
     * is still in flight, after {@code inFlightGrace}, as abandoned.
     */
    Measured measure(LoadOutput output, Duration inFlightGrace) {
        Profile profile = spec.profile();
        Tally[] stages = new Tally[profile.stages().size()];
        for (int s = 0; s < stages.length; s++) {
            stages[s] = new Tally(used, !spec.open());
        }
        recording.reset();
        Progress p = new Progress(stages, output, new long[used.length]);
        long startedBefore = state.started.sum();
        open(profile);
        p.last = state.measureStart;
        boolean draining = false;
        Tally interval = new Tally(used, !spec.open());
        long lastReal = System.nanoTime();
        while (true) {
            // An interval of real time, or less up to the next stage boundary on the engine's clock.
            long wait = Math.min(spec.interval().toNanos() - (System.nanoTime() - lastReal),
                    nextSample(p.last, profile) - state.clock.getAsLong());
            boolean allDone = state.awaitDone(wait);
            lastReal = System.nanoTime();
            long now = state.clock.getAsLong();
            take(p, interval, now, profile);
            if (spec.abortOnFail() && !state.stopRequested) {
                checkEarly(stages, profile, now);
            }
            if (allDone || now >= state.drainDeadline
                    || (state.stopRequested && now - state.stopRequestedAtNanos > spec.drain().toNanos())) {
                break;
            }
            if (!draining && now >= state.measureEnd && !state.stopRequested && inFlight() > 0) {
                draining = true;
                message(String.format(Locale.ROOT, "schedule done; finishing the %,d op%s in flight%s (at most %s)",
                        inFlight(), inFlight() == 1 ? "" : "s", spec.open() ? " or already due" : "",
                        Durations.format(spec.drain())));
            }
        }
        if (bounds != null && inFlight() > 0 && !state.stopRequested && state.clock.getAsLong() >= state.timeboxDeadline) {
            state.timeboxHit = true; // ops stuck past the time box and its grace, on every worker
        }
        state.stopRequested = true; // no new ops; those in flight get a moment to end, then are abandoned
        // (bounded: the grace was given above)
        state.awaitDone(bounds != null ? 0 : inFlightGrace.toNanos());
        abandonInFlight(p, interval.reset(), profile);
        return new Measured(stages, p.timeline, p.last, state.started.sum() - startedBefore, inFlight());
    }

    /** Where the measured phase is: its stages so far, the output, the timeline, the last sample's time. */
    private static final class Progress {
        final Tally[] stages;
        final LoadOutput output;
        final long[] okSoFar;
        final List<LoadParts.Sample> timeline = new ArrayList<>();
        long last;
        long done;

        Progress(Tally[] stages, LoadOutput output, long[] okSoFar) {
            this.stages = stages;
            this.output = output;
            this.okSoFar = okSoFar;
        }
    }

    /** Sets the measured phase's instants and lets the workers in. */
    private void open(Profile profile) {
        if (listener != null) {
            listener.measuringStarts();
        }
        state.measureStart = state.clock.getAsLong();
        // An op count runs until its ops are done or the time box ends it, however long the spec's schedule.
        state.measureEnd = bounds != null && bounds.ops() > 0 ? state.timeboxDeadline
                : Math.min(state.measureStart + profile.totalNanos(), state.timeboxDeadline);
        state.drainDeadline = state.measureEnd + spec.drain().toNanos();
        state.measureGate.countDown();
        if (!state.stopRequested) {
            message("measuring: " + spec.summary());
        }
    }

    /** Takes the numbers since the last sample into {@code interval}: into their stage, the output and the listener. */
    private void take(Progress p, Tally interval, long now, Profile profile) {
        long start = state.measureStart;
        recording.take(interval.reset());
        interval.nanos = now - p.last;
        p.done += interval.okOps() + interval.allErrors();
        sample(p.timeline, p.okSoFar, interval, (now - start) / 1e9);
        int stage = Math.min(profile.stageAt(p.last - start), p.stages.length - 1);
        p.stages[stage].add(interval);
        p.output.write(interval, (now - start) / 1e9, stage + 1, profile.levelAt(now - start));
        boolean worthALine = now - p.last >= spec.interval().toNanos() / 2 || interval.okOps() + interval.allErrors() > 0;
        if (listener != null && worthALine) {
            LoadResult.StageStats st = interval.stats(stage + 1, 0, 0, spec.open());
            listener.interval(LoadEngineIntervalReportBuilder.builder().elapsed((now - start) / 1e9)
                    .stage(stage + 1).stages(p.stages.length).open(spec.open())
                    .level(profile.levelAt(Math.min(now, state.measureEnd) - start))
                    .opsPerSecond(st.all().opsPerSecond()).errors(st.all().errors())
                    .latency(st.all().latency()).lag(st.lag()).inFlight(inFlight()).done(p.done).build());
        }
        p.last = now;
    }

    /**
     * Ops still in flight are abandoned: each counts at its latency so far, a lower bound, never dropped. Claimed
     * before the last take, so one that ends meanwhile is counted once ({@link Recording}).
     */
    private void abandonInFlight(Progress p, Tally tail, Profile profile) {
        long tailEnd = state.clock.getAsLong();
        long start = state.measureStart;
        recording.abandon((op, since) -> tail.censor(op, Recording.clampMicros(tailEnd - since)));
        recording.take(tail); // ops that ended since the last interval
        if (tail.okOps() + tail.allErrors() + tail.censoredOps() > 0) {
            tail.nanos = tailEnd - p.last;
            p.stages[p.stages.length - 1].add(tail);
            sample(p.timeline, p.okSoFar, tail, (tailEnd - start) / 1e9);
            p.output.write(tail, (tailEnd - start) / 1e9, p.stages.length, profile.levelAt(tailEnd - start));
            p.last = tailEnd;
        }
    }

    private long inFlight() {
        return state.inFlight(bounds != null);
    }

    /** The next time to take numbers: an interval on, but never past a stage boundary or the end. */
    private long nextSample(long last, Profile profile) {
        long next = last + spec.interval().toNanos();
        long elapsed = last - state.measureStart;
        if (elapsed < profile.totalNanos()) {
            int stage = profile.stageAt(elapsed);
            next = Math.min(next, state.measureStart + profile.stageStartNanos(stage + 1));
        }
        return next;
    }

    /** {@code abortOnFail}: upper-bound thresholds judged on the numbers so far. */
    private void checkEarly(Tally[] stages, Profile profile, long now) {
        int current = profile.stageAt(now - state.measureStart);
        Tally whole = null;
        for (Threshold t : spec.thresholds()) {
            if (!t.canAbortEarly() || (t.stage() > 0 && t.stage() - 1 > current)) {
                continue;
            }
            LoadResult.StageStats stats;
            if (t.stage() > 0) {
                stats = stages[t.stage() - 1].stats(t.stage(), 0, 0, spec.open());
            } else {
                if (whole == null) {
                    whole = new Tally(used, !spec.open());
                    for (Tally s : stages) {
                        whole.add(s);
                    }
                    whole.nanos = now - state.measureStart;
                }
                stats = whole.stats(0, 0, 0, spec.open());
            }
            LoadResult.ThresholdResult verdict = t.judge(stats);
            if (!verdict.passed() && !verdict.actual().equals("no ops measured")) {
                state.aborted = true;
                state.stop(String.format(Locale.ROOT, "threshold '%s' crossed after %.0f s (%s); aborted", t.text(),
                        (now - state.measureStart) / 1e9, verdict.actual()));
                message("aborting: " + state.stopReason);
                return;
            }
        }
    }

    void message(String line) {
        if (listener != null) {
            listener.message(line);
        }
    }

    /** Adds what {@code interval} ended without error to {@code soFar}, and the sums, at {@code at}, to the timeline. */
    private static void sample(List<LoadParts.Sample> timeline, long[] soFar, Tally interval, double at) {
        List<Long> ok = new ArrayList<>(soFar.length);
        for (int i = 0; i < soFar.length; i++) {
            soFar[i] += interval.ok(i);
            ok.add(soFar[i]);
        }
        timeline.add(new LoadParts.Sample(at, ok));
    }
}
