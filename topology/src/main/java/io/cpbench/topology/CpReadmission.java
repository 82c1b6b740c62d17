package io.cpbench.topology;

import com.hazelcast.cluster.Address;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.cp.CPMember;
import com.hazelcast.cp.CPSubsystemManagementService;

import java.io.Serializable;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Runs on a restarted member (sent with {@code IExecutorService.submitToMember}): removes the CP member that had
 * this address before the restart (its old self, dead), then promotes this member to CP member in its place.
 * Returns what it did.
 */
public final class CpReadmission implements Callable<String>, HazelcastInstanceAware, Serializable {

    private static final long serialVersionUID = 1L;
    private static final long STEP_SECONDS = 30;

    private transient HazelcastInstance instance;

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.instance = hazelcastInstance;
    }

    @Override
    public String call() throws Exception {
        CPSubsystemManagementService cp = instance.getCPSubsystem().getCPSubsystemManagementService();
        if (instance.getCPSubsystem().getLocalCPMember() != null) {
            return "already a CP member";
        }
        Address self = instance.getCluster().getLocalMember().getAddress();
        String removed = "none";
        for (CPMember member : cp.getCPMembers().toCompletableFuture().get(STEP_SECONDS, TimeUnit.SECONDS)) {
            if (member.getAddress().equals(self)) {
                cp.removeCPMember(member.getUuid()).toCompletableFuture().get(STEP_SECONDS, TimeUnit.SECONDS);
                removed = member.getUuid().toString();
            }
        }
        cp.promoteToCPMember().toCompletableFuture().get(STEP_SECONDS, TimeUnit.SECONDS);
        return "removed old CP member " + removed + ", promoted " + instance.getCPSubsystem().getLocalCPMember().getUuid();
    }
}
