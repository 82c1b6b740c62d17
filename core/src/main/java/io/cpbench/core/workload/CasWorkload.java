package io.cpbench.core.workload;

import com.hazelcast.cp.IAtomicReference;

/**
 * The seed's op: read the reference, then compare-and-set it to the value just read, retrying until the CAS
 * succeeds. The value never changes, so an op costs two CP calls (a read and a write) and nothing else.
 */
public final class CasWorkload implements Workload {

    public static final String INITIAL_VALUE = "cpbench";

    private final IAtomicReference<String> reference;

    public CasWorkload(IAtomicReference<String> reference) {
        this.reference = reference;
    }

    /** Gives the reference its constant value once, before any op is timed. */
    public CasWorkload initialise() {
        reference.set(INITIAL_VALUE);
        return this;
    }

    @Override
    public void execute() {
        String observed = reference.get();
        String newValue;
        do {
            newValue = observed;
        } while (!reference.compareAndSet(observed, newValue));
    }
}
