package io.cpbench.bench.run;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.suite.ScenarioRunner;
import io.cpbench.core.load.Durations;
import io.cpbench.core.run.Progress;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/** Prints a progress line for the running scenario every few seconds, to standard error. */
public final class ConsoleProgress implements ScenarioRunner.ProgressSink {

    private final PrintStream out;
    private final long everyNanos;
    private final int rounds;
    private long lastPrinted;

    /** How long each scenario measures with --duration, or null when it counts ops. */
    private final Duration measureFor;

    /** The scenarios' time box: no ETA goes past it. */
    private final java.util.function.Function<Scenario, Duration> timebox;

    public ConsoleProgress(PrintStream out, Duration every, int rounds, Duration measureFor,
                    java.util.function.Function<Scenario, Duration> timebox) {
        this.out = out;
        this.timebox = timebox;
        this.everyNanos = every.toNanos();
        this.rounds = rounds;
        this.measureFor = measureFor;
    }

    @Override
    public synchronized void report(Scenario scenario, int round, Progress p) {
        long now = System.nanoTime();
        if (everyNanos <= 0 || now - lastPrinted < everyNanos) {
            return;
        }
        lastPrinted = now;
        String done;
        String eta = "";
        if (p.target() > 0) {
            done = String.format(Locale.ROOT, "%,d/%,d ops (%.0f%%)", p.done(), p.target(), 100.0 * p.done() / p.target());
            if (p.done() > 0) {
                long seconds = (long) (p.elapsed().toMillis() / 1000.0 * (p.target() - p.done()) / p.done());
                long boxLeft = round == 0 ? Long.MAX_VALUE : timebox.apply(scenario).minus(p.elapsed()).toSeconds();
                eta = seconds <= boxLeft ? "  ETA " + Durations.human(seconds) : "  ETA " + Durations.human(boxLeft) + " (time box)";
            }
        } else if (p.measuring() && measureFor != null) {
            double fraction = Math.min(1, (double) p.elapsed().toMillis() / Math.max(1, measureFor.toMillis()));
            done = String.format(Locale.ROOT, "%,d ops, %s of %s (%.0f%%)", p.done(), Durations.human(p.elapsed().toSeconds()),
                    Durations.human(measureFor.toSeconds()), 100 * fraction);
            eta = "  ETA " + Durations.human(measureFor.minus(p.elapsed()).toSeconds());
        } else {
            done = String.format(Locale.ROOT, "%,d ops", p.done());
        }
        String where = round == 0 ? (p.measuring() ? "[cluster warm-up, 2nd half]" : "[cluster warm-up, 1st half]") : String.format(Locale.ROOT, "[round %d/%d] %s %s", round, rounds,
                scenario.name(), p.measuring() ? "measure" : "warm-up");
        out.printf(Locale.ROOT, "    %s %s  %,.0f op/s  p50 %,d µs  errors %d  %s elapsed%s%n", where, done,
                p.intervalOpsPerSecond(), p.intervalP50Micros(), p.errors(), Durations.human(p.elapsed().toSeconds()), eta);
    }
}
