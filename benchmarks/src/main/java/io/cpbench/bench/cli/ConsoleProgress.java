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

    ConsoleProgress(PrintStream out, Duration every, int rounds) {
        this.out = out;
        this.everyNanos = every.toNanos();
        this.rounds = rounds;
    }

    @Override
    public synchronized void report(Scenario scenario, int round, Progress p) {
        long now = System.nanoTime();
        if (everyNanos <= 0 || now - lastPrinted < everyNanos) {
            return;
        }
        lastPrinted = now;
        String done = p.target() > 0
                ? String.format(Locale.ROOT, "%,d/%,d (%.0f%%)", p.done(), p.target(), 100.0 * p.done() / p.target())
                : String.format(Locale.ROOT, "%,d", p.done());
        String eta = "";
        if (p.target() > 0 && p.done() > 0) {
            long remainingSeconds = (long) (p.elapsed().toMillis() / 1000.0 * (p.target() - p.done()) / p.done());
            eta = "  ETA " + human(remainingSeconds);
        }
        out.printf(Locale.ROOT, "    [round %d/%d] %s %-7s %s  %,.0f op/s  p50 %,d µs  errors %d  %s elapsed%s%n",
                round, rounds, scenario.name(), p.measuring() ? "measure" : "warm-up", done, p.intervalOpsPerSecond(),
                p.intervalP50Micros(), p.errors(), human(p.elapsed().toSeconds()), eta);
    }

    static String human(long seconds) {
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return (seconds / 60) + "m" + String.format("%02d", seconds % 60) + "s";
        }
        return (seconds / 3600) + "h" + String.format("%02d", (seconds % 3600) / 60) + "m";
    }
}
