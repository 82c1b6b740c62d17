package io.cpbench.topology.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Network emulation in user space, for machines without netem. Each member is reached only through its own TCP
 * proxy: members announce the proxy's port as their address, so every connection, member to member or client to
 * member, crosses exactly one proxy, in network (a) and (b) alike. A member opens its own connections from a port
 * range of its own (Hazelcast's outbound ports), which tells the proxy who is sending on a connection the member
 * opened itself. With member S slow, every byte S sends is held for the delay before it is passed on, as
 * {@code tc qdisc add dev eth0 root netem delay 10ms} on S's host would do: on connections to S, the direction from
 * S; on connections S opened, the direction from S. Bytes in other directions are copied straight through, the
 * same in (a) and (b).
 */
public final class NetworkEmulator implements NetworkControl, AutoCloseable {

    /** Origin of a connection that no member opened (a client). */
    static final int OUTSIDE = -1;

    /**
     * One member behind the emulator.
     *
     * @param member       member index
     * @param listenPort   the proxy's port: the address the member announces and everyone connects to
     * @param targetPort   the member's real port, which only the proxy connects to
     * @param outboundFrom first port of the member's outbound range
     * @param outboundTo   last port of the member's outbound range
     */
    public record Endpoint(int member, int listenPort, int targetPort, int outboundFrom, int outboundTo) {
        boolean owns(int sourcePort) {
            return sourcePort >= outboundFrom && sourcePort <= outboundTo;
        }
    }

    private final String host;
    private final List<Endpoint> endpoints;
    private final List<ServerSocket> listeners = new ArrayList<>();
    private final Set<ProxiedConnection> connections = ConcurrentHashMap.newKeySet();
    private final Map<Integer, LongAdder> clientBytes = new TreeMap<>();
    private volatile int slowMember = OUTSIDE;
    private volatile long delayNanos;
    private volatile boolean closed;

    private NetworkEmulator(String host, List<Endpoint> endpoints) {
        this.host = host;
        this.endpoints = List.copyOf(endpoints);
        endpoints.forEach(e -> clientBytes.put(e.member(), new LongAdder()));
    }

    /** Opens a proxy for every endpoint; network (a) to begin with. */
    public static NetworkEmulator start(String host, List<Endpoint> endpoints) {
        NetworkEmulator emulator = new NetworkEmulator(host, endpoints);
        try {
            for (Endpoint endpoint : endpoints) {
                ServerSocket listener = new ServerSocket();
                listener.setReuseAddress(true);
                listener.bind(new InetSocketAddress(InetAddress.getByName(host), endpoint.listenPort()), 128);
                emulator.listeners.add(listener);
                Thread acceptor = new Thread(() -> emulator.accept(listener, endpoint),
                        "cpbench-net-accept-" + endpoint.member());
                acceptor.setDaemon(true);
                acceptor.start();
            }
            return emulator;
        } catch (IOException e) {
            emulator.close();
            throw new IllegalStateException("cannot open the network emulator's proxies on " + host + ": " + e.getMessage(), e);
        }
    }

    private void accept(ServerSocket listener, Endpoint target) {
        while (!closed) {
            Socket inbound;
            try {
                inbound = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            try {
                inbound.setTcpNoDelay(true);
                Socket outbound = new Socket();
                outbound.setTcpNoDelay(true);
                outbound.connect(new InetSocketAddress(InetAddress.getByName(host), target.targetPort()), 5_000);
                ProxiedConnection connection = new ProxiedConnection(this, inbound, outbound,
                        originOf(inbound.getPort()), target.member());
                connections.add(connection);
                connection.start();
            } catch (IOException e) {
                closeQuietly(inbound); // the member is down: refuse, as its own port would
            }
        }
    }

    int originOf(int sourcePort) {
        for (Endpoint endpoint : endpoints) {
            if (endpoint.owns(sourcePort)) {
                return endpoint.member();
            }
        }
        return OUTSIDE;
    }

    /** The delay for bytes sent by {@code sender}, now. */
    long delayNanosFrom(int sender) {
        return sender != OUTSIDE && sender == slowMember ? delayNanos : 0;
    }

    LongAdder clientBytesCounter(int member) {
        return clientBytes.get(member);
    }

    @Override
    public Map<Integer, Long> bytesFromClients() {
        Map<Integer, Long> snapshot = new TreeMap<>();
        clientBytes.forEach((member, bytes) -> snapshot.put(member, bytes.sum()));
        return snapshot;
    }

    void forget(ProxiedConnection connection) {
        connections.remove(connection);
    }

    public int openConnections() {
        return connections.size();
    }

    @Override
    public synchronized void slowDown(int memberIndex, Duration delay) {
        if (endpoints.stream().noneMatch(e -> e.member() == memberIndex)) {
            throw new IllegalArgumentException("no member " + memberIndex + " behind this emulator");
        }
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative");
        }
        delayNanos = delay.toNanos();
        slowMember = memberIndex;
    }

    @Override
    public synchronized void clear() {
        slowMember = OUTSIDE;
        delayNanos = 0;
    }

    @Override
    public OptionalInt slowMember() {
        int member = slowMember;
        return member == OUTSIDE || delayNanos == 0 ? OptionalInt.empty() : OptionalInt.of(member);
    }

    @Override
    public Duration delay() {
        return slowMember == OUTSIDE ? Duration.ZERO : Duration.ofNanos(delayNanos);
    }

    @Override
    public String method() {
        return "user-space TCP proxy per member";
    }

    @Override
    public void close() {
        closed = true;
        listeners.forEach(NetworkEmulator::closeQuietly);
        for (ProxiedConnection connection : List.copyOf(connections)) {
            connection.close();
        }
    }

    static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // Closing is best effort.
        }
    }
}
