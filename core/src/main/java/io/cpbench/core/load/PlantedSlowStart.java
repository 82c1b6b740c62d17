package io.cpbench.core.load;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A deliberately slow start, for checking that the cluster warm-up waits for a cluster that is slow at first: an op
 * this process runs waits 4 ms more ({@link #DELAY_PROPERTY}) at its first op, less and less as the process gets older, and nothing from
 * {@code length} on: op/s climbs all along, as a cold cluster's does while its members compile their paths (a constant
 * wait would make a plateau, which is steady by any rule). Set with {@code -Dcpbench.plant.slow-start=20s}; it is never
 * on unless asked for, and a run with it says so.
 */
public final class PlantedSlowStart {

    public static final String PROPERTY = "cpbench.plant.slow-start";
    /**
     * The wait at the first op ({@code -Dcpbench.plant.slow-start.delay=8ms}; default 4 ms, at most 100 ms): a test
     * whose check depends on how much slower the start is than the steady ops sets it for the machine's op time.
     */
    public static final String DELAY_PROPERTY = "cpbench.plant.slow-start.delay";
    private static final long DELAY_NANOS = delay(System.getProperty(DELAY_PROPERTY));
    /** 0 when off. */
    private static final long LENGTH_NANOS = length();
    private static final AtomicLong FIRST = new AtomicLong();

    private PlantedSlowStart() {
    }

    static long delay(String text) {
        if (text == null || text.isBlank()) {
            return 4_000_000;
        }
        Duration d = Durations.parse(text);
        if (d.isNegative() || d.isZero() || d.compareTo(Duration.ofMillis(100)) > 0) {
            throw new IllegalArgumentException(DELAY_PROPERTY + " must be over 0 and at most 100ms, was " + text);
        }
        return d.toNanos();
    }

    private static long length() {
        String text = System.getProperty(PROPERTY);
        if (text == null || text.isBlank()) {
            return 0;
        }
        Duration d = Durations.parse(text);
        if (d.isNegative() || d.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException(PROPERTY + " must be 0 to 10m, was " + text);
        }
        return d.toNanos();
    }

    /**
     * The engine's op runner, slowed at the start when asked: {@code exec} itself when not (nothing is added to the
     * timed path), else {@code exec} after {@link #delay}.
     */
    static Workers.Exec around(Workers.Exec exec) {
        if (LENGTH_NANOS == 0) {
            return exec;
        }
        return (op, client, object, lockLog, a, b) -> {
            delay();
            return exec.execute(op, client, object, lockLog, a, b);
        };
    }

    /** Waits 4 ms less the share of the planted length since the process's first op. */
    private static void delay() {
        long now = System.nanoTime();
        FIRST.compareAndSet(0, now);
        long age = now - FIRST.get();
        if (age < LENGTH_NANOS) {
            LockSupport.parkNanos((long) (DELAY_NANOS * (1 - (double) age / LENGTH_NANOS)));
        }
    }

    /** What a run prints when the slow start is on, or null. */
    public static String banner() {
        return LENGTH_NANOS == 0 ? null : String.format(Locale.ROOT, "PLANTED SLOW START: every op waits up to %s"
                + " more, less and less until %s after the first op (-D%s)", Durations.format(Duration.ofNanos(DELAY_NANOS)),
                Durations.format(Duration.ofNanos(LENGTH_NANOS)), PROPERTY);
    }
}
