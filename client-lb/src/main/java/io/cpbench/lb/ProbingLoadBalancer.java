package io.cpbench.lb;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.cp.internal.datastructures.atomiclong.AtomicLongProxy;
import com.hazelcast.client.impl.clientside.HazelcastClientInstanceImpl;
import com.hazelcast.client.impl.connection.ClientConnection;
import com.hazelcast.client.impl.protocol.ClientMessage;
import com.hazelcast.client.impl.protocol.codec.AtomicLongGetCodec;
import com.hazelcast.client.impl.protocol.codec.CPSubsystemGetCPObjectInfosCodec;
import com.hazelcast.client.impl.protocol.codec.ClientPingCodec;
import com.hazelcast.client.impl.spi.impl.ClientInvocation;
import com.hazelcast.cluster.Member;
import com.hazelcast.cp.internal.RaftGroupId;
import com.hazelcast.logging.ILogger;
import com.hazelcast.logging.Logger;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A balancer that measures each member with probes: a cheap linearizable CP read sent down that member's own
 * connection, timed from send to answer. A follower forwards the read to the leader (one more hop), the leader
 * answers it itself, and a member with a slow network adds its delay twice. One daemon thread sends the probes,
 * one member at a time; the answers are timed on Hazelcast's response threads. Nothing on a call's path waits for
 * a probe: {@code next()} reads what the probes last concluded.
 *
 * <p>Uses Hazelcast client internals to send a call down one chosen connection ({@code ClientInvocation}): the same in
 * 5.3 and 5.4, but for {@code getCPObjectInfos}, which only 5.4 has (see {@link #CLIENT_HAS_OBJECT_INFOS}).
 */
public abstract class ProbingLoadBalancer extends CpLoadBalancer {

    /** The CP object the probes read; an {@code IAtomicLong} that nothing else uses. */
    public static final String PROBE_OBJECT = "__cpbench_lb_probe";

    private static final ILogger LOG = Logger.getLogger(ProbingLoadBalancer.class);

    /**
     * Whether this Hazelcast client has the request forwarding probes prefer ({@code getCPObjectInfos}, added in
     * Hazelcast 5.4). Without it (a 5.3 client), or when the members refuse it (5.3 members), forwarding probes send
     * a CP read instead ({@code IAtomicLong.get} of {@link #PROBE_OBJECT}): a follower forwards that too, and the
     * leader adds the same Raft read to every member's time, so the forwarding hop still tells the members apart.
     */
    static final boolean CLIENT_HAS_OBJECT_INFOS = hasClass("com.hazelcast.client.impl.protocol.codec.CPSubsystemGetCPObjectInfosCodec");

    private static boolean hasClass(String name) {
        try {
            Class.forName(name, false, ProbingLoadBalancer.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private volatile ProbeSettings settings;
    private volatile LatencyStats<UUID> stats;
    /** Ping times per member, for forwarding probes (see {@link #forwardingProbes()}). */
    private volatile LatencyStats<UUID> pingStats;
    private final Map<UUID, Long> inFlight = new ConcurrentHashMap<>();
    private final AtomicLong probesSent = new AtomicLong();
    private final AtomicLong probesFailed = new AtomicLong();
    private volatile ScheduledExecutorService prober;
    private volatile HazelcastClientInstanceImpl client;
    private volatile RaftGroupId groupId;
    private volatile long burstUntil;
    private volatile boolean closed;
    private volatile String lastProblem;
    /** Whether the members refused getCPObjectInfos (an unknown request to members before 5.4). */
    private volatile boolean objectInfosRefused;
    private volatile boolean linkageReported;
    private int rotation;

    /** @param settings null to read them from the client's properties at {@code init} */
    protected ProbingLoadBalancer(MemberFilter filter, ProbeSettings settings) {
        super(filter);
        this.settings = settings;
        if (settings != null) {
            stats = newStats(settings);
            pingStats = newStats(settings);
        }
    }

    private static LatencyStats<UUID> newStats(ProbeSettings s) {
        return new LatencyStats<>(s.window(), s.excludeRatio(), s.readmitRatio(), s.minSamples(), System::nanoTime);
    }

    @Override
    protected void configure(ClientConfig config) {
        if (settings == null) {
            settings = ProbeSettings.fromProperties(config::getProperty);
            stats = newStats(settings);
            pingStats = newStats(settings);
        }
    }

    /** The client, once bound. */
    protected final HazelcastClientInstanceImpl client() {
        return client;
    }

    public ProbeSettings settings() {
        return settings;
    }

    @Override
    void bound(HazelcastClientInstanceImpl boundClient) {
        super.bound(boundClient);
        this.client = boundClient;
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "cpbench-lb-probe");
            thread.setDaemon(true);
            return thread;
        });
        prober = executor;
        if (forwardingProbes() && !CLIENT_HAS_OBJECT_INFOS) {
            LOG.info(getClass().getSimpleName() + ": this Hazelcast client (" + com.hazelcast.instance.BuildInfoProvider
                    .getBuildInfo().getVersion() + ") has no getCPObjectInfos (5.4 and later); forwarding probes send a"
                    + " CP read (IAtomicLong.get) instead");
        }
        burst();
        schedule(0);
    }

    @Override
    public void close() {
        closed = true;
        super.close();
        ScheduledExecutorService executor = prober;
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    @Override
    protected void membersChanged(Member removed) {
        LatencyStats<UUID> s = stats;
        if (s != null) {
            // Who leads, and who is slow, may have changed with the membership: judge afresh.
            s.clear();
            pingStats.clear();
        }
        burst();
    }

    /** Whether probing runs fast now (after start-up, a membership change, or a {@link #burst()}). */
    protected final boolean inBurst() {
        return System.nanoTime() < burstUntil;
    }

    /** Probes fast for {@link ProbeSettings#burstLength()} from now. */
    protected final void burst() {
        ProbeSettings s = settings;
        if (s != null) {
            burstUntil = System.nanoTime() + s.burstLength().toNanos();
        }
    }

    private void schedule(long delayNanos) {
        ScheduledExecutorService executor = prober;
        if (closed || executor == null) {
            return;
        }
        try {
            executor.schedule(this::tick, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // Closed meanwhile.
        }
    }

    /** One probe to the next member in turn, then a fresh judgement. Runs on the prober thread only. */
    private void tick() {
        Member[] candidates = passing();
        try {
            if (client.getLifecycleService().isRunning() && candidates.length > 0) {
                if (wantsProbes()) {
                    probe(candidates[Math.floorMod(rotation++, candidates.length)]);
                }
                judge(stats, candidates);
            }
        } catch (RuntimeException e) {
            problem("probing failed: " + e);
        } catch (LinkageError e) {
            // an internal API this client release lacks: said once, since no probe can work then
            if (!linkageReported) {
                linkageReported = true;
                LOG.warning(getClass().getSimpleName() + ": cannot probe with this Hazelcast client ("
                        + com.hazelcast.instance.BuildInfoProvider.getBuildInfo().getVersion() + "): " + e);
            }
        } finally {
            ProbeSettings s = settings;
            Duration period = System.nanoTime() < burstUntil ? s.burstPeriod() : s.period();
            schedule(period.toNanos() / Math.max(1, candidates.length));
        }
    }

    private void probe(Member member) {
        UUID id = member.getUuid();
        long now = System.nanoTime();
        Long started = inFlight.get(id);
        if (started != null) {
            // Still unanswered: once past the timeout, that is a sample at least this slow, each time round.
            if (now - started > settings.timeout().toNanos()) {
                stats.record(id, now - started);
            }
            return;
        }
        ClientConnection connection = connectionTo(member);
        if (connection == null) {
            return;
        }
        RaftGroupId group = groupId();
        inFlight.put(id, System.nanoTime());
        probesSent.incrementAndGet();
        if (!forwardingProbes()) {
            timed(connection, AtomicLongGetCodec.encodeRequest(group, PROBE_OBJECT), member, stats, () -> inFlight.remove(id));
            return;
        }
        // A ping first (this connection's own round trip, however busy it is), then the forwarding request.
        boolean objectInfos = CLIENT_HAS_OBJECT_INFOS && !objectInfosRefused;
        timed(connection, ClientPingCodec.encodeRequest(), member, pingStats, () -> timed(connection,
                objectInfos ? objectInfosRequest(group) : AtomicLongGetCodec.encodeRequest(group, PROBE_OBJECT), member,
                stats, () -> inFlight.remove(id)));
    }

    /** getCPObjectInfos, in a method of its own: a 5.3 client lacks the codec class, and never comes here. */
    private static ClientMessage objectInfosRequest(RaftGroupId group) {
        return CPSubsystemGetCPObjectInfosCodec.encodeRequest(group, FORWARDED_SERVICE, true);
    }

    /** Whether a failed probe was a member refusing a request it does not know (a member before 5.4). */
    private static boolean unknownRequest(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof UnsupportedOperationException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The service a forwarding probe asks about: CP count-down latches, of which there are usually none, so the
     * leader's answer costs next to nothing.
     */
    static final String FORWARDED_SERVICE = "hz:raft:countDownLatchService";

    /** Sends one request down {@code connection}, records its round trip in {@code into} if it succeeds, then runs {@code then}. */
    private void timed(ClientConnection connection, ClientMessage request, Member member, LatencyStats<UUID> into, Runnable then) {
        long sent = System.nanoTime();
        send(connection, request).whenComplete((response, error) -> {
            long latency = System.nanoTime() - sent;
            if (error == null) {
                into.record(member.getUuid(), latency);
                then.run();
            } else {
                inFlight.remove(member.getUuid());
                probesFailed.incrementAndGet();
                if (CLIENT_HAS_OBJECT_INFOS && !objectInfosRefused && unknownRequest(error)) {
                    objectInfosRefused = true;
                    LOG.info(getClass().getSimpleName() + ": " + member.getAddress() + " refused getCPObjectInfos"
                            + " (members before Hazelcast 5.4 lack it: " + error + "); forwarding probes send a CP read"
                            + " (IAtomicLong.get) instead");
                }
                problem("probe to " + member.getAddress() + " failed: " + error);
            }
        });
    }

    /**
     * Whether probes measure the forwarding hop alone instead of a CP read: a ping down the member's connection,
     * then a request that every member hands to the group's leader as it knows it ({@code getCPObjectInfos},
     * answered from the leader's memory, no Raft round): the leader runs it locally, a follower sends it over one
     * more member connection. The second time less the first is the forwarding cost, which the busy-ness of the
     * member's client connection does not change. The answers go to {@link #latencies()} and {@link #pings()}.
     */
    protected boolean forwardingProbes() {
        return false;
    }

    /** The client's live connection to {@code member}, or null. */
    protected final ClientConnection connectionTo(Member member) {
        HazelcastClientInstanceImpl c = client;
        ClientConnection connection = c == null ? null : c.getConnectionManager().getConnection(member.getUuid());
        return connection != null && connection.isAlive() ? connection : null;
    }

    /** Sends a ping down {@code connection}; the future completes when the member answers or the connection drops. */
    protected final java.util.concurrent.CompletableFuture<ClientMessage> ping(ClientConnection connection) {
        return send(connection, ClientPingCodec.encodeRequest());
    }

    /** Sends {@code request} down {@code connection} alone (no retry on another member). */
    private java.util.concurrent.CompletableFuture<ClientMessage> send(ClientConnection connection, ClientMessage request) {
        return new ClientInvocation(client, request, PROBE_OBJECT, connection).invoke();
    }

    /** The probe times (forwarding probes: the forwarded request's) per member. */
    protected final LatencyStats<UUID> latencies() {
        return stats;
    }

    /** The pings of forwarding probes per member (empty otherwise). */
    protected final LatencyStats<UUID> pings() {
        return pingStats;
    }

    /** The probe object's CP group id, looked up once through the public API (a call the balancer itself routes). */
    private RaftGroupId groupId() {
        RaftGroupId id = groupId;
        if (id == null) {
            AtomicLongProxy proxy = (AtomicLongProxy) client.getCPSubsystem().getAtomicLong(PROBE_OBJECT + "@" + settings.cpGroup());
            id = (RaftGroupId) proxy.getGroupId();
            groupId = id;
        }
        return id;
    }

    private void problem(String message) {
        if (!message.equals(lastProblem)) {
            lastProblem = message;
            LOG.fine(message);
        }
    }

    /**
     * Draws conclusions from the probes so far. Runs on the prober thread after every probe.
     *
     * @param candidates the members passing the filter (never empty)
     */
    protected abstract void judge(LatencyStats<UUID> latencies, Member[] candidates);

    /** Whether the client holds a live connection to {@code member} (false while the balancer is unbound). */
    protected final boolean isConnected(Member member) {
        var check = binding.connected();
        return check != null && check.test(member);
    }

    /** Each member's median probe latency over the window, for members with enough samples; by address. */
    public Map<String, Duration> probeMedians() {
        Map<String, Duration> medians = new LinkedHashMap<>();
        LatencyStats<UUID> s = stats;
        if (s == null) {
            return medians;
        }
        Map<UUID, Long> byId = s.medians();
        for (Member member : getMembers()) {
            Long median = byId.get(member.getUuid());
            if (median != null) {
                medians.put(MemberFilter.address(member), Duration.ofNanos(median));
            }
        }
        return medians;
    }

    public long probesSent() {
        return probesSent.get();
    }

    public long probesFailed() {
        return probesFailed.get();
    }

    /** Whether to send probes now; the leader-aware balancer needs none while the members tell it who leads. */
    protected boolean wantsProbes() {
        return true;
    }

    /**
     * Waits until the balancer has reached its first conclusion ({@link #isSettled()}) and the fast probing after
     * start-up is over, so what follows is its steady state; for at most {@code timeout}.
     *
     * @return whether that happened in time
     */
    public boolean awaitSettled(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (isBound() && isSettled() && !inBurst()) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /** Whether every connected member passing the filter has enough recent probe samples to be judged. */
    protected final boolean everyConnectedMemberMeasured() {
        Map<String, Duration> medians = probeMedians();
        int connected = 0;
        for (Member member : passing()) {
            if (isConnected(member)) {
                connected++;
                if (!medians.containsKey(MemberFilter.address(member))) {
                    return false;
                }
            }
        }
        return connected > 0;
    }

    /** Whether the balancer has reached its first conclusion (the subclass says what that is); thread-safe. */
    protected abstract boolean isSettled();

    @Override
    public String toString() {
        return super.toString() + " " + settings;
    }
}
