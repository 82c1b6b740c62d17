package io.cpbench.topology.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Holds delayed bytes until they are due and then writes them, on one thread for the whole emulator. Only the slow
 * member's traffic passes through here; the selector thread never waits for a delay, so traffic that is not delayed
 * is not held up behind traffic that is. Chunks of one direction leave in the order they were read: their due times
 * never decrease, and equal ones keep their sequence.
 */
final class DelayLine implements AutoCloseable {

    /** Marks the end of a direction's stream. */
    static final byte[] END = new byte[0];

    /** How long a write into a full socket buffer waits before it tries again. */
    private static final long FULL_BUFFER_PAUSE_NANOS = 50_000;

    private static final AtomicLong SEQUENCE = new AtomicLong();

    record Chunk(ProxiedConnection.Direction direction, byte[] bytes, long dueNanos, long sequence) implements Delayed {

        Chunk(ProxiedConnection.Direction direction, byte[] bytes, long dueNanos) {
            this(direction, bytes, dueNanos, SEQUENCE.incrementAndGet());
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            Chunk that = (Chunk) other;
            int byDue = Long.compare(dueNanos, that.dueNanos);
            return byDue != 0 ? byDue : Long.compare(sequence, that.sequence);
        }
    }

    private final DelayQueue<Chunk> queue = new DelayQueue<>();
    private final Thread thread;
    private volatile boolean closed;

    DelayLine(String name) {
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    void add(Chunk chunk) {
        queue.add(chunk);
    }

    private void run() {
        while (!closed) {
            Chunk chunk;
            try {
                chunk = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            ProxiedConnection.Direction direction = chunk.direction();
            if (direction.connection().isClosed()) {
                direction.delayedWritten();
                continue;
            }
            if (chunk.bytes() == END) {
                direction.delayedWritten();
                direction.endOutput();
                continue;
            }
            try {
                ByteBuffer buffer = ByteBuffer.wrap(chunk.bytes());
                while (buffer.hasRemaining() && !closed) {
                    if (direction.to.write(buffer) == 0) {
                        LockSupport.parkNanos(FULL_BUFFER_PAUSE_NANOS);
                    }
                }
            } catch (IOException e) {
                direction.connection().close();
            } finally {
                direction.delayedWritten();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        queue.clear();
    }
}
