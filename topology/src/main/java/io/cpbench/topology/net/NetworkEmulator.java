package io.cpbench.topology.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
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
 * Network emulation in user space, for machines without netem. Either every member sits behind its own TCP proxy
 * ({@link EmulatedLinks#ALL}): members announce the proxy's port to members and clients alike, so every connection
 * crosses exactly one proxy; or only the connections of the member network (b) slows do
 * ({@link EmulatedLinks#slowMember}): clients reach it through its proxy, members through proxies on a second
 * loopback address, and every other connection is direct. Either way the path is the same in network (a) and (b). A
 * member opens its own connections from a port range of its own (Hazelcast's outbound ports), which tells the proxy
 * who is sending on a connection the member opened itself. With member S slow, every byte S sends is held for the
 * delay before it is passed on, as {@code tc qdisc add dev eth0 root netem delay 10ms} on S's host would do: on
 * connections to S, the direction from S; on connections S opened, the direction from S. Bytes in other directions
 * are copied straight through, the same in (a) and (b).
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
     * @param listenHost   where the proxy listens, or null for the emulator's host (a container network's gateway,
     *                     for members in containers)
     * @param targetHost   where the member is reached, or null for the emulator's host
     */
    public record Endpoint(int member, int listenPort, int targetPort, int outboundFrom, int outboundTo,
                           String listenHost, String targetHost) {

        public Endpoint(int member, int listenPort, int targetPort, int outboundFrom, int outboundTo) {
            this(member, listenPort, targetPort, outboundFrom, outboundTo, null, null);
        }

        boolean owns(int sourcePort) {
            return sourcePort >= outboundFrom && sourcePort <= outboundTo;
        }
    }

    private final String host;
    /** Which links the proxies carry: all, or clients' and the slow member's only. */
    private final EmulatedLinks links;
    /** Where the proxies stand, for {@link #method()}; null for members on this host. */
    private final String placement;
    private final List<Endpoint> endpoints;
    private final Selector selector;
    private final DelayLine delayLine;
    private final List<ServerSocketChannel> listeners = new ArrayList<>();
    private final Set<ProxiedConnection> connections = ConcurrentHashMap.newKeySet();
    private final Map<Integer, LongAdder> clientBytes = new TreeMap<>();
    private Thread loop;
    private volatile int slowMember = OUTSIDE;
    /** Members on the far side of a partition (empty: none), and which connections it cuts. */
    private volatile Set<Integer> isolated = Set.of();
    private volatile boolean cutMembers;
    private volatile boolean cutClients;
    /** Directions that stopped reading for a partition; touched on the selector thread only. */
    private final Set<ProxiedConnection.Direction> held = new java.util.HashSet<>();
    private final java.util.Queue<Runnable> tasks = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile long delayNanos;
    private volatile boolean closed;

    private NetworkEmulator(String host, List<Endpoint> endpoints, String placement,
                            EmulatedLinks links) throws IOException {
        this.host = host;
        this.links = links;
        this.placement = placement;
        this.endpoints = List.copyOf(endpoints);
        endpoints.forEach(e -> clientBytes.put(e.member(), new LongAdder()));
        this.selector = Selector.open();
        this.delayLine = new DelayLine("cpbench-net-delay");
    }

    /** Opens a proxy for every endpoint; network (a) to begin with. */
    public static NetworkEmulator start(String host, List<Endpoint> endpoints) {
        return start(host, endpoints, null);
    }

    /** As {@link #start(String, List)}, with {@code placement} ("in front of containers") added to {@link #method()}. */
    public static NetworkEmulator start(String host, List<Endpoint> endpoints, String placement) {
        return start(host, endpoints, placement, EmulatedLinks.ALL);
    }

    /**
     * As {@link #start(String, List, String)}, for {@code links}: with only the slow member's links behind the
     * proxies, only that member can be slowed down, and there are no partitions.
     */
    public static NetworkEmulator start(String host, List<Endpoint> endpoints, String placement,
                                        EmulatedLinks links) {
        NetworkEmulator emulator = null;
        try {
            emulator = new NetworkEmulator(host, endpoints, placement, links);
            for (Endpoint endpoint : endpoints) {
                ServerSocketChannel listener = ServerSocketChannel.open();
                emulator.listeners.add(listener);
                listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                listener.bind(new InetSocketAddress(InetAddress.getByName(
                        endpoint.listenHost() != null ? endpoint.listenHost() : host), endpoint.listenPort()), 128);
                listener.configureBlocking(false);
                listener.register(emulator.selector, SelectionKey.OP_ACCEPT, endpoint);
            }
            NetworkEmulator started = emulator;
            emulator.loop = new Thread(started::runLoop, "cpbench-net-loop");
            emulator.loop.setDaemon(true);
            emulator.loop.start();
            return emulator;
        } catch (IOException e) {
            if (emulator != null) {
                emulator.close();
            }
            throw new IllegalStateException("cannot open the network emulator's proxies on " + host + ": " + e.getMessage(), e);
        }
    }

    /**
     * The one thread that accepts, connects, reads and writes for every proxied connection: a selector loop, so a
     * hop through the emulator costs one wake-up of one thread however many connections are busy, and bytes are
     * copied only when they have to wait for a delay.
     */
    private void runLoop() {
        try {
            while (!closed) {
                selector.select();
                for (Runnable task; (task = tasks.poll()) != null; ) {
                    task.run();
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    handle(key);
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | java.nio.channels.ClosedSelectorException e) {
            // closed
        } finally {
            closeAll();
        }
    }

    private void handle(SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        if (key.attachment() instanceof Endpoint endpoint) {
            accept((ServerSocketChannel) key.channel(), endpoint);
            return;
        }
        Side side = (Side) key.attachment();
        try {
            if (key.isConnectable()) {
                side.connection().outbound.finishConnect();
                side.connection().connected();
                return;
            }
            if (key.isReadable()) {
                side.reads().readable(delayLine);
            }
            if (key.isValid() && key.isWritable()) {
                side.writes().writable();
            }
        } catch (IOException | java.nio.channels.CancelledKeyException e) {
            side.connection().close(); // the member is down or the peer went away: as a broken connection would
        }
    }

    /** What a channel's key does: read for one direction, write the backlog of the other. */
    record Side(ProxiedConnection connection, ProxiedConnection.Direction reads, ProxiedConnection.Direction writes) {
    }

    private void accept(ServerSocketChannel listener, Endpoint target) {
        SocketChannel inbound;
        try {
            inbound = listener.accept();
        } catch (IOException e) {
            return;
        }
        if (inbound == null) {
            return;
        }
        SocketChannel outbound = null;
        try {
            int sourcePort = ((InetSocketAddress) inbound.getRemoteAddress()).getPort();
            inbound.setOption(StandardSocketOptions.TCP_NODELAY, true);
            inbound.configureBlocking(false);
            outbound = SocketChannel.open();
            outbound.setOption(StandardSocketOptions.TCP_NODELAY, true);
            outbound.configureBlocking(false);
            ProxiedConnection connection = new ProxiedConnection(this, inbound, outbound, originOf(sourcePort), target.member());
            connections.add(connection);
            connection.register(selector);
            if (outbound.connect(new InetSocketAddress(InetAddress.getByName(
                    target.targetHost() != null ? target.targetHost() : host), target.targetPort()))) {
                connection.connected();
            }
        } catch (IOException e) {
            closeQuietly(inbound); // the member is down: refuse, as its own port would
            if (outbound != null) {
                closeQuietly(outbound);
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

    /** Whether a partition cuts a connection from {@code origin} (a member, or {@link #OUTSIDE}) to {@code target}. */
    boolean cuts(int origin, int target) {
        Set<Integer> side = isolated;
        if (side.isEmpty()) {
            return false;
        }
        if (origin == OUTSIDE) {
            return cutClients && side.contains(target);
        }
        return cutMembers && side.contains(origin) != side.contains(target);
    }

    void held(ProxiedConnection.Direction direction) {
        held.add(direction);
    }

    /**
     * Partitions the cluster: {@code members} on one side, the other members on the other. With {@code members}
     * true, no byte crosses between the sides; with {@code clients} true, none flows on connections clients opened
     * to {@code members}. Bytes wait in the sockets meanwhile, as TCP would hold them through a real partition,
     * and flow again on {@link #heal()}, unless an end gives up on the connection first.
     */
    public void isolate(Set<Integer> members, boolean cutMembers, boolean cutClients) {
        if (!links.all()) {
            throw new IllegalStateException("partitions need every link through the network emulator; this cluster's"
                    + " proxies carry only member " + links.slowMember() + "'s links (start it with every link proxied:"
                    + " --network emulated-all)");
        }
        for (int m : members) {
            if (endpoints.stream().noneMatch(e -> e.member() == m)) {
                throw new IllegalArgumentException("no member " + m + " behind this emulator");
            }
        }
        this.cutMembers = cutMembers;
        this.cutClients = cutClients;
        this.isolated = Set.copyOf(members);
        // connections already idle-reading pick the cut up on their next read
    }

    /** Ends a partition: every held connection reads again. */
    public void heal() {
        isolated = Set.of();
        tasks.add(() -> {
            held.forEach(ProxiedConnection.Direction::release);
            held.clear();
        });
        selector.wakeup();
    }

    /** The members cut off now (empty: no partition). */
    public Set<Integer> isolated() {
        return isolated;
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

    /** The member-to-member connections open through the proxies now, each as [opener, target]. */
    public Set<List<Integer>> memberLinks() {
        Set<List<Integer>> links = new java.util.HashSet<>();
        for (ProxiedConnection connection : connections) {
            if (connection.origin != OUTSIDE) {
                links.add(List.of(connection.origin, connection.target));
            }
        }
        return links;
    }

    @Override
    public synchronized void slowDown(int memberIndex, Duration delay) {
        if (endpoints.stream().noneMatch(e -> e.member() == memberIndex)) {
            throw new IllegalArgumentException("no member " + memberIndex + " behind this emulator");
        }
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative");
        }
        if (!links.all() && memberIndex != links.slowMember()) {
            throw new IllegalArgumentException("only member " + links.slowMember() + " can be slowed down: this cluster's"
                    + " proxies carry only that member's links (to slow member " + memberIndex
                    + ", start it with every link proxied: --network emulated-all, or with --slow-member " + memberIndex + ")");
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
        return "user-space TCP proxy per member" + links.describe() + (placement == null ? "" : ", " + placement);
    }

    @Override
    public void close() {
        closed = true;
        selector.wakeup();
        Thread running = loop;
        if (running == null || Thread.currentThread() == running) {
            closeAll();
            return;
        }
        try {
            running.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeAll(); // in case the loop did not end in time
    }

    private synchronized void closeAll() {
        listeners.forEach(NetworkEmulator::closeQuietly);
        for (ProxiedConnection connection : List.copyOf(connections)) {
            connection.close();
        }
        delayLine.close();
        closeQuietly(selector);
    }

    static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // Closing is best effort.
        }
    }
}
