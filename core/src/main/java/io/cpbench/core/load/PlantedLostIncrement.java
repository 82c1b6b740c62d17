package io.cpbench.core.load;

import java.util.Locale;

/**
 * A deliberately broken counter invariant, for checking that every consumer of a run (its exit code, its files, its
 * history and its report) calls the run failed: the counter check counts {@code N} more acknowledged increments on
 * the run's first counter than it made, so the counter reads as having lost them. Nothing in the cluster or on the
 * timed path changes. Set with {@code -Dcpbench.plant.lost-increment=N} (1 to 1,000); it is never on unless asked
 * for, and the invariant's evidence then says it was planted.
 */
public final class PlantedLostIncrement {

    public static final String PROPERTY = "cpbench.plant.lost-increment";
    /** 0 when off. */
    static final long COUNT = count(System.getProperty(PROPERTY));

    private PlantedLostIncrement() {
    }

    static long count(String text) {
        if (text == null || text.isBlank()) {
            return 0;
        }
        long n;
        try {
            n = Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PROPERTY + " must be a whole number, 1 to 1000, was " + text);
        }
        if (n < 1 || n > 1000) {
            throw new IllegalArgumentException(PROPERTY + " must be 1 to 1000, was " + text);
        }
        return n;
    }

    /** What the counter check adds to counter {@code index}'s acknowledged increments: the planted count on the first. */
    static long extraAcknowledged(int index) {
        return index == 0 ? COUNT : 0;
    }

    /** The words put before a counter's evidence when the plant is on, or "". */
    static String prefix() {
        return COUNT == 0 ? "" : String.format(Locale.ROOT, "PLANTED LOST INCREMENT (-D%s=%d): ", PROPERTY, COUNT);
    }
}
