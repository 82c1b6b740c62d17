package io.cpbench.bench.agents;

import com.hazelcast.core.HazelcastInstance;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A load generator: a lite member of the control cluster that runs the load slices the coordinator sends
 * ({@link AgentTask}) until it is stopped. When the coordinator leaves the control cluster (it ended, died or was cut
 * off), the run in progress stops after its ops in flight, within its drain, and the agent waits for the next run.
 */
public final class Agent implements AutoCloseable {

    private final HazelcastInstance control;
    private final String name;
    private final CountDownLatch closed = new CountDownLatch(1);

    private Agent(HazelcastInstance control, String name, PrintStream console) {
        this.control = control;
        this.name = name;
        ControlCluster.onLeave(control, member -> {
            if (ControlCluster.isCoordinator(member)) {
                int n = AgentState.stop(null);
                console.println(name + ": the coordinator left the control cluster"
                        + (n > 0 ? "; stopping its run" : "") + "; waiting for the next run");
            }
        });
        control.getTopic(ControlCluster.STOPS).addMessageListener(m -> {
            String run = AgentState.open((String) m.getMessageObject());
            if (run == null) {
                console.println(name + ": refused a stop not sealed with this control cluster's secret");
            } else {
                AgentState.stop(run);
            }
        });
    }

    /**
     * Joins the control cluster.
     *
     * @param secret      the secret this agent shares with its coordinator
     * @param members     addresses (host:port) of its members, the coordinator's among them
     * @param bind        the address this agent binds and is reached at
     * @param port        the first port to try
     * @param name        this agent's name, unique in the control cluster
     */
    public static Agent join(ControlSecret secret, List<String> members, String bind, int port, String name,
                             PrintStream console) {
        AgentState.secret(secret);
        HazelcastInstance control = ControlCluster.start(secret, bind, port, members, ControlCluster.AGENT, name);
        Agent agent = new Agent(control, name, console);
        console.println(name + ": joined the control cluster at "
                + control.getCluster().getLocalMember().getAddress() + " (" + control.getCluster().getMembers().size()
                + " members); waiting for runs");
        return agent;
    }

    /** Blocks until {@link #close()}, or, when {@code input} is not null, until it ends (the parent went away). */
    public void await(InputStream input) throws InterruptedException {
        if (input != null) {
            Thread watch = new Thread(() -> {
                try {
                    while (input.read() >= 0) {
                        // nothing is sent; the end of the stream is the signal
                    }
                } catch (IOException e) {
                    // the parent is gone either way
                }
                close();
            }, "agent-parent-watch");
            watch.setDaemon(true);
            watch.start();
        }
        closed.await();
    }

    /** Stops any run in progress and leaves the control cluster. */
    @Override
    public void close() {
        AgentState.stop(null);
        try {
            control.shutdown();
        } catch (RuntimeException e) {
            // already down
        }
        closed.countDown();
    }

    public String name() {
        return name;
    }
}
