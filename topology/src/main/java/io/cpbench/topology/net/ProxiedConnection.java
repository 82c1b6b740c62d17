package io.cpbench.topology.net;

import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/** One connection through a member's proxy: two pipes, one per direction, each knowing who sends on it. */
final class ProxiedConnection {

    private final NetworkEmulator emulator;
    private final Socket inbound;
    private final Socket outbound;
    private final Pipe request;
    private final Pipe response;
    private final AtomicInteger open = new AtomicInteger(2);

    /**
     * @param inbound  accepted from the side that opened the connection ({@code origin})
     * @param outbound to the member behind the proxy ({@code target})
     */
    ProxiedConnection(NetworkEmulator emulator, Socket inbound, Socket outbound, int origin, int target) {
        this.emulator = emulator;
        this.inbound = inbound;
        this.outbound = outbound;
        String name = "cpbench-net-" + (origin == NetworkEmulator.OUTSIDE ? "client" : "m" + origin) + "-m" + target
                + "-" + inbound.getPort();
        this.request = new Pipe(name + "-out", inbound, outbound, () -> emulator.delayNanosFrom(origin),
                origin == NetworkEmulator.OUTSIDE ? emulator.clientBytesCounter(target) : null, this::pipeEnded);
        this.response = new Pipe(name + "-back", outbound, inbound, () -> emulator.delayNanosFrom(target), null,
                this::pipeEnded);
    }

    void start() {
        request.start();
        response.start();
    }

    private void pipeEnded(boolean cleanly) {
        if (!cleanly || open.decrementAndGet() == 0) {
            close();
        }
    }

    void close() {
        NetworkEmulator.closeQuietly(inbound);
        NetworkEmulator.closeQuietly(outbound);
        emulator.forget(this);
    }
}
