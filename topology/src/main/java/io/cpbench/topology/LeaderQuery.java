package io.cpbench.topology;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.cp.CPGroup;
import com.hazelcast.cp.CPMember;
import com.hazelcast.cp.internal.RaftService;
import com.hazelcast.cp.internal.raft.impl.RaftEndpoint;
import com.hazelcast.cp.internal.raft.impl.RaftNode;
import com.hazelcast.cp.internal.raft.impl.RaftNodeImpl;
import com.hazelcast.instance.impl.HazelcastInstanceImpl;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.spi.impl.NodeEngine;

import java.io.Serializable;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs on a member (sent with {@code IExecutorService.submitToMember}) and reports what that member believes
 * about a CP group ({@code default} unless named): its leader and term. No public API names the leader, so this reads
 * Hazelcast internals (docs/hazelcast-facts.md, fact 6); the members must have this class on their classpath, which every
 * cp-bench topology guarantees.
 */
public final class LeaderQuery implements Callable<LeaderQuery.Answer>, HazelcastInstanceAware, Serializable {

    private static final long serialVersionUID = 1L;
    private static final long TIMEOUT_SECONDS = 5;

    private transient HazelcastInstance instance;
    private final String groupName;

    /** Asks about the {@code default} group. */
    public LeaderQuery() {
        this(CPGroup.DEFAULT_GROUP_NAME);
    }

    /** Asks about the CP group {@code groupName}. */
    public LeaderQuery(String groupName) {
        this.groupName = groupName;
    }

    /**
     * @param reporter address of the member that answered
     * @param group    whether the {@code default} group exists yet (it is created on the first CP call)
     * @param leader   address of the leader this member knows, or null while it knows none
     * @param term     the member's current Raft term, or -1
     * @param priority the reporter's configured CP leadership priority
     */
    public record Answer(String reporter, boolean group, String leader, int term, int priority) implements Serializable {
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.instance = hazelcastInstance;
    }

    @Override
    public Answer call() throws Exception {
        NodeEngine engine = nodeEngine(instance);
        // Members and leaders by the address clients know them by (they differ with advanced networking).
        com.hazelcast.cluster.Member local = instance.getCluster().getLocalMember();
        String reporter = io.cpbench.lb.LeaderHint.clientAddress(engine, local.getUuid(), local.getAddress());
        int priority = instance.getConfig().getCPSubsystemConfig().getCPMemberPriority();
        RaftService raft = engine.getService(RaftService.SERVICE_NAME);
        CPGroup group;
        try {
            group = raft.getCPGroup(groupName == null ? CPGroup.DEFAULT_GROUP_NAME : groupName).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            // The METADATA group has no leader yet (a cluster still forming, or an election): the reporter and its
            // priority are still worth answering with, and callers that need a leader ask again.
            group = null;
        }
        if (group == null) {
            return new Answer(reporter, false, null, -1, priority);
        }
        RaftNode node = raft.getRaftNode(group.id());
        if (!(node instanceof RaftNodeImpl impl)) {
            return new Answer(reporter, true, null, -1, priority);
        }
        // Leader and term are read together on the Raft node's own thread, so they belong to one moment.
        CompletableFuture<Object[]> state = new CompletableFuture<>();
        impl.execute(() -> state.complete(new Object[]{impl.state().leader(), impl.state().term()}));
        Object[] leaderAndTerm = state.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        RaftEndpoint leader = (RaftEndpoint) leaderAndTerm[0];
        String leaderAddress = null;
        if (leader != null) {
            for (CPMember member : group.members()) {
                if (member.getUuid().equals(leader.getUuid())) {
                    leaderAddress = io.cpbench.lb.LeaderHint.clientAddress(engine, member.getUuid(), member.getAddress());
                }
            }
        }
        return new Answer(reporter, true, leaderAddress, (Integer) leaderAndTerm[1], priority);
    }

    static String addressOf(com.hazelcast.cluster.Address address) {
        return address.getHost() + ":" + address.getPort();
    }

    private static NodeEngine nodeEngine(HazelcastInstance instance) {
        if (instance instanceof HazelcastInstanceProxy proxy) {
            return proxy.getOriginal().node.getNodeEngine();
        }
        if (instance instanceof HazelcastInstanceImpl impl) {
            return impl.node.getNodeEngine();
        }
        throw new IllegalStateException("not a Hazelcast member: " + instance.getClass().getName());
    }
}
