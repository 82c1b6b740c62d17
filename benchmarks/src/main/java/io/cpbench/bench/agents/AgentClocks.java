package io.cpbench.bench.agents;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import io.cpbench.core.run.Driver;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The agents' clocks against the coordinator's, measured over the control cluster with a sealed nonce
 * ({@link ClockTask}): the shared start instant and every agent's history are corrected by them.
 */
final class AgentClocks {

    /** An agent whose clock is further off than this refuses the run: its start and its history could not be trusted. */
    static final double MAX_OFFSET_MS = 100;

    private final HazelcastInstance control;
    private final ControlSecret secret;

    AgentClocks(HazelcastInstance control, ControlSecret secret) {
        this.control = control;
        this.secret = secret;
    }

    /**
     * An agent's clock against the coordinator's.
     *
     * @param offsetMs      the agent's clock minus the coordinator's
     * @param uncertaintyMs half the round trip of the best measurement
     */
    public record Clock(String agent, double offsetMs, double uncertaintyMs) {
    }

    /**
     * Measures each agent's clock offset, in the order of {@code agents}: 5 round trips each, the one with the
     * shortest round trip kept.
     */
    List<Clock> measure(Map<String, Member> agents) {
        IExecutorService executor = control.getExecutorService(ControlCluster.EXECUTOR);
        List<Clock> clocks = new ArrayList<>();
        for (Map.Entry<String, Member> agent : agents.entrySet()) {
            Clock best = null;
            for (int i = 0; i < 5; i++) {
                String nonce = UUID.randomUUID().toString();
                long t0 = AgentState.nowMicros();
                String sealed = get(executor.submitToMember(new ClockTask(nonce), agent.getValue()), Duration.ofSeconds(5),
                        agent.getKey());
                long t1 = AgentState.nowMicros();
                Long answer = ClockTask.open(sealed, secret, nonce, agent.getValue().getUuid().toString());
                if (answer == null) {
                    throw new IllegalStateException(agent.getKey() + "'s clock reply is not sealed with the secret for"
                            + " this request: it cannot be measured");
                }
                long theirs = answer;
                Clock c = new Clock(agent.getKey(), (theirs - (t0 + t1) / 2.0) / 1000.0, (t1 - t0) / 2000.0);
                if (best == null || c.uncertaintyMs() < best.uncertaintyMs()) {
                    best = c;
                }
            }
            clocks.add(best);
        }
        return clocks;
    }

    /** Each agent's clock offset, printed; one over {@link #MAX_OFFSET_MS} refuses the run. */
    static List<Clock> checked(List<Clock> clocks, PrintStream console) {
        for (Clock c : clocks) {
            console.printf(Locale.ROOT, "    %s: clock %+.1f ms against the coordinator's (±%.1f ms)%n", c.agent(),
                    c.offsetMs(), c.uncertaintyMs());
            if (Math.abs(c.offsetMs()) > MAX_OFFSET_MS) {
                throw new IllegalStateException(c.agent() + "'s clock is " + Math.round(c.offsetMs()) + " ms off the"
                        + " coordinator's, over the bound of " + Math.round(MAX_OFFSET_MS) + " ms: synchronise the"
                        + " hosts' clocks (chrony or NTP) and run again");
            }
        }
        return clocks;
    }

    private static <T> T get(Future<T> future, Duration timeout, String agent) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + agent + "'s clock", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read " + agent + "'s clock: " + Driver.describe(e), e);
        }
    }
}
