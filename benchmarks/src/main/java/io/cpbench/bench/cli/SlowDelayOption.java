package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.core.load.Durations;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.time.Duration;

/**
 * {@code --slow-delay TIME}: the slow member's one-way delay in network (b), declared once for every command that
 * starts one (run, matrix, load). Its old spelling {@code --delay} still works, hidden, with a deprecation line.
 */
final class SlowDelayOption {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    // an initial value, not a defaultValue: picocli applies a defaultValue after the old spelling's setter
    private Duration value = Duration.ofMillis(10);

    @Option(names = "--slow-delay", paramLabel = "TIME", converter = DurationConverter.class,
            description = "One-way delay added to everything the slow member sends in network (b), 1ms-10s"
                    + " (default: 10ms).")
    void set(Duration delay) {
        value = delay;
    }

    @Option(names = "--delay", paramLabel = "TIME", converter = DurationConverter.class, hidden = true)
    void oldSpelling(Duration delay) {
        Deprecated.spelling(mixee.name(), "--delay", "--slow-delay (the slow member's one-way delay)");
        value = delay;
    }

    /** @throws IllegalArgumentException (one line) outside 1ms-10s */
    Duration value() {
        if (value.isZero() || value.isNegative() || value.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IllegalArgumentException("--slow-delay must be 1ms-10s, was " + Durations.human(value));
        }
        return value;
    }
}
