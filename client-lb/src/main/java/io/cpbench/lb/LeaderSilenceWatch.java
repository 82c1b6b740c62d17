package io.cpbench.lb;

import com.hazelcast.client.impl.connection.ClientConnection;
import com.hazelcast.cluster.Member;
import com.hazelcast.logging.ILogger;
import com.hazelcast.logging.Logger;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The leader-aware balancer's watch on silence ({@link ProbeSettings#leaderSilence()}): the leader's connection, and
 * for a window the connection of the leader before it. A silent leader starts a burst of questions to the other
 * members; a silent deposed leader's connection is closed, so the calls waiting on it end now. Its own class, apart
 * from how the leader is chosen (hint, latency, metrics): it only reads which member leads. Called on the balancer's
 * prober thread; ping answers arrive on response threads.
 */
final class LeaderSilenceWatch {

    /** Logged under the balancer's name, as before the watch had a class of its own. */
    private static final ILogger LOG = Logger.getLogger(LeaderAwareLoadBalancer.class);

    /** What the watch needs of its balancer. */
    interface Balancer {
        ProbeSettings settings();

        /** The member the balancer takes for the leader now, or null. */
        Member leader();

        ClientConnection connectionTo(Member member);

        boolean isConnected(Member member);

        /** A ping down {@code connection}; completes when the member answers or the connection drops. */
        CompletableFuture<?> ping(ClientConnection connection);

        /** Asks the members who leads every burst period for a while. */
        void burst();

        /** Whether the new leader's refresh is on its way: a close waits for it. */
        boolean refreshPending();
    }

    private final Balancer balancer;

    LeaderSilenceWatch(Balancer balancer) {
        this.balancer = balancer;
    }

    /**
     * A watched member (the leader, or a deposed leader) and the ping the balancer sent down its connection once it
     * had been quiet: {@code pingOut} is cleared on a response thread when the member answers or the connection drops.
     */
    private static final class Watch {
        final Member member;
        long pingedAt;
        volatile boolean pingOut;
        boolean suspected;

        Watch(Member member) {
            this.member = member;
        }
    }

    /** The leader's watch, and the last deposed leader's (prober thread only). */
    private Watch leaderWatch;
    private Watch deposedWatch;
    private long deposedAt;
    private final AtomicLong connectionsClosed = new AtomicLong();

    /**
     * Watches the leader's connection, and for a window the connection of the leader before it, through {@link
     * ProbeSettings#leaderSilence()}: a connection that has been quiet for half of it gets a ping; one whose ping has
     * gone unanswered for all of it is silent. A silent leader starts a burst, so the other members are asked who
     * leads every burst period; a silent deposed leader's connection is closed (see {@link #deposed}). Its dropping
     * does the same as silence.
     */
    void watch() {
        long silence = balancer.settings().leaderSilence().toNanos();
        if (silence == 0) {
            return;
        }
        Member current = balancer.leader();
        if (current == null) {
            leaderWatch = null;
        } else {
            if (leaderWatch == null || !leaderWatch.member.equals(current)) {
                leaderWatch = new Watch(current);
            }
            watch(leaderWatch, silence);
            if (isSilent(current) && !leaderWatch.suspected) {
                leaderWatch.suspected = true;
                balancer.burst();
                ClientConnection connection = balancer.connectionTo(current);
                LOG.info("leader-aware balancer: leader " + MemberFilter.address(current) + (connection == null
                        ? "'s connection dropped" : " has not answered a ping for " + balancer.settings().leaderSilence().toMillis()
                        + " ms") + "; asking the other members who leads every " + balancer.settings().burstPeriod().toMillis() + " ms");
            }
        }
        Watch old = deposedWatch;
        if (old != null) {
            if (System.nanoTime() - deposedAt > balancer.settings().window().toNanos() || !balancer.isConnected(old.member)) {
                deposedWatch = null;
            } else {
                watch(old, silence);
                closeIfSilent(old.member);
            }
        }
    }

    private void watch(Watch w, long silenceNanos) {
        ClientConnection connection = balancer.connectionTo(w.member);
        if (connection == null) {
            return;
        }
        long now = System.nanoTime();
        long quietNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(
                Math.max(0, System.currentTimeMillis() - connection.lastReadTimeMillis()));
        if (!w.pingOut && quietNanos >= silenceNanos / 2) {
            w.pingOut = true;
            w.pingedAt = now;
            balancer.ping(connection).whenComplete((response, error) -> w.pingOut = false);
        }
        if (!w.pingOut && w.suspected && quietNanos < silenceNanos / 2) {
            w.suspected = false;
        }
    }

    /** Whether {@code member}'s connection dropped, or a ping to it has gone unanswered for the silence setting. */
    boolean isSilent(Member member) {
        long silence = balancer.settings().leaderSilence().toNanos();
        if (silence == 0) {
            return false;
        }
        if (!balancer.isConnected(member)) {
            return true;
        }
        return unanswered(leaderWatch, member, silence) || unanswered(deposedWatch, member, silence);
    }

    private static boolean unanswered(Watch w, Member member, long silenceNanos) {
        return w != null && w.member.equals(member) && w.pingOut && System.nanoTime() - w.pingedAt >= silenceNanos;
    }

    /**
     * {@code previous} was the leader until now. If it is silent, its connection is closed at once: the calls waiting
     * on it (a stopped process answers none) end with {@code TargetDisconnectedException}, which Hazelcast retries
     * where that is safe and otherwise reports, so the application's next calls go to the new leader instead of
     * waiting for the client's heartbeat timeout (60 s by default). If it still answers (leadership was handed over),
     * it is watched for a window, and closed if it falls silent in that time.
     */
    void deposed(Member previous) {
        if (previous == null || balancer.settings().leaderSilence().isZero()) {
            return;
        }
        Watch w = leaderWatch != null && leaderWatch.member.equals(previous) ? leaderWatch : new Watch(previous);
        w.suspected = false;
        deposedWatch = w;
        deposedAt = System.nanoTime();
        closeIfSilent(previous);
    }

    private void closeIfSilent(Member member) {
        ClientConnection connection = balancer.connectionTo(member);
        if (connection == null || !isSilent(member) || balancer.refreshPending()) {
            return;
        }
        connectionsClosed.incrementAndGet();
        Member now = balancer.leader();
        String reason = "cp-bench leader-aware balancer: " + MemberFilter.address(member) + " has not answered a ping for "
                + balancer.settings().leaderSilence().toMillis() + " ms and the members name "
                + (now == null ? "another member" : MemberFilter.address(now)) + " as leader";
        LOG.info("leader-aware balancer: closing the connection to " + MemberFilter.address(member)
                + ", so the calls waiting on it end now (" + reason + ")");
        deposedWatch = null;
        connection.close(reason, null);
    }

    /** How many connections the watch closed because a deposed leader had fallen silent. */
    long connectionsClosed() {
        return connectionsClosed.get();
    }
}
