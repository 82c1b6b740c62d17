package io.cpbench.bench.run;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.suite.ScenarioRunner;
import io.cpbench.core.load.Durations;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadSpec;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/** Prints a progress line for the running scenario every few seconds, to standard error. */
public final class ConsoleProgress implements ScenarioRunner.ProgressSink {

    private final PrintStream out;
    private final long everyNanos;
    private final int rounds;
    private long lastPrinted;

    public ConsoleProgress(PrintStream out, Duration every, int rounds) {
        this.out = out;
        this.everyNanos = every.toNanos();
        this.rounds = rounds;
    }

    @Override
    public LoadEngine.Listener listener(Scenario scenario, int round, LoadSpec spec) {
        LoadSpec.Bounds bounds = spec.bounds();
        long target = bounds == null ? 0 : bounds.ops();
        // how long it measures when it does not count ops; no ETA goes past its time box
        Duration measureFor = bounds == null ? Duration.ofNanos(spec.profile().totalNanos()) : spec.measuredFor();
        Duration timebox = round == 0 || bounds == null ? null : bounds.timebox();
        return new LoadEngine.Listener() {
            private long errors;

            @Override
            public void warmingUp(long done, long warmupTarget, double elapsedSeconds, double opsPerSecond, long p50Micros) {
                print(new Phase(scenario, round, false, warmupTarget, null, timebox),
                        new Reading(done, seconds(elapsedSeconds), opsPerSecond, p50Micros, 0));
            }

            @Override
            public void interval(LoadEngine.IntervalReport r) {
                errors += r.errors();
                print(new Phase(scenario, round, true, target, measureFor, timebox),
                        new Reading(r.done(), seconds(r.elapsed()), r.opsPerSecond(), r.latency().p50(), errors));
            }
        };
    }

    /**
     * What is running.
     *
     * @param target     ops asked for in this phase, or 0
     * @param measureFor how long the phase lasts when it does not count ops, or null
     * @param timebox    the run's time box, or null
     */
    private record Phase(Scenario scenario, int round, boolean measuring, long target, Duration measureFor,
                         Duration timebox) {
    }

    /** Where it is: ops done, time elapsed, op/s and p50 of the last interval, errors so far in this phase. */
    private record Reading(long doneOps, Duration elapsed, double opsPerSecond, long p50Micros, long errors) {
    }

    private static Duration seconds(double value) {
        return Duration.ofNanos(Math.round(value * 1e9));
    }

    private synchronized void print(Phase phase, Reading reading) {
        Scenario scenario = phase.scenario();
        int round = phase.round();
        boolean measuring = phase.measuring();
        long target = phase.target();
        Duration measureFor = phase.measureFor();
        Duration timebox = phase.timebox();
        long doneOps = reading.doneOps();
        Duration elapsed = reading.elapsed();
        long now = System.nanoTime();
        if (everyNanos <= 0 || now - lastPrinted < everyNanos) {
            return;
        }
        lastPrinted = now;
        String done;
        String eta = "";
        if (target > 0) {
            done = String.format(Locale.ROOT, "%,d/%,d ops (%.0f%%)", doneOps, target, 100.0 * doneOps / target);
            if (doneOps > 0) {
                long seconds = (long) (elapsed.toMillis() / 1000.0 * (target - doneOps) / doneOps);
                long boxLeft = timebox == null ? Long.MAX_VALUE : timebox.minus(elapsed).toSeconds();
                eta = seconds <= boxLeft ? "  ETA " + Durations.human(seconds) : "  ETA " + Durations.human(boxLeft) + " (time box)";
            }
        } else if (round == 0 && measureFor != null) { // the cluster warm-up: until steady, at most this long
            done = String.format(Locale.ROOT, "%,d ops", doneOps);
            eta = "  (until op/s stops rising, at most " + Durations.format(measureFor) + ")";
        } else if (measuring && measureFor != null) {
            double fraction = Math.min(1, (double) elapsed.toMillis() / Math.max(1, measureFor.toMillis()));
            done = String.format(Locale.ROOT, "%,d ops, %s of %s (%.0f%%)", doneOps, Durations.human(elapsed.toSeconds()),
                    Durations.human(measureFor.toSeconds()), 100 * fraction);
            eta = "  ETA " + Durations.human(Math.max(0, measureFor.minus(elapsed).toSeconds()));
        } else {
            done = String.format(Locale.ROOT, "%,d ops", doneOps);
        }
        String where = round == 0 ? (target == 0 ? "[cluster warm-up]" : measuring ? "[cluster warm-up, 2nd half]"
                : "[cluster warm-up, 1st half]")
                : round == io.cpbench.bench.suite.ScenarioRunner.WARMUP_ROUND ? "[warm-up round] " + scenario.name()
                : String.format(Locale.ROOT, "[round %d/%d] %s %s", round, rounds, scenario.name(), measuring ? "measure" : "warm-up");
        out.printf(Locale.ROOT, "    %s %s  %,.0f op/s  p50 %,d µs  errors %d  %s elapsed%s%n", where, done,
                reading.opsPerSecond(), reading.p50Micros(), reading.errors(), Durations.human(elapsed.toSeconds()), eta);
    }
}
