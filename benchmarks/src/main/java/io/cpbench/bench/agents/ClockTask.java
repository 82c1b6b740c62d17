package io.cpbench.bench.agents;

import java.io.Serializable;
import java.util.concurrent.Callable;

/** Reads the agent's clock, in microseconds since the epoch: the coordinator's offset measurement. */
final class ClockTask implements Callable<Long>, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public Long call() {
        return AgentState.nowMicros();
    }
}
