package io.cpbench.topology.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Copies one direction of a proxied connection. With no delay it writes what it reads at once, on the reading
 * thread. With a delay, each chunk is stamped with the time it may leave and a writer thread sends it then; order is
 * kept, and bytes read while earlier ones still wait queue behind them even after the delay is switched off.
 */
final class Pipe {

    /** Says whether the pipe ended with end-of-stream (true) or with an error (false). */
    interface EndListener {
        void ended(boolean cleanly);
    }

    private static final byte[] END = new byte[0];

    private record Chunk(byte[] bytes, int length, long dueNanos) {
    }

    private final String name;
    private final Socket from;
    private final Socket to;
    private final LongSupplier delayNanos;
    private final EndListener onEnd;
    private final java.util.concurrent.atomic.LongAdder bytes;
    private final LinkedBlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
    private final AtomicInteger pending = new AtomicInteger();
    private Thread writer;

    /** @param bytes counts the bytes this pipe carries, or null */
    Pipe(String name, Socket from, Socket to, LongSupplier delayNanos, java.util.concurrent.atomic.LongAdder bytes,
         EndListener onEnd) {
        this.name = name;
        this.bytes = bytes;
        this.from = from;
        this.to = to;
        this.delayNanos = delayNanos;
        this.onEnd = onEnd;
    }

    void start() {
        Thread reader = new Thread(this::read, name);
        reader.setDaemon(true);
        reader.start();
    }

    private void read() {
        byte[] buffer = new byte[64 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            while (true) {
                int n = in.read(buffer);
                if (n < 0) {
                    enqueueOrRun(END, 0, 0);
                    return;
                }
                if (bytes != null) {
                    bytes.add(n);
                }
                long delay = delayNanos.getAsLong();
                if (delay == 0 && pending.get() == 0) {
                    out.write(buffer, 0, n);
                } else {
                    byte[] copy = new byte[n];
                    System.arraycopy(buffer, 0, copy, 0, n);
                    enqueueOrRun(copy, n, System.nanoTime() + delay);
                }
            }
        } catch (IOException e) {
            onEnd.ended(false);
        }
    }

    private void enqueueOrRun(byte[] bytes, int length, long due) throws IOException {
        if (bytes == END && pending.get() == 0) {
            endOutput();
            return;
        }
        pending.incrementAndGet();
        queue.add(new Chunk(bytes, length, due));
        startWriterOnce();
    }

    private synchronized void startWriterOnce() {
        if (writer == null) {
            writer = new Thread(this::write, name + "-delayed");
            writer.setDaemon(true);
            writer.start();
        }
    }

    private void write() {
        try {
            OutputStream out = to.getOutputStream();
            while (!to.isClosed()) {
                Chunk chunk = queue.poll(1, TimeUnit.SECONDS);
                if (chunk == null) {
                    continue;
                }
                long wait;
                while ((wait = chunk.dueNanos() - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                if (chunk.bytes() == END) {
                    pending.decrementAndGet();
                    endOutput();
                    return;
                }
                out.write(chunk.bytes(), 0, chunk.length());
                pending.decrementAndGet();
            }
        } catch (IOException e) {
            onEnd.ended(false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void endOutput() throws IOException {
        if (!to.isClosed()) {
            to.shutdownOutput();
        }
        onEnd.ended(true);
    }
}
