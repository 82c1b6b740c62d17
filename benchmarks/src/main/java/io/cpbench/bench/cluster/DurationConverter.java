package io.cpbench.bench.cluster;

import io.cpbench.core.load.Durations;
import picocli.CommandLine;

import java.time.Duration;

/** Reads durations as people write them ({@link Durations#parse}): {@code 90} (seconds), {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1m30s}, {@code 1h}. */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
