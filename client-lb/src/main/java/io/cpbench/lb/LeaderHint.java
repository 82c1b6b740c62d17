package io.cpbench.lb;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.cp.CPGroup;
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
 * Open-source Hazelcast has no public API for this, so it reads Raft internals (DESIGN.md, fact 6).
 */
public final class LeaderHint implements Callable<String>, HazelcastInstanceAware, Serializable {

    private static final long serialVersionUID = 1L;

    private final String group;
    private transient HazelcastInstance instance;

    public LeaderHint(String group) {
        this.group = group;
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
        CPGroup cpGroup = raft.getCPGroup(group).get(5, TimeUnit.SECONDS);
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
                return clientAddress(engine, member.getUuid(), member.getAddress());
            }
        }
        return null;
    }

    /**
     * The {@code host:port} clients know member {@code uuid} by. With advanced networking (members in containers, say)
     * clients reach a member elsewhere than members do, and CP members are known by their member address
     * ({@code memberAddress}); otherwise the two are the same.
     */
    public static String clientAddress(NodeEngine engine, java.util.UUID uuid, com.hazelcast.cluster.Address memberAddress) {
        com.hazelcast.cluster.Member member = engine.getClusterService().getMember(uuid);
        com.hazelcast.cluster.Address address = member == null ? null
                : member.getAddressMap().get(com.hazelcast.instance.EndpointQualifier.CLIENT);
        if (address == null) {
            address = memberAddress;
        }
        return address.getHost() + ":" + address.getPort();
    }
}
