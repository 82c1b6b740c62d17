package io.cpbench.topology.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * One connection through a member's proxy: the accepted socket, the socket to the member, and a {@link Direction}
 * each way. Everything but the delayed writes runs on the emulator's selector thread.
 */
final class ProxiedConnection {

    /**
     * One direction of the connection. Bytes read with no delay in force are written straight on, from the read
     * buffer (no copy); bytes read while the sender is slow are copied into a chunk for the {@link DelayLine}, and
     * so are bytes read while earlier delayed chunks of this direction still wait, so order is kept when the delay
     * is switched off.
     */
    final class Direction {
        final SocketChannel from;
        final SocketChannel to;
        final LongSupplier delayNanos;
        final LongAdder bytes;
        final ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
        /** Delayed chunks of this direction not yet written, and the due time of the last one queued. */
        final AtomicInteger delayed = new AtomicInteger();
        long lastDueNanos;
        /** Bytes read but not yet written because the receiver's socket buffer was full; reading waits meanwhile. */
        boolean backlogged;
        boolean ended;
        SelectionKey fromKey;
        SelectionKey toKey;

        Direction(SocketChannel from, SocketChannel to, LongSupplier delayNanos, LongAdder bytes) {
            this.from = from;
            this.to = to;
            this.delayNanos = delayNanos;
            this.bytes = bytes;
        }

        /** The source is readable: copy what it has on. */
        void readable(DelayLine delayLine) throws IOException {
            if (backlogged) {
                return;
            }
            if (emulator.cuts(origin, target)) {
                // Partitioned: read nothing, so the bytes wait in the sockets as they would for TCP to retransmit.
                fromKey.interestOps(fromKey.interestOps() & ~SelectionKey.OP_READ);
                emulator.held(this);
                return;
            }
            buffer.clear();
            int n = from.read(buffer);
            if (n < 0) {
                ended = true;
                fromKey.interestOps(fromKey.interestOps() & ~SelectionKey.OP_READ);
                if (delayed.get() > 0) {
                    queue(delayLine, DelayLine.END, System.nanoTime());
                } else {
                    endOutput();
                }
                return;
            }
            if (n == 0) {
                return;
            }
            if (bytes != null) {
                bytes.add(n);
            }
            buffer.flip();
            long delay = delayNanos.getAsLong();
            if (delay == 0 && delayed.get() == 0) {
                to.write(buffer);
                if (buffer.hasRemaining()) {
                    // The receiver is not keeping up: stop reading until what is left has been written.
                    backlogged = true;
                    fromKey.interestOps(fromKey.interestOps() & ~SelectionKey.OP_READ);
                    toKey.interestOps(toKey.interestOps() | SelectionKey.OP_WRITE);
                }
            } else {
                byte[] copy = new byte[n];
                buffer.get(copy);
                queue(delayLine, copy, System.nanoTime() + delay);
            }
        }

        /** After a partition heals: read again, unless something else holds reading back. */
        void release() {
            if (!backlogged && !ended && fromKey.isValid()) {
                fromKey.interestOps(fromKey.interestOps() | SelectionKey.OP_READ);
            }
        }

        /** The receiver can take more: write the backlog, then read again. */
        void writable() throws IOException {
            to.write(buffer);
            if (!buffer.hasRemaining()) {
                backlogged = false;
                toKey.interestOps(toKey.interestOps() & ~SelectionKey.OP_WRITE);
                if (!ended) {
                    fromKey.interestOps(fromKey.interestOps() | SelectionKey.OP_READ);
                }
            }
        }

        private void queue(DelayLine delayLine, byte[] bytes, long due) {
            lastDueNanos = Math.max(due, lastDueNanos);
            delayed.incrementAndGet();
            delayLine.add(new DelayLine.Chunk(this, bytes, lastDueNanos));
        }

        /** Called by the delay line after it wrote one of this direction's chunks. */
        void delayedWritten() {
            delayed.decrementAndGet();
        }

        void endOutput() {
            try {
                if (to.isOpen()) {
                    to.shutdownOutput();
                }
            } catch (IOException e) {
                close();
                return;
            }
            directionEnded();
        }

        ProxiedConnection connection() {
            return ProxiedConnection.this;
        }
    }

    private final NetworkEmulator emulator;
    /** Who opened the connection (a member's index, or {@link NetworkEmulator#OUTSIDE}) and whose proxy it came to. */
    final int origin;
    final int target;
    final SocketChannel inbound;
    final SocketChannel outbound;
    final Direction request;
    final Direction response;
    private final AtomicInteger open = new AtomicInteger(2);
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param inbound  accepted from the side that opened the connection ({@code origin})
     * @param outbound to the member behind the proxy ({@code target}), possibly still connecting
     */
    ProxiedConnection(NetworkEmulator emulator, SocketChannel inbound, SocketChannel outbound, int origin, int target) {
        this.emulator = emulator;
        this.origin = origin;
        this.target = target;
        this.inbound = inbound;
        this.outbound = outbound;
        this.request = new Direction(inbound, outbound, () -> emulator.delayNanosFrom(origin),
                origin == NetworkEmulator.OUTSIDE ? emulator.clientBytesCounter(target) : null);
        this.response = new Direction(outbound, inbound, () -> emulator.delayNanosFrom(target), null);
    }

    /** Registers both channels with the selector; nothing is read until the member's side has connected. */
    void register(java.nio.channels.Selector selector) throws IOException {
        SelectionKey inboundKey = inbound.register(selector, 0, new NetworkEmulator.Side(this, request, response));
        SelectionKey outboundKey = outbound.register(selector, SelectionKey.OP_CONNECT,
                new NetworkEmulator.Side(this, response, request));
        request.fromKey = inboundKey;
        request.toKey = outboundKey;
        response.fromKey = outboundKey;
        response.toKey = inboundKey;
    }

    /** The member accepted: start copying both ways. */
    void connected() {
        request.fromKey.interestOps(SelectionKey.OP_READ);
        response.fromKey.interestOps(SelectionKey.OP_READ);
    }

    private void directionEnded() {
        if (open.decrementAndGet() == 0) {
            close();
        }
    }

    /** Closes both sockets; safe from any thread, and more than once. */
    void close() {
        if (closed.compareAndSet(false, true)) {
            NetworkEmulator.closeQuietly(inbound);
            NetworkEmulator.closeQuietly(outbound);
            emulator.forget(this);
        }
    }

    boolean isClosed() {
        return closed.get();
    }
}
