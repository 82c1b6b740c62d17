package io.cpbench.bench.cli;

import picocli.CommandLine;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads durations as people write them: {@code 90} (seconds), {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)?");

    @Override
    public Duration convert(String value) {
        Matcher m = FORM.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration; write it like 30s, 500ms, 5m or 1h");
        }
        double amount = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double millis = switch (unit) {
            case "ms" -> amount;
            case "m" -> amount * 60_000;
            case "h" -> amount * 3_600_000;
            default -> amount * 1000;
        };
        return Duration.ofMillis(Math.round(millis));
    }
}
