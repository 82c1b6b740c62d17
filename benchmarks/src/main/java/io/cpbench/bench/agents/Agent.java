package io.cpbench.bench.agents;

import com.hazelcast.core.HazelcastInstance;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A load generator: a lite member of the control cluster that runs the load slices the coordinator sends
 * ({@link AgentTask}) until it is stopped. When the coordinator whose job it runs leaves the control cluster (it
 * ended, died or was cut off), the run in progress stops after its ops in flight, within its drain, and the agent
 * waits for the next run. When its own control member shuts down other than by {@link #close()} (it failed, or a
 * member of the control cluster shut the cluster down, which the allow-list refuses today), it stops and says so on one
 * line ({@link #failure}), and {@code cpbench agent} exits non-zero.
 */
public final class Agent implements AutoCloseable {

    private final HazelcastInstance control;
    private final String name;
    private final PrintStream console;
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile boolean closing;
    /** Why this agent cannot go on (its control member shut down under it); null while it can. */
    private volatile String failure;

    private Agent(HazelcastInstance control, String name, PrintStream console) {
        this.control = control;
        this.name = name;
        this.console = console;
        // Only the member that sent a run stops it by leaving: the job names it, under the seal. Another member that
        // calls itself a coordinator (attributes are what a member says of itself) stops nothing.
        ControlCluster.onLeave(control, member -> {
            if (AgentState.stopFrom(member.getUuid()) > 0) {
                console.println(name + ": the coordinator left the control cluster; stopping its run; waiting for the"
                        + " next run");
            } else if (ControlCluster.isCoordinator(member)) {
                console.println(name + ": a member that called itself a coordinator left (it sent this agent no run"
                        + " in progress): nothing stopped");
            }
        });
        control.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == com.hazelcast.core.LifecycleEvent.LifecycleState.SHUTTING_DOWN && !closing) {
                fail("its control member is shutting down, not by this agent (a member of the control cluster called"
                        + " Cluster.shutdown(), or the member failed)");
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

    private void fail(String why) {
        if (failure != null || closing) {
            return;
        }
        failure = why;
        console.println(name + ": " + why + "; stopping and exiting");
        AgentState.stop(null);
        closed.countDown();
    }

    /** Why this agent could not go on, or null: when set, the agent exits non-zero with it. */
    public String failure() {
        return failure;
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
                             java.nio.file.Path jobsFile, PrintStream console) {
        AgentState.secret(secret);
        if (jobsFile != null) {
            AgentState.rememberJobsIn(jobsFile);
        }
        HazelcastInstance control = ControlCluster.start(secret, bind, port, members, ControlCluster.AGENT, name);
        AgentState.identity(name, control.getCluster().getLocalMember().getUuid());
        Agent agent = new Agent(control, name, console);
        console.println(name + ": joined the control cluster at "
                + control.getCluster().getLocalMember().getAddress() + " (" + control.getCluster().getMembers().size()
                + " members); waiting for runs");
        return agent;
    }

    /**
     * Serves runs until {@link #close()}, or, when {@code input} is not null, until it ends (the parent went away).
     * The agent leaves the control cluster when the JVM ends (Ctrl-C, SIGTERM) too: it is a process of its own, not a
     * run, so this hook is its lifecycle.
     */
    public void serve(InputStream input) throws InterruptedException {
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "agent-shutdown"));
        await(input);
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
        closing = true;
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
