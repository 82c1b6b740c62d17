package io.cpbench.core.load;

import java.util.Arrays;

/**
 * One worker's lock holds, in primitive arrays (no object per op): which lock, its fence token, when
 * {@code lockAndGetFence} returned and when {@code unlock} was called. The true hold covers that span, so two
 * spans that overlap prove two holders at once. Past {@link #CAP} holds the log stops and says so.
 */
final class LockLog {

    static final int CAP = 1 << 20;

    /** Volatile: written after the entry, so a reader that reads it sees every entry below it. */
    private volatile int size;
    private int[] lock = new int[256];
    private long[] fence = new long[256];
    private long[] held = new long[256];
    private long[] released = new long[256];
    private long dropped;

    void add(int lockIndex, long fenceToken, long heldAt, long releasingAt) {
        if (size == CAP) {
            dropped++;
            return;
        }
        if (size == lock.length) {
            int n = Math.min(CAP, size * 2);
            lock = Arrays.copyOf(lock, n);
            fence = Arrays.copyOf(fence, n);
            held = Arrays.copyOf(held, n);
            released = Arrays.copyOf(released, n);
        }
        int at = size;
        lock[at] = lockIndex;
        fence[at] = fenceToken;
        held[at] = heldAt;
        released[at] = releasingAt;
        size = at + 1;
    }

    int size() {
        return size;
    }

    long dropped() {
        return dropped;
    }

    int lock(int i) {
        return lock[i];
    }

    long fence(int i) {
        return fence[i];
    }

    long held(int i) {
        return held[i];
    }

    long released(int i) {
        return released[i];
    }
}
