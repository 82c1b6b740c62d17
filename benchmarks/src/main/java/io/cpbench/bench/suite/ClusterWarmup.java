package io.cpbench.bench.suite;

import io.cpbench.core.load.LoadSpecBuilder;
import io.cpbench.bench.scenario.Network;
import io.cpbench.bench.scenario.Routing;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.core.load.Durations;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.OpType;
import io.cpbench.core.load.Stage;
import io.cpbench.core.load.SteadyState;
import io.cpbench.core.status.Status;
import io.cpbench.topology.Topology;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The one cluster warm-up of every run kind that measures a cluster (run, matrix, the release axis, jmh,
 * emulator-cost, load, sweep, chaos), and how long it runs: untimed ops through one smart client, closed loop, so
 * that members JIT-compile their CP paths here rather than in the first measured run (without it the first scenario
 * of a fresh cluster runs on cold members and loses to whatever runs after it). It runs until its op/s, second by
 * second, has stopped rising ({@link SteadyState}): a fixed length fits no machine (on a 2-core one a fresh cluster
 * climbs from under 200 op/s to about 900 in 10-15 s), and its length is only the most it may take. A scenario run warms up with the
 * seed's op ({@link #seedOp}), a load, sweep or chaos run with its own mix. {@link #run} does it.
 *
 * <p>Its length is a duration, or (the deprecated spelling of run, matrix, jmh and emulator-cost, which used to count
 * ops) a number of ops. Exactly one of the two is set; {@link #NONE} is no warm-up.
 *
 * @param length how long it runs, or null when {@code ops} bounds it
 * @param ops    how many ops it runs when {@code length} is null
 */
public record ClusterWarmup(Duration length, long ops) {

    public static final ClusterWarmup NONE = new ClusterWarmup(Duration.ZERO, 0);
    /** More threads than this add contention, not warmth. */
    public static final int MAX_THREADS = 16;
    /** The most a warm-up that counts ops may take: a cluster too slow for that is too slow to measure. */
    static final Duration OPS_TIMEBOX = Duration.ofMinutes(10);
    /** Ops failing back to back before a warm-up that counts ops ends (as a scenario run's). */
    private static final int MAX_CONSECUTIVE_ERRORS = 100;
    private static final Duration GRACE = Duration.ofSeconds(30);
    /** The client the warm-up runs through: smart routing, network (a). */
    private static final Scenario THROUGH = Scenario.of("cluster-warm-up", Network.PLAIN, Routing.SMART);

    public ClusterWarmup {
        if (length == null ? ops < 0 : length.isNegative() || ops != 0) {
            throw new IllegalArgumentException("--cluster-warmup must be 0 (none) or more, was "
                    + (length == null ? ops + " ops" : Durations.format(length)));
        }
    }

    public static ClusterWarmup of(Duration length) {
        return new ClusterWarmup(length, 0);
    }

    public static ClusterWarmup ofOps(long ops) {
        return ops == 0 ? NONE : new ClusterWarmup(null, ops);
    }

    public boolean none() {
        return length != null ? length.isZero() : ops == 0;
    }

    /** As a user wrote it and as {@link #parse} reads it back: {@code 10s}, or {@code 5000ops}. */
    @Override
    public String toString() {
        return length != null ? Durations.format(length) : ops + "ops";
    }

    /** {@code 10s}-style durations, and {@code 5000ops} for an op count. */
    public static ClusterWarmup parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.endsWith("ops")) {
            try {
                return ofOps(Long.parseLong(t.substring(0, t.length() - 3).strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--cluster-warmup: not a duration or op count: " + text);
            }
        }
        return of(Durations.parse(t));
    }

    /** For progress lines: "10 s" or "5,000 ops". */
    public String human() {
        return length != null ? Durations.format(length) : String.format(Locale.ROOT, "%,d ops", ops);
    }

    /** The seed's op (read an IAtomicReference, compare-and-set it) on {@code threads} threads: a scenario run's base. */
    public static LoadSpec seedOp(int threads) {
        return LoadSpec.builder().op(OpType.CAS, 1).threads(threads).duration(Duration.ofSeconds(1)).build();
    }

    /**
     * The warm-up's spec for a run described by {@code base}: its ops and objects, closed loop, one client with up
     * to {@link #MAX_THREADS} threads, no thresholds. A duration is the most it runs, an interval a second, until
     * {@link #run} finds it steady; a count of ops warms up on its first half and measures its second.
     */
    public LoadSpec spec(LoadSpec base) {
        int threads = Math.min(MAX_THREADS, base.workers());
        LoadSpecBuilder b = base.toBuilder().clients(1).threads(threads).stages((List<Stage>) null).open(false)
                .start(threads).clearThresholds().abortOnFail(false);
        if (length != null) {
            return b.bounds(null).warmup(Duration.ZERO).duration(length).interval(Duration.ofSeconds(1)).build();
        }
        return b.bounds(new LoadSpec.Bounds(ops - ops / 2, Math.max(1, ops / 2), OPS_TIMEBOX, MAX_CONSECUTIVE_ERRORS))
                .drain(GRACE).build();
    }

    /**
     * Runs this warm-up on {@code topology} with {@code base}'s ops ({@link #spec}), printing a line before and what it
     * saw after when {@code console} is not null. A duration runs until op/s is steady ({@link SteadyState#DEFAULT}),
     * at most that long. {@code running} is told the engine while it runs (and null after), so that Ctrl-C can stop
     * it; {@code listener} (or null) hears its intervals.
     *
     * @return the op/s it ended at, a rough guide to how long what follows will take; 0 for none
     * @throws IllegalStateException when a warm-up that counts ops does not finish within {@link #OPS_TIMEBOX}
     */
    public double run(PrintStream console, LoadSpec base, Topology topology, SuiteOptions options,
                      LoadEngine.Listener listener, Consumer<LoadEngine> running) {
        if (none()) {
            return 0;
        }
        LoadSpec warm = spec(base);
        if (console != null) {
            console.printf(Locale.ROOT, "warming the cluster up %s: untimed ops through a smart client, %d thread%s ...%n",
                    length != null ? "until its op/s stops rising, at most " + human() : "for " + human(), warm.workers(),
                    warm.workers() == 1 ? "" : "s");
        }
        LoadResult result;
        Steadiness watch = length == null ? null : new Steadiness(SteadyState.DEFAULT);
        try (ScenarioSession session = ScenarioSession.open(THROUGH, topology, options, null, 1)) {
            LoadEngine engine = new LoadEngine(warm, session.clients(), null, LoadEngine.Listener.both(listener, watch));
            if (watch != null) {
                watch.engine = engine;
            }
            running.accept(engine);
            try {
                result = engine.run();
            } finally {
                running.accept(null);
            }
        }
        if (result.outcome() == Status.TIMEBOXED) {
            throw new IllegalStateException("the cluster warm-up did not finish " + human() + " in "
                    + OPS_TIMEBOX.toMinutes() + " min; the cluster is too slow to measure (lower --cluster-warmup?)");
        }
        if (watch == null || watch.rates.isEmpty()) {
            double rate = result.total().all().opsPerSecond();
            if (console != null) {
                console.printf(Locale.ROOT, "warm-up ran at %,.0f op/s%n", rate);
            }
            return rate;
        }
        if (console != null) {
            console.println(watch.summary(length));
        }
        return watch.last.median() > 0 ? watch.last.median() : watch.rates.get(watch.rates.size() - 1);
    }

    /** Hears the warm-up's intervals and stops it once they are steady. */
    static final class Steadiness implements LoadEngine.Listener {

        private final SteadyState rule;
        final List<Double> rates = new java.util.concurrent.CopyOnWriteArrayList<>();
        volatile LoadEngine engine;
        volatile SteadyState.Verdict last = SteadyState.Verdict.NONE;

        Steadiness(SteadyState rule) {
            this.rule = rule;
        }

        @Override
        public void interval(LoadEngine.IntervalReport report) {
            if (last.steady()) {
                return; // what comes after the stop is the drain's part of a second, not the cluster's op/s
            }
            rates.add(report.opsPerSecond());
            last = rule.judge(rates.stream().mapToDouble(Double::doubleValue).toArray());
            LoadEngine e = engine;
            if (last.steady() && e != null && !e.stopped()) {
                e.stop();
            }
        }

        /** Which of the rule's checks the last intervals failed, in words. */
        private String unsettled() {
            if (last.spreadSeen() > rule.spread()) {
                return String.format(Locale.ROOT, "spread over %.0f %%", 100 * last.spreadSeen());
            }
            if (last.riseSeen() > rule.rise()) {
                return String.format(Locale.ROOT, "still rising %+.1f %%", 100 * last.riseSeen());
            }
            return String.format(Locale.ROOT, "%+.0f %% faster than the %d s before", 100 * last.stepSeen(), rule.window());
        }

        private String stepText() {
            return Double.isNaN(last.stepSeen()) ? "" : String.format(Locale.ROOT, ", %+.0f %% on the %d s before", 100 * last.stepSeen(),
                    rule.window());
        }

        /** What it saw: the first and last op/s, how long, and whether it settled; then op/s each second. */
        String summary(Duration most) {
            int n = rates.size();
            String head = last.steady()
                    ? String.format(Locale.ROOT, "cluster warm-up: steady after %d s: %,.0f op/s in its first second, %,.0f"
                    + " in its last %d (spread %.0f %% of their median, rising %+.1f %% across them%s)", n, rates.get(0),
                    last.median(), rule.window(), 100 * last.spreadSeen(), 100 * last.riseSeen(), stepText())
                    : String.format(Locale.ROOT, "cluster warm-up: did not settle within %s (--cluster-warmup): %,.0f op/s in"
                    + " its first second, %,.0f at the end%s", Durations.format(most), rates.get(0), rates.get(n - 1),
                    Double.isNaN(last.riseSeen()) ? "" : String.format(Locale.ROOT, ", its last %d s %s", rule.window(),
                    unsettled()));
            StringBuilder each = new StringBuilder("    op/s each second:");
            rates.stream().skip(Math.max(0, n - 60)).forEach(r -> each.append(String.format(Locale.ROOT, " %,.0f", r)));
            return head + System.lineSeparator() + each;
        }
    }
}
