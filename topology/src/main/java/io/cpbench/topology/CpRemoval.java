package io.cpbench.topology;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.cp.CPMember;
import com.hazelcast.cp.CPSubsystemManagementService;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Runs on a live member: removes from CP Subsystem the CP member that had {@code address} and has left the
 * cluster (a killed member). A restart must do this before the new process starts: while the old CP member is
 * listed, Hazelcast's leadership rebalance sees a live member at its address as soon as the new process joins, and
 * transfers leadership to the old, dead CP endpoint; the leader then refuses new ops (CannotReplicateException)
 * until the transfer times out. Seen in a chaos run: 10 s with no successful op, then a NullPointerException in
 * {@code LeadershipTransferTask} when the old member was removed.
 */
public final class CpRemoval implements Callable<String>, HazelcastInstanceAware, Serializable {

    private static final long serialVersionUID = 1L;
    private static final long STEP_SECONDS = 30;

    private final String address;
    private transient HazelcastInstance instance;

    public CpRemoval(String address) {
        this.address = address;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.instance = hazelcastInstance;
    }

    @Override
    public String call() throws Exception {
        for (Member m : instance.getCluster().getMembers()) {
            if (LeaderQuery.addressOf(m.getAddress()).equals(address)) {
                throw new IllegalStateException("member " + address + " has not left the cluster yet");
            }
        }
        CPSubsystemManagementService cp = instance.getCPSubsystem().getCPSubsystemManagementService();
        String removed = "none";
        for (CPMember member : cp.getCPMembers().toCompletableFuture().get(STEP_SECONDS, TimeUnit.SECONDS)) {
            if (LeaderQuery.addressOf(member.getAddress()).equals(address)) {
                cp.removeCPMember(member.getUuid()).toCompletableFuture().get(STEP_SECONDS, TimeUnit.SECONDS);
                removed = member.getUuid().toString();
            }
        }
        return "removed CP member " + removed;
    }

    /**
     * Removes the killed {@code dead} member's CP identity, run on one of {@code live}, trying again (the member
     * may not have left the cluster yet) until {@code timeout}.
     */
    static void forget(Leadership leadership, MemberRef dead, List<MemberRef> live, Duration timeout) {
        List<MemberRef> others = live.stream().filter(m -> m.index() != dead.index()).toList();
        if (others.isEmpty()) {
            throw new TopologyException("no live member to remove " + dead.address() + " from CP Subsystem");
        }
        try {
            leadership.runOnRetrying(attempt -> others.get(attempt % others.size()).address(), new CpRemoval(dead.address()), timeout);
        } catch (TopologyException e) {
            throw new TopologyException("could not remove the killed member " + dead.address() + " from CP Subsystem within "
                    + timeout.toSeconds() + " s: " + e.getMessage(), e);
        }
    }
}
