package io.cpbench.lb;

import com.hazelcast.client.impl.connection.ClientConnection;
import com.hazelcast.cluster.Member;
import com.hazelcast.logging.ILogger;
import com.hazelcast.logging.Logger;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Sends every call to the CP group's leader: the open-source counterpart of Enterprise's direct-to-leader routing,
 * and the "sticky leader" client. Open-source Hazelcast names the leader nowhere a client can read (docs/hazelcast-facts.md,
 * fact 6). Where the members have the {@link LeaderHint} class (the client-lb jar on their classpath), the
 * balancer asks one member a probe period who leads and follows that at once. Otherwise it finds the leader by
 * latency: it probes every member (see {@link ProbingLoadBalancer}), and the
 * leader answers fastest, because only it needs no forwarding hop. Members are compared by their fastest tenth of
 * probes in the window ({@link #QUANTILE}): a busy machine only ever adds delay, so that shows the fixed cost of the
 * path. It first chooses once every connected member has been measured. While probing runs fast (after start-up,
 * a membership change, or the leader's connection dropping) it follows the fastest member directly; after that it
 * sticks, and moves only when another member has been {@link ProbeSettings#switchMargin()} faster for two probe
 * periods (leadership moved).
 *
 * <p>With {@link ProbeSettings#sticky()} false it probes the same way but sends calls round robin over all members:
 * the comparison that shows what stickiness buys.
 */
public class LeaderAwareLoadBalancer extends ProbingLoadBalancer {

    private static final ILogger LOG = Logger.getLogger(LeaderAwareLoadBalancer.class);

    /** Leader detection compares each member's fastest tenth of probes: the path's fixed cost, not the noise. */
    static final double QUANTILE = 0.1;

    private volatile Member leader;
    /** A member clearly faster than the leader, and since when (prober thread only). */
    private Member challenger;
    private long challengerSince;
    private final AtomicLong changes = new AtomicLong();

    /** For configuration by class name: settings and filter from the client's properties. */
    public LeaderAwareLoadBalancer() {
        super(null, null);
    }

    public LeaderAwareLoadBalancer(ProbeSettings settings) {
        this(MemberFilter.all(), settings);
    }

    public LeaderAwareLoadBalancer(MemberFilter filter, ProbeSettings settings) {
        super(java.util.Objects.requireNonNull(filter, "filter"), java.util.Objects.requireNonNull(settings, "settings"));
    }

    @Override
    protected Member choose(Member[] candidates, Predicate<Member> connected) {
        Member current = leader;
        if (current != null && settings().sticky() && connected.test(current)) {
            return current;
        }
        return roundRobin(candidates, connected);
    }

    @Override
    protected void membersChanged(Member removed) {
        Member current = leader;
        if (removed != null && current != null && removed.getUuid().equals(current.getUuid())) {
            leader = null;
        }
        super.membersChanged(removed);
    }

    @Override
    protected void judge(LatencyStats<UUID> latencies, Member[] candidates) {
        silence.watch();
        if (settings().leaderHint() && !hint.unavailable()) {
            hint.ask(candidates);
            Member hinted = hint.leader(candidates);
            if (hinted != null) {
                challenger = null;
                if (!hinted.equals(leader)) {
                    Member previous = leader;
                    leader = hinted;
                    source = "members' hint";
                    changes.incrementAndGet();
                    LOG.info("leader-aware balancer: leader is now " + MemberFilter.address(hinted) + " (was "
                            + (previous == null ? "none" : MemberFilter.address(previous)) + "), as the members say");
                    if (previous != null && !settings().leaderSilence().isZero()) {
                        hint.refreshOn(hinted);
                    }
                    silence.deposed(previous);
                }
                return;
            }
        }
        judgeByLatency(candidates);
    }

    /** The executor the hints run on, on the members. */
    public static final String HINT_EXECUTOR = "__cpbench_lb_hint";

    /** The members' word on who leads, where they have {@link LeaderHint} (prober thread; answers on response threads). */
    private final MembersHint hint = new MembersHint(new MembersHint.Balancer() {
        @Override
        public ProbeSettings settings() {
            return LeaderAwareLoadBalancer.this.settings();
        }

        @Override
        public com.hazelcast.core.HazelcastInstance client() {
            return LeaderAwareLoadBalancer.this.client();
        }

        @Override
        public boolean isConnected(Member member) {
            return LeaderAwareLoadBalancer.this.isConnected(member);
        }

        @Override
        public boolean inBurst() {
            return LeaderAwareLoadBalancer.this.inBurst();
        }

        @Override
        public boolean isSilent(Member member) {
            return silence.isSilent(member);
        }
    });

    /** The leader's connection watched for silence, and a deposed leader's for a window (prober thread). */
    private final LeaderSilenceWatch silence = new LeaderSilenceWatch(new LeaderSilenceWatch.Balancer() {
        @Override
        public ProbeSettings settings() {
            return LeaderAwareLoadBalancer.this.settings();
        }

        @Override
        public Member leader() {
            return leader;
        }

        @Override
        public ClientConnection connectionTo(Member member) {
            return LeaderAwareLoadBalancer.this.connectionTo(member);
        }

        @Override
        public boolean isConnected(Member member) {
            return LeaderAwareLoadBalancer.this.isConnected(member);
        }

        @Override
        public java.util.concurrent.CompletableFuture<?> ping(ClientConnection connection) {
            return LeaderAwareLoadBalancer.this.ping(connection);
        }

        @Override
        public void burst() {
            LeaderAwareLoadBalancer.this.burst();
        }

        @Override
        public boolean refreshPending() {
            return hint.refreshPending();
        }
    });

    /** How many connections the balancer closed because a deposed leader had fallen silent. */
    public long connectionsClosed() {
        return silence.connectionsClosed();
    }


    /** Whether the leader was last chosen from the members' own word (true) or by latency (false). */
    public boolean usesMemberHint() {
        return hint.available();
    }

    /**
     * Each member's forwarding cost: the fastest tenth of its forwarded requests less the fastest tenth of its pings,
     * for members measured both ways. The leader's is near zero (it answers itself); a follower's is one member round
     * trip. Subtracting the ping takes out how busy the member's client connection is, which otherwise makes the
     * member the application already uses look fastest.
     */
    private Map<UUID, Long> forwardingCosts() {
        Map<UUID, Long> forwarded = latencies().quantiles(QUANTILE);
        Map<UUID, Long> pings = pings().quantiles(QUANTILE);
        Map<UUID, Long> costs = new java.util.HashMap<>();
        forwarded.forEach((id, nanos) -> {
            Long ping = pings.get(id);
            if (ping != null) {
                costs.put(id, Math.max(0, nanos - ping));
            }
        });
        return costs;
    }

    @Override
    protected boolean forwardingProbes() {
        return true;
    }

    private void judgeByLatency(Member[] candidates) {
        pollMetrics(candidates);
        Map<UUID, Long> costs = forwardingCosts();
        Ranking ranking = rank(candidates, costs);
        if (ranking == null) {
            challenger = null;
            return; // Judge only when every connected member has been measured.
        }
        Member best = ranking.best();
        Member current = leader;
        if (current != null && lostItsLead(current, cheapestOther(costs, current))) {
            return;
        }
        if (best == null || best.equals(current)) {
            challenger = null;
            return;
        }
        boolean currentUsable = current != null && isConnected(current);
        if (current != null && !currentUsable) {
            burst(); // The leader's connection dropped: measure everyone afresh, fast.
        }
        boolean clear = ranking.measured() == 1 || ranking.bestCost() < (1.0 - settings().switchMargin()) * ranking.secondCost();
        if (!clear && inBurst()) {
            Member named = metricsLeader(candidates);
            if (named == null || !named.equals(best)) {
                return; // No member stands out yet: keep measuring (calls go round robin meanwhile).
            }
        }
        if (currentUsable && !cheaperForLongEnough(best, ranking.bestCost(), costs.get(current.getUuid()))) {
            return;
        }
        challenger = null;
        leader = best;
        changes.incrementAndGet();
        silence.deposed(current);
        Member named = metricsLeader(candidates);
        source = "forwarding probes" + (named == null ? "" : named.equals(best) ? ", metrics agree" : ", metrics named "
                + MemberFilter.address(named) + " (they can be a publication period old)");
        LOG.info("leader-aware balancer: leader is now " + MemberFilter.address(best) + " (was "
                + (current == null ? "none" : MemberFilter.address(current)) + "); forwarding cost (ms) "
                + describe(costs) + "; " + source);
    }

    /** The connected members by forwarding cost: the cheapest, its cost and the next one's, and how many were measured. */
    private record Ranking(Member best, long bestCost, long secondCost, int measured) {
    }

    /** The candidates ranked by {@code costs}; null while a connected member has no cost yet. */
    private Ranking rank(Member[] candidates, Map<UUID, Long> costs) {
        Member best = null;
        long bestCost = Long.MAX_VALUE;
        long secondCost = Long.MAX_VALUE;
        int measured = 0;
        for (Member member : candidates) {
            if (!isConnected(member)) {
                continue;
            }
            Long cost = costs.get(member.getUuid());
            if (cost == null) {
                return null;
            }
            measured++;
            if (cost < bestCost) {
                secondCost = bestCost;
                best = member;
                bestCost = cost;
            } else if (cost < secondCost) {
                secondCost = cost;
            }
        }
        return new Ranking(best, bestCost, secondCost, measured);
    }

    /**
     * Whether {@code best} has been clearly cheaper than the usable current leader (by the switch margin) for two
     * periods (at once in a burst): until then it is the challenger, and calls stay with the leader.
     */
    private boolean cheaperForLongEnough(Member best, long bestCost, long currentCost) {
        if (bestCost >= (1.0 - settings().switchMargin()) * currentCost) {
            challenger = null;
            return false; // Not clearly cheaper.
        }
        long now = System.nanoTime();
        if (inBurst()) {
            challenger = best;
            challengerSince = now - 2 * settings().period().toNanos();
        }
        if (!best.equals(challenger)) {
            challenger = best;
            challengerSince = now;
            return false;
        }
        return now - challengerSince >= 2 * settings().period().toNanos(); // else cheaper, but not yet long enough to rule out noise
    }

    /** Probes in a row that must all cost more than the cheapest member's usual before the leader is re-measured. */
    private static final int RECENT = 3;
    private long recheckedAt;

    /**
     * Whether the chosen leader's newest probes say it no longer leads, in which case every member is measured afresh.
     * The window's fastest tenth keeps a member that just lost leadership (a priority transfer, an election) looking
     * cheap for up to a whole window (10 s), since one sample from before is enough; its last few probes show the
     * forwarding hop it now adds at once. The newest forwards are judged against the newest pings on the same
     * connection, so a member busy with the application's calls does not look changed. A false alarm costs a burst of
     * probes; the choice after it needs the same clear separation as at start-up.
     */
    private boolean lostItsLead(Member current, long cheapestCost) {
        long now = System.nanoTime();
        if (cheapestCost == Long.MAX_VALUE || inBurst() || !isConnected(current) || now - recheckedAt < settings().window().toNanos()) {
            return false;
        }
        long[] forwards = latencies().latest(current.getUuid(), RECENT);
        long[] pings = pings().latest(current.getUuid(), RECENT);
        if (forwards.length < RECENT || pings.length < RECENT) {
            return false;
        }
        long recentCost = Math.max(0, java.util.Arrays.stream(forwards).min().orElseThrow()
                - java.util.Arrays.stream(pings).min().orElseThrow());
        if (recentCost * (1.0 - settings().switchMargin()) <= cheapestCost) {
            return false;
        }
        recheckedAt = now;
        LOG.info("leader-aware balancer: the last " + RECENT + " probes of " + MemberFilter.address(current) + " cost "
                + recentCost / 1000 + " us more than a ping, the cheapest member's usual " + cheapestCost / 1000
                + " us: measuring every member afresh");
        latencies().clear();
        pings().clear();
        burst();
        return true;
    }

    /** The lowest forwarding cost among the connected members other than {@code current}. */
    private long cheapestOther(Map<UUID, Long> costs, Member current) {
        long cheapest = Long.MAX_VALUE;
        for (Member member : getMembers()) {
            Long cost = costs.get(member.getUuid());
            if (cost != null && !member.equals(current) && isConnected(member)) {
                cheapest = Math.min(cheapest, cost);
            }
        }
        return cheapest;
    }

    /** How the current leader was found: the members' hint, or forwarding probes (and whether metrics agreed). */
    private volatile String source = "none";

    public String leaderSource() {
        return usesMemberHint() ? "members' hint" : source;
    }

    private volatile RaftMetrics metrics;
    private volatile boolean metricsUnavailable;
    private long metricsPolledAt;

    /** Reads the members' published Raft roles now and then (see {@link RaftMetrics}); a prior, never the last word. */
    private void pollMetrics(Member[] candidates) {
        long now = System.nanoTime();
        if (metricsUnavailable || now - metricsPolledAt < METRICS_POLL.toNanos()) {
            return;
        }
        metricsPolledAt = now;
        RaftMetrics reader = metrics;
        if (reader == null) {
            reader = new RaftMetrics(client(), settings().cpGroup());
            metrics = reader;
        }
        for (Member member : candidates) {
            if (isConnected(member)) {
                reader.read(member.getUuid()).whenComplete((reading, error) -> {
                    if (error != null && !metricsUnavailable) {
                        metricsUnavailable = true;
                        LOG.info("leader-aware balancer: cannot read the members' Raft metrics (" + error
                                + "); going by forwarding probes alone");
                    }
                });
            }
        }
    }

    private static final java.time.Duration METRICS_POLL = java.time.Duration.ofSeconds(2);

    /**
     * The member that last published itself as the group's LEADER, if no member has published a newer term since;
     * possibly a publication period old.
     */
    private Member metricsLeader(Member[] candidates) {
        RaftMetrics reader = metrics;
        if (reader == null) {
            return null;
        }
        Map<UUID, RaftMetrics.Reading> readings = reader.latest();
        RaftMetrics.Reading leading = null;
        int maxTerm = -1;
        for (RaftMetrics.Reading reading : readings.values()) {
            maxTerm = Math.max(maxTerm, reading.term());
            if (reading.leads() && (leading == null || reading.term() > leading.term())) {
                leading = reading;
            }
        }
        if (leading == null || leading.term() < maxTerm) {
            return null;
        }
        for (Member member : candidates) {
            if (member.getUuid().equals(leading.member())) {
                return member;
            }
        }
        return null;
    }

    private String describe(Map<UUID, Long> byId) {
        StringBuilder text = new StringBuilder("{");
        for (Member member : getMembers()) {
            Long nanos = byId.get(member.getUuid());
            if (nanos != null) {
                text.append(text.length() > 1 ? ", " : "").append(MemberFilter.address(member)).append('=')
                        .append(String.format(java.util.Locale.ROOT, "%.3f", nanos / 1e6));
            }
        }
        return text.append('}').toString();
    }

    @Override
    protected boolean isSettled() {
        return leader != null && (hint.fresh() || everyConnectedMemberMeasured());
    }

    /** While the members answer who leads, latency probes would only add load: send none. */
    @Override
    protected boolean wantsProbes() {
        return !hint.fresh();
    }

    /** The member taken for the leader now. */
    public Optional<Member> leader() {
        return Optional.ofNullable(leader);
    }

    /** How many times the balancer has chosen a leader (the first choice included). */
    public long leaderChanges() {
        return changes.get();
    }
}
