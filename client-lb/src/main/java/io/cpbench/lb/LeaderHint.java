package io.cpbench.lb;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.cp.CPGroup;
import com.hazelcast.cp.CPGroupId;
import com.hazelcast.cp.CPMember;
import com.hazelcast.cp.internal.RaftService;
import com.hazelcast.cp.internal.raft.impl.RaftEndpoint;
import com.hazelcast.cp.internal.raft.impl.RaftNode;
import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.spi.impl.NodeEngine;

import java.io.Serializable;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The member-side hint {@link LeaderAwareLoadBalancer} uses when the members have this class (the client-lb jar
 * on the members' classpath; cp-bench's own members have it): run on a member through an executor, it returns
 * the address ({@code host:port}) of the leader that member knows for one CP group, or null while it knows none.
 * Open-source Hazelcast has no public API for this, so it reads Raft internals (docs/hazelcast-facts.md, fact 6).
 */
public final class LeaderHint implements Callable<String>, HazelcastInstanceAware, Serializable {

    private static final long serialVersionUID = 1L;

    private final String group;
    /** Also point this member's forwarding at the leader its Raft node knows (see {@link #refreshForwarding}). */
    private final boolean refresh;
    private transient HazelcastInstance instance;

    public LeaderHint(String group) {
        this(group, false);
    }

    public LeaderHint(String group, boolean refresh) {
        this.group = group;
        this.refresh = refresh;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.instance = hazelcastInstance;
    }

    @Override
    public String call() throws Exception {
        NodeEngine engine = instance instanceof HazelcastInstanceProxy proxy ? proxy.getOriginal().node.getNodeEngine()
                : ((HazelcastInstanceImpl) instance).node.getNodeEngine();
        RaftService raft = engine.getService(RaftService.SERVICE_NAME);
        // The group as this member's copy of the CP metadata has it; asking the metadata group instead is a Raft query
        // to its leader, which waits out a stopped leader (the priority member leads every group): the hint would
        // then not come while it is needed most.
        CPGroup cpGroup = raft.getMetadataGroupManager().getActiveGroup(group);
        if (cpGroup == null) {
            cpGroup = raft.getCPGroup(group).get(5, TimeUnit.SECONDS);
        }
        if (cpGroup == null) {
            return null;
        }
        RaftNode node = raft.getRaftNode(cpGroup.id());
        RaftEndpoint leader = node == null ? null : node.getLeader();
        if (leader == null) {
            return null;
        }
        for (CPMember member : cpGroup.members()) {
            if (member.getUuid().equals(leader.getUuid())) {
                if (refresh) {
                    refreshForwarding(raft, cpGroup.id(), member);
                }
                return clientAddress(engine, member.getUuid(), member.getAddress());
            }
        }
        return null;
    }

    private static volatile java.lang.invoke.MethodHandle knownLeader;
    private static volatile java.lang.invoke.MethodHandle setKnownLeader;
    private static volatile boolean forwardingUnreachable;

    /**
     * Points this member's forwarding of the group's calls at {@code leader} when it still points at another member.
     * A member hands a client's CP call to the leader it last heard of from a call ({@code RaftInvocationContext}'s
     * known leader), not to the one its Raft node follows; an election does not update it (Hazelcast 5.4). So after a
     * leader stops without closing its connections (a paused process), every member, the new leader included, keeps
     * sending calls to the stopped one until it is declared dead: the calls a leader-aware client sends to the new
     * leader would wait as well. The balancer asks the new leader alone, with {@code refresh}, right after it has
     * found it.
     */
    static void refreshForwarding(RaftService raft, CPGroupId groupId, CPMember leader) {
        if (forwardingUnreachable) {
            return;
        }
        try {
            Object context = raft.getInvocationManager().getRaftInvocationContext();
            if (knownLeader == null) {
                var lookup = java.lang.invoke.MethodHandles.lookup();
                Class<?> type = context.getClass();
                var get = type.getDeclaredMethod("getKnownLeader", CPGroupId.class);
                var set = type.getDeclaredMethod("setKnownLeader", CPGroupId.class, CPMember.class);
                get.setAccessible(true);
                set.setAccessible(true);
                setKnownLeader = lookup.unreflect(set);
                knownLeader = lookup.unreflect(get);
            }
            Object known = knownLeader.invoke(context, groupId);
            if (!(known instanceof CPMember member && member.getUuid().equals(leader.getUuid()))) {
                setKnownLeader.invoke(context, groupId, leader);
            }
        } catch (Throwable e) {
            forwardingUnreachable = true; // Another Hazelcast version: the hint still names the leader.
        }
    }

    /**
     * The {@code host:port} clients know member {@code uuid} by. With advanced networking (members in containers, say)
     * clients reach a member elsewhere than members do, and CP members are known by their member address
     * ({@code memberAddress}); otherwise the two are the same.
     *
     * <p>{@code uuid} may be a CP member's, which is not its cluster member's UUID once the member was promoted into CP
     * after the start (a restarted member, say: {@code CPMember.getUuid()} "does not have to be same" as the member's),
     * so the member is then found by its member address, which a CP member shares with its cluster member.
     */
    public static String clientAddress(NodeEngine engine, java.util.UUID uuid, com.hazelcast.cluster.Address memberAddress) {
        com.hazelcast.cluster.Member member = engine.getClusterService().getMember(uuid);
        if (member == null) {
            member = engine.getClusterService().getMember(memberAddress);
        }
        com.hazelcast.cluster.Address address = member == null ? null
                : member.getAddressMap().get(com.hazelcast.instance.EndpointQualifier.CLIENT);
        if (address == null) {
            address = memberAddress;
        }
        return address.getHost() + ":" + address.getPort();
    }
}
