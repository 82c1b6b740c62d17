package io.cpbench.lb;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.logging.ILogger;
import com.hazelcast.logging.Logger;

/**
 * The leader-aware balancer's first leader source: the members' own word, where they have {@link LeaderHint} (the
 * client-lb jar on their classpath). One connected member is asked, in turn, who leads once a probe period (a burst
 * period while the leader is suspect); an answer older than one already taken is dropped; members without the class
 * make the source unavailable for good, and the balancer then finds the leader by latency. After a change of leader it
 * asks the new leader with {@code refresh}, so that the calls that follow find it forwarding to itself. Called on the
 * balancer's prober thread; answers arrive on response threads.
 */
final class MembersHint {

    /** Logged under the balancer's name, as before the hint had a class of its own. */
    private static final ILogger LOG = Logger.getLogger(LeaderAwareLoadBalancer.class);

    /** What the hint needs of its balancer. */
    interface Balancer {
        ProbeSettings settings();

        HazelcastInstance client();

        boolean isConnected(Member member);

        /** Whether the balancer is asking often, its leader being suspect. */
        boolean inBurst();

        /** Whether {@code member} has stopped answering pings (it is not asked). */
        boolean isSilent(Member member);
    }

    private final Balancer balancer;

    MembersHint(Balancer balancer) {
        this.balancer = balancer;
    }

    private enum Hint { UNKNOWN, AVAILABLE, UNAVAILABLE }

    private volatile Hint hint = Hint.UNKNOWN;
    private volatile String hintedAddress;
    private volatile long hintedAt;
    private volatile long hintAskedAt;
    private final java.util.concurrent.atomic.AtomicInteger hintsInFlight = new java.util.concurrent.atomic.AtomicInteger();
    /** Questions are numbered; an answer older than the newest one taken is dropped (guarded by {@code this}). */
    private long hintsAsked;
    private long hintAnswerTaken;
    private int hintRotation;

    /**
     * Asks one connected member, in turn, who leads, once a probe period (a burst period while the leader is
     * suspect). A member that does not answer pings is skipped, and a question still unanswered does not hold up the
     * next one, which goes to another member: a stopped member would otherwise keep the balancer from learning that
     * another member was elected.
     */
    void ask(Member[] candidates) {
        long now = System.nanoTime();
        long every = (balancer.inBurst() ? balancer.settings().burstPeriod() : balancer.settings().period()).toNanos();
        if (now - hintAskedAt < every || hintsInFlight.get() >= candidates.length) {
            return;
        }
        Member target = null;
        for (int i = 0; i < candidates.length && target == null; i++) {
            Member member = candidates[Math.floorMod(hintRotation++, candidates.length)];
            if (balancer.isConnected(member) && !balancer.isSilent(member)) {
                target = member;
            }
        }
        if (target == null) {
            return;
        }
        long question;
        synchronized (this) {
            question = ++hintsAsked;
        }
        hintsInFlight.incrementAndGet();
        hintAskedAt = now;
        balancer.client().getExecutorService(LeaderAwareLoadBalancer.HINT_EXECUTOR).submitToMember(new LeaderHint(balancer.settings().cpGroup()), target,
                new com.hazelcast.core.ExecutionCallback<String>() {
                    @Override
                    public void onResponse(String address) {
                        hintsInFlight.decrementAndGet();
                        synchronized (MembersHint.this) {
                            if (question < hintAnswerTaken) {
                                return; // A newer question was answered first.
                            }
                            hintAnswerTaken = question;
                            hint = Hint.AVAILABLE;
                            hintedAddress = address;
                            hintedAt = System.nanoTime();
                        }
                    }

                    @Override
                    public void onFailure(Throwable t) {
                        hintsInFlight.decrementAndGet();
                        if (hint == Hint.UNKNOWN && missingClass(t)) {
                            hint = Hint.UNAVAILABLE;
                            LOG.info("leader-aware balancer: the members do not have " + LeaderHint.class.getName()
                                    + " (put the cpbench-client-lb jar on their classpath for it); finding the leader"
                                    + " by probe latency alone");
                        }
                    }
                });
    }

    /**
     * Asks {@code member} (the new leader) who leads, with {@code refresh}: its forwarding of calls then points at
     * itself before the calls that follow arrive, instead of at the leader before it (see {@link LeaderHint}).
     */
    void refreshOn(Member member) {
        refreshPendingUntil = System.nanoTime() + REFRESH_WAIT.toNanos();
        try {
            balancer.client().getExecutorService(LeaderAwareLoadBalancer.HINT_EXECUTOR).submitToMember(new LeaderHint(balancer.settings().cpGroup(), true), member,
                    new com.hazelcast.core.ExecutionCallback<String>() {
                        @Override
                        public void onResponse(String address) {
                            refreshPendingUntil = 0;
                        }

                        @Override
                        public void onFailure(Throwable t) {
                            refreshPendingUntil = 0;
                        }
                    });
        } catch (RuntimeException e) {
            refreshPendingUntil = 0; // The refresh is a help, not a condition: calls go to the new leader anyway.
        }
    }

    /** How long a silent deposed leader's connection stays open for the new leader's refresh to be answered. */
    private static final java.time.Duration REFRESH_WAIT = java.time.Duration.ofSeconds(1);
    /**
     * Until when a refresh of the new leader is on its way: the calls that closing the old connection sets free should
     * find the new leader forwarding to itself, so the close waits for it (prober thread reads, response thread clears).
     */
    private volatile long refreshPendingUntil;

    private static boolean missingClass(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ClassNotFoundException || c instanceof com.hazelcast.nio.serialization.HazelcastSerializationException
                    || String.valueOf(c.getMessage()).contains("ClassNotFoundException")) {
                return true;
            }
        }
        return false;
    }

    /** The member the latest fresh hint names, if it passes the filter and is connected. */
    Member leader(Member[] candidates) {
        String address = hintedAddress;
        if (address == null || !fresh()) {
            return null;
        }
        for (Member member : candidates) {
            if (MemberFilter.address(member).equals(address) && balancer.isConnected(member)) {
                return member;
            }
        }
        return null;
    }

    /** Whether the latest hint is recent enough to follow (three probe periods). */
    boolean fresh() {
        return hint == Hint.AVAILABLE && System.nanoTime() - hintedAt <= 3 * balancer.settings().period().toNanos();
    }

    /** Whether the members have answered who leads (the leader then comes from their word, not latency). */
    boolean available() {
        return hint == Hint.AVAILABLE;
    }

    /** Whether the members lack {@link LeaderHint}: the balancer finds the leader by latency alone. */
    boolean unavailable() {
        return hint == Hint.UNAVAILABLE;
    }

    /** Whether the new leader's refresh is on its way (a deposed leader's close waits for it). */
    boolean refreshPending() {
        return System.nanoTime() < refreshPendingUntil;
    }
}
