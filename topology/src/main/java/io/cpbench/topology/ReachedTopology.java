package io.cpbench.topology;

import java.util.List;

/**
 * What the topologies of a cluster someone else started ({@link AttachedTopology}, {@link RemoteTopology}) share:
 * cp-bench reaches the members through its admin client, kills none of them, and on close stops only that client.
 */
abstract class ReachedTopology implements Topology {

    private final String clusterName;
    private final List<MemberRef> members;
    private final MemberRef priority;
    final Leadership leadership;

    ReachedTopology(String clusterName, List<MemberRef> members, MemberRef priority, Leadership leadership) {
        this.clusterName = clusterName;
        this.members = List.copyOf(members);
        this.priority = priority;
        this.leadership = leadership;
    }

    @Override
    public String clusterName() {
        return clusterName;
    }

    @Override
    public List<MemberRef> members() {
        return members;
    }

    @Override
    public MemberRef priorityMember() {
        return priority;
    }

    @Override
    public Leadership leadership() {
        return leadership;
    }

    @Override
    public void kill(MemberRef member) {
        throw new TopologyException("cp-bench did not start this cluster, so it does not kill its members");
    }

    @Override
    public boolean isAlive(MemberRef member) {
        return leadership.liveMembers().contains(member);
    }

    /** Stops the admin client; the members keep running. */
    @Override
    public void close() {
        leadership.close();
    }
}
