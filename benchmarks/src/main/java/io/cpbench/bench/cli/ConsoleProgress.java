package io.cpbench.bench.cli;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.suite.ScenarioRunner;
import io.cpbench.core.run.Progress;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/** Prints a progress line for the running scenario every few seconds, to standard error. */
final class ConsoleProgress implements ScenarioRunner.ProgressSink {

    private final PrintStream out;
    private final long everyNanos;
    private final int rounds;
    private long lastPrinted;

    /** How long each scenario measures with --duration, or null when it counts ops. */
    private final Duration measureFor;

    /** The scenarios' time box: no ETA goes past it. */
    private final java.util.function.Function<Scenario, Duration> timebox;

    ConsoleProgress(PrintStream out, Duration every, int rounds, Duration measureFor,
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
                eta = seconds <= boxLeft ? "  ETA " + human(seconds) : "  ETA " + human(boxLeft) + " (time box)";
            }
        } else if (p.measuring() && measureFor != null) {
            double fraction = Math.min(1, (double) p.elapsed().toMillis() / Math.max(1, measureFor.toMillis()));
            done = String.format(Locale.ROOT, "%,d ops, %s of %s (%.0f%%)", p.done(), human(p.elapsed().toSeconds()),
                    human(measureFor.toSeconds()), 100 * fraction);
            eta = "  ETA " + human(measureFor.minus(p.elapsed()).toSeconds());
        } else {
            done = String.format(Locale.ROOT, "%,d ops", p.done());
        }
        String where = round == 0 ? (p.measuring() ? "[cluster warm-up, 2nd half]" : "[cluster warm-up, 1st half]") : String.format(Locale.ROOT, "[round %d/%d] %s %s", round, rounds,
                scenario.name(), p.measuring() ? "measure" : "warm-up");
        out.printf(Locale.ROOT, "    %s %s  %,.0f op/s  p50 %,d µs  errors %d  %s elapsed%s%n", where, done,
                p.intervalOpsPerSecond(), p.intervalP50Micros(), p.errors(), human(p.elapsed().toSeconds()), eta);
    }

    /** A duration as people write it: 250ms, 1.5s, 45s, 2m05s. */
    static String human(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        if (ms < 60_000 && ms % 1000 != 0) {
            return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
        }
        return human(d.toSeconds());
    }

    static String human(long seconds) {
        if (seconds < 0) {
            return "0s";
        }
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return (seconds / 60) + "m" + String.format("%02d", seconds % 60) + "s";
        }
        return (seconds / 3600) + "h" + String.format("%02d", (seconds % 3600) / 60) + "m";
    }
}
