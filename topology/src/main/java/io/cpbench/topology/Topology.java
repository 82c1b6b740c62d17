package io.cpbench.topology;

import io.cpbench.topology.net.NetworkControl;

import java.util.List;
import java.util.Optional;

/**
 * A running CP cluster the suite can measure. Implementations differ only in how members come to be;
 * leadership is read the same way for all of them. Closing a topology stops every member it started.
 */
public interface Topology extends StartedMembers {

    /** Short name of the implementation, as written into results ("local", "embedded"). */
    String kind();

    String clusterName();

    /** All members this topology was started with, dead or alive, in index order. */
    List<MemberRef> members();

    /** The member with leadership priority, or null when no member has it (a cluster started with no priority). */
    default MemberRef priorityMember() {
        return members().stream().filter(MemberRef::priority).findFirst().orElse(null);
    }

    /** Reads and awaits the leader of the CP {@code default} group. */
    Leadership leadership();

    /** Switches between network (a) and (b), where this topology can; empty where it cannot. */
    default Optional<NetworkControl> network() {
        return Optional.empty();
    }

    /** The member network (b) slows down unless told otherwise: the last one, or the one an inventory marks slow. */
    default MemberRef defaultSlowMember() {
        return members().get(members().size() - 1);
    }

    /** The faults this topology can inflict on its members (kill, pause, partition, slow); empty where it cannot. */
    default Optional<Faults> faults() {
        return Optional.empty();
    }

    /** Stops a member abruptly, as {@code kill -9} would: no graceful leave. */
    void kill(MemberRef member);

    boolean isAlive(MemberRef member);

    /**
     * By default a topology closes itself when the JVM shuts down (Ctrl-C), so no member outlives its creator.
     * A caller that must finish work first on shutdown (write a result, then stop the members) takes that over
     * with this call, and must then close the topology on its own shutdown path.
     */
    @Override
    default void takeOverShutdown() {
    }

    /** Stops every member; never throws. */
    @Override
    void close();
}
