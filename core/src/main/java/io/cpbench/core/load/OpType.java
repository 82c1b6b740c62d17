package io.cpbench.core.load;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The CP operations a load run mixes. Each acts on one of the run's objects, picked at random per op.
 */
public enum OpType {
    /** The seed's op on an {@code IAtomicReference}: get, then compareAndSet to the value read (re-read on failure). */
    CAS,
    /** {@code IAtomicReference.get}. */
    GET,
    /** {@code IAtomicReference.set} to the run's constant value. */
    SET,
    /** {@code IAtomicLong.incrementAndGet}; the counter invariant checks these. */
    INCREMENT,
    /** {@code FencedLock.lockAndGetFence}, then {@code unlock}; the lock invariant checks these. */
    LOCK,
    /** {@code ISemaphore.acquire}, then {@code release}, on a semaphore with a permit per worker. */
    SEMAPHORE,
    /** {@code IAtomicLong.get} on the run's registers (the linearizability checker's read). */
    READ,
    /** {@code IAtomicLong.set} of a random value 0-4 on a register. */
    WRITE,
    /** {@code IAtomicLong.compareAndSet} of random values 0-4 on a register: the checker's cas. */
    CMPSET,
    /** Nothing at all: for measuring the engine itself (no cluster is touched). */
    NOOP,
    /**
     * The caller's own op, given to the engine as a {@link io.cpbench.core.workload.Workload} (a scenario's seed op
     * through its topology's client). Never in a load mix: {@link #of} and {@link #known} leave it out.
     */
    CALL;

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException listing the known ops */
    public static OpType of(String name) {
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (OpType op : values()) {
            if (op != CALL && op.key().equals(key)) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown op '" + name + "'; known: " + known());
    }

    public static String known() {
        return Arrays.stream(values()).filter(op -> op != CALL).map(OpType::key).collect(Collectors.joining(", "));
    }

    /** Whether the op runs without a client of its own: {@link #NOOP} and {@link #CALL}. */
    boolean clientless() {
        return this == NOOP || this == CALL;
    }

    /** Whether the op acts on the run's registers, whose history the linearizability checker reads. */
    boolean register() {
        return this == READ || this == WRITE || this == CMPSET;
    }

    /**
     * The op's name in a history: {@code read}, {@code write}, {@code cas} for the registers (the names the
     * linearizability checker reads), {@code ref-get}, {@code ref-set}, {@code ref-cas} for the references, else
     * {@link #key}.
     */
    String historyName() {
        return switch (this) {
            case CMPSET -> "cas";
            case CAS, GET, SET -> "ref-" + key();
            default -> key();
        };
    }
}
