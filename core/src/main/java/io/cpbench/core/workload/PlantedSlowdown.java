package io.cpbench.core.workload;

import java.util.Locale;
import java.util.Map;

/**
 * A deliberate slowdown, for checking that a regression gate ({@code cpbench compare}) catches one: each op takes
 * {@code fraction} longer than it did: the op, then a busy spin for that fraction of its own time, as slower client
 * code would burn it. (A parked wait, tried first, hides on a machine whose cores the members saturate: the pause
 * frees CPU, and the next op runs faster by about as much.) Set with {@code -Dcpbench.plant.slowdown=10%}; it is
 * never on unless asked for, and a run with it says so on its first lines.
 */
public final class PlantedSlowdown implements Workload {

    public static final String PROPERTY = "cpbench.plant.slowdown";

    private final Workload delegate;
    private final double fraction;

    private PlantedSlowdown(Workload delegate, double fraction) {
        this.delegate = delegate;
        this.fraction = fraction;
    }

    /** {@code workload}, slowed down when {@value #PROPERTY} is set. */
    public static Workload wrapIfAsked(Workload workload) {
        double f = fraction();
        return f > 0 && workload != null ? new PlantedSlowdown(workload, f) : workload;
    }

    /** The fraction {@value #PROPERTY} asks for: "10%" or "0.1" is 0.1; unset is 0. */
    public static double fraction() {
        String text = System.getProperty(PROPERTY);
        if (text == null || text.isBlank()) {
            return 0;
        }
        double v = io.cpbench.core.stats.Percent.parse(text, PROPERTY);
        if (!(v >= 0 && v <= 10)) {
            throw new IllegalArgumentException(PROPERTY + " must be between 0% and 1000%, was " + text);
        }
        return v;
    }

    /** What a run prints when the slowdown is on, or null. */
    public static String banner() {
        double f = fraction();
        return f > 0 ? String.format(Locale.ROOT, "PLANTED SLOWDOWN: every op spins %.0f %% of its own time more (-D%s)",
                f * 100, PROPERTY) : null;
    }

    @Override
    public void execute() throws Exception {
        long start = System.nanoTime();
        delegate.execute();
        long until = System.nanoTime() + (long) ((System.nanoTime() - start) * fraction);
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    @Override
    public Map<String, Long> counters() {
        return delegate.counters();
    }
}
