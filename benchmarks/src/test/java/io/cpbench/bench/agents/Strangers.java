package io.cpbench.bench.agents;

import java.util.concurrent.Callable;

/** What a party in the control cluster without the secret can send, for the strangers test. */
public final class Strangers {

    private Strangers() {
    }

    /** An agent's task carrying {@code text} as its job, as given: unsealed, or with a seal the sender made up. */
    public static Callable<String> taskCarrying(String text) {
        return new AgentTask(text);
    }
}
