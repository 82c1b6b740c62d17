package io.cpbench.core.load;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people write them: {@code 90} (seconds), {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, and
 * k6's compound form {@code 1m30s}.
 */
public final class Durations {

    private static final Pattern WHOLE = Pattern.compile("(?:\\d+(?:\\.\\d+)?(?:ms|s|m|h))+|\\d+(?:\\.\\d+)?");
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)?");

    private Durations() {
    }

    /** @throws IllegalArgumentException naming the text, when it is not a duration */
    public static Duration parse(String text) {
        String value = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (!WHOLE.matcher(value).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration; write it like 30s, 500ms, 5m, 1m30s or 1h");
        }
        Matcher m = PART.matcher(value);
        double millis = 0;
        while (m.find()) {
            double amount = Double.parseDouble(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2);
            millis += switch (unit) {
                case "ms" -> amount;
                case "m" -> amount * 60_000;
                case "h" -> amount * 3_600_000;
                default -> amount * 1000;
            };
        }
        return Duration.ofMillis(Math.round(millis));
    }

    /** {@code 1m30s}, {@code 45s}, {@code 250ms}: the shortest form that {@link #parse} reads back. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 1000 != 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        if (s >= 60 && s % 60 == 0) {
            return s / 60 + "m";
        }
        return s >= 60 ? s / 60 + "m" + s % 60 + "s" : s + "s";
    }

    /**
     * A duration for people reading progress: "450ms", "2.5s", "42s", "3m05s", "1h02m" (seconds dropped past an
     * hour). Unlike {@link #format}, not meant to be read back.
     */
    public static String human(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        if (ms < 60_000 && ms % 1000 != 0) {
            return String.format(java.util.Locale.ROOT, "%.1fs", ms / 1000.0);
        }
        return human(d.toSeconds());
    }

    /** {@link #human(Duration)} of a whole number of seconds; "0s" below 0. */
    public static String human(long seconds) {
        if (seconds < 0) {
            return "0s";
        }
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return (seconds / 60) + "m" + String.format(java.util.Locale.ROOT, "%02d", seconds % 60) + "s";
        }
        return (seconds / 3600) + "h" + String.format(java.util.Locale.ROOT, "%02d", (seconds % 3600) / 60) + "m";
    }
}
