package io.cpbench.core.workload;

import com.hazelcast.cp.IAtomicReference;

import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The seed's op: read the reference, then compare-and-set it to the value just read. The value never changes, so
 * on a cluster of its own an op costs two CP calls (a read and a write) and nothing else.
 *
 * <p>The seed's loop retried the CAS with the value it first read and never read again, so on a cluster where
 * anything else writes the reference (an attached staging cluster, several cp-bench clients) one op could spin
 * forever. Here a failed CAS re-reads the reference and tries again, at most {@link #maxRetries} times; then the op
 * fails with {@link ContendedException} (the driver counts it as an error, with that reason). Retries are counted
 * ({@link #counters()}), so a result shows how contended the reference was.
 */
public final class CasWorkload implements Workload {

    public static final String INITIAL_VALUE = "cpbench";
    /** Re-reads after a failed CAS before an op counts as an error. */
    public static final int DEFAULT_MAX_RETRIES = 100;

    private final IAtomicReference<String> reference;
    private final int maxRetries;
    private final LongAdder retries = new LongAdder();
    private final LongAdder gaveUp = new LongAdder();

    public CasWorkload(IAtomicReference<String> reference) {
        this(reference, DEFAULT_MAX_RETRIES);
    }

    public CasWorkload(IAtomicReference<String> reference, int maxRetries) {
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must be >= 0, not " + maxRetries);
        }
        this.reference = reference;
        this.maxRetries = maxRetries;
    }

    /** Gives the reference its constant value once, before any op is timed. */
    public CasWorkload initialise() {
        reference.set(INITIAL_VALUE);
        return this;
    }

    @Override
    public void execute() {
        String observed = reference.get();
        for (int retry = 0; !reference.compareAndSet(observed, observed); retry++) {
            if (retry == maxRetries) {
                gaveUp.increment();
                throw new ContendedException(maxRetries);
            }
            retries.increment();
            observed = reference.get();
        }
    }

    /** {@code casRetries}: re-reads after a failed CAS; {@code casGaveUp}: ops that failed after the last retry. */
    @Override
    public Map<String, Long> counters() {
        return Map.of("casRetries", retries.sum(), "casGaveUp", gaveUp.sum());
    }

    /** The CAS kept failing: something else keeps writing the reference. */
    public static final class ContendedException extends RuntimeException {
        ContendedException(int retries) {
            super("compareAndSet failed " + (retries + 1) + " times in a row, re-reading each time: something else keeps"
                    + " writing the reference", null, false, false);
        }
    }
}
