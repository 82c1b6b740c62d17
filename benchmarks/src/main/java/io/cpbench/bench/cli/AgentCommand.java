package io.cpbench.bench.cli;

import io.cpbench.bench.agents.Agent;
import io.cpbench.bench.agents.ControlCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** A load generator that waits for runs from a coordinator ({@code load --agents}). */
@Command(name = "agent", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a load generator: joins the control cluster (a small Hazelcast cluster of the coordinator and"
                + " its agents, never the cluster under test) and runs the slices of each load the coordinator sends,"
                + " until Ctrl-C or the end of its input.",
                "'load --agents N' starts N agents on this machine itself, and they end with it. Agents started by"
                        + " hand (on each client host) are used by 'load --agent-hosts'; they serve one run after another,"
                        + " and when a run's coordinator goes away they stop its load and wait for the next."},
        footer = {"", "Examples:",
                "  cpbench agent --control 10.0.1.11:5801,10.0.1.12:5801 --bind 10.0.1.11 --name client-1",
                "  cpbench load --agent-hosts 10.0.1.11,10.0.1.12 --control-bind 10.0.1.11 ...   (on 10.0.1.11)"})
final class AgentCommand implements Callable<Integer> {

    @Option(names = "--control", required = true, split = ",", paramLabel = "HOST:PORT",
            description = "Members of the control cluster to join: the coordinator, or, for agents started by hand, every"
                    + " agent's address (they form the control cluster, and 'load --agent-hosts' joins it).")
    List<String> control;

    @Option(names = "--control-name", paramLabel = "NAME", defaultValue = ControlCluster.DEFAULT_NAME,
            description = "The control cluster's name (default: ${DEFAULT-VALUE}).")
    String controlName;

    @Option(names = "--bind", paramLabel = "HOST", defaultValue = "127.0.0.1",
            description = "The address this agent binds and the others reach it at (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + ControlCluster.DEFAULT_PORT,
            description = "The first port to try for the control cluster, 1024-65000 (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--name", paramLabel = "NAME", description = "This agent's name, unique among the agents"
            + " (default: host name and process id).")
    String name;

    @Option(names = "--exit-with-parent", hidden = true,
            description = "Exit when standard input ends: the agents 'load --agents' starts go with it.")
    boolean exitWithParent;

    @Override
    public Integer call() throws Exception {
        if (port < 1024 || port > 65_000) {
            throw new IllegalArgumentException("--port must be 1024-65000, was " + port);
        }
        for (String address : control) {
            if (!address.matches("[A-Za-z0-9.:\\[\\]-]+:\\d{1,5}")) {
                throw new IllegalArgumentException("--control " + address + ": expected HOST:PORT");
            }
        }
        String self = name != null ? name : java.net.InetAddress.getLocalHost().getHostName() + "-"
                + ProcessHandle.current().pid();
        Agent agent = Agent.join(controlName, control, bind, port, self, System.out);
        Thread hook = new Thread(agent::close, "agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        agent.await(exitWithParent ? System.in : null);
        return ExitCodes.OK;
    }
}
