package io.cpbench.core.history;

import java.util.List;
import java.util.Locale;

/**
 * A history read from a file or taken from a recorder.
 *
 * @param lines whether times are line numbers (a Jepsen log) rather than nanoseconds
 */
public record History(List<Event> events, boolean lines) {

    public History {
        events = List.copyOf(events);
    }

    /** {@code 12.345 s} or {@code line 88}. */
    public String time(long t) {
        if (t == Long.MAX_VALUE) {
            return "never";
        }
        return lines ? "line " + (t + 1) : String.format(Locale.ROOT, "%.3f s", t / 1e9);
    }
}
