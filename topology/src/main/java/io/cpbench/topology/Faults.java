package io.cpbench.topology;

import java.time.Duration;
import java.util.Collection;

/**
 * The faults a topology can inflict on its own members: what a nemesis uses. Every fault has its heal, and
 * {@link #healAll()} undoes whatever is in force (resumes paused members, heals partitions, removes delays), so
 * that nothing outlives a run: chaos runs call it on every way out, Ctrl-C included.
 */
public interface Faults {

    /** Which connections a partition cuts. */
    enum Cut {
        /** The member's connections to and from the other members. */
        MEMBERS,
        /** The connections clients opened to the member. */
        CLIENTS,
        /** Both. */
        BOTH;

        public boolean members() {
            return this != CLIENTS;
        }

        public boolean clients() {
            return this != MEMBERS;
        }
    }

    /** {@code kill -9}: no graceful leave. */
    void kill(MemberRef member);

    /**
     * Starts a killed member again, at the same address, and makes it a CP member again in place of its old
     * self (which is removed from CP Subsystem: without persistence, a restarted member is a new one).
     */
    void restart(MemberRef member, Duration timeout);

    /**
     * SIGSTOP. The member is resumed by {@link #resume}, by {@link #healAll}, and in any case after
     * {@code atMost}, even if this JVM is killed meanwhile.
     */
    void pause(MemberRef member, Duration atMost);

    /** SIGCONT. */
    void resume(MemberRef member);

    /**
     * Partitions the cluster into {@code side} and the rest: bytes stop flowing on the connections {@code cut}
     * names (between the sides, or from clients to {@code side}), until {@link #heal}.
     */
    void isolate(Collection<MemberRef> side, Cut cut);

    void heal();

    /** Delays every byte {@code member} sends by {@code delay}. */
    void slow(MemberRef member, Duration delay);

    void unslow();

    /** Undoes every fault in force but kills; never throws. */
    void healAll();

    /** How these faults are made, for results: "local processes: SIGKILL/SIGSTOP; partitions in the TCP proxy". */
    String method();
}
