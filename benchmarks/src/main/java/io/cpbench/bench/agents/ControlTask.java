package io.cpbench.bench.agents;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;

import java.io.Serializable;

/**
 * A task that answers for the control member it runs on ({@link AdmitTask}, {@link ClockTask}): it seals its answer
 * with that member's own secret, which a member cp-bench did not start has not.
 */
abstract class ControlTask implements Serializable, HazelcastInstanceAware {

    private static final long serialVersionUID = 1L;
    protected transient HazelcastInstance control;

    @Override
    public void setHazelcastInstance(HazelcastInstance instance) {
        control = instance;
    }

    /** The secret of the member this runs on; null on a member cp-bench did not start. */
    protected ControlSecret secret() {
        return ControlCluster.secretOf(control);
    }
}
