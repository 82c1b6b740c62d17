package io.cpbench.bench.cli;

import io.cpbench.bench.agents.Agent;
import io.cpbench.bench.agents.ControlCluster;
import io.cpbench.bench.agents.ControlSecret;
import io.cpbench.bench.service.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
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
                "  cpbench agent --new-secret        (once; then copy ~/.cpbench/control.secret to every client host)",
                "  cpbench agent --control 10.0.1.11:5801,10.0.1.12:5801 --bind 10.0.1.11 --name client-1",
                "  cpbench load --agent-hosts 10.0.1.11,10.0.1.12 --control-bind 10.0.1.11 ...   (on 10.0.1.11)"})
final class AgentCommand implements Callable<Integer> {

    @Option(names = "--control", split = ",", paramLabel = "HOST:PORT",
            description = "Members of the control cluster to join: the coordinator, or, for agents started by hand, every"
                    + " agent's address (they form the control cluster, and 'load --agent-hosts' joins it).")
    List<String> control;

    @Option(names = "--secret-file", paramLabel = "FILE",
            description = "The secret this agent shares with its coordinator, in a file only its owner may read: the same"
                    + " file on every agent host and on the coordinator's (default: ~/.cpbench/control.secret). Without"
                    + " it nobody can join the control cluster, and so nobody can drive this agent.")
    Path secretFile;

    @Option(names = "--new-secret",
            description = "Write a new random secret to --secret-file (owner-only), print where, and exit; copy that file"
                    + " to each agent host and to the coordinator's.")
    boolean newSecret;

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

    /**
     * An agent's log (its standard output) says each thing once, on one line: what a stranger tried and was refused
     * (a task off the control cluster's allow-list, say) is a line with the refusal's root cause, not a stack trace.
     */
    static void oneLineLogs() {
        java.util.logging.Formatter oneLine = new java.util.logging.Formatter() {
            @Override
            public String format(java.util.logging.LogRecord r) {
                Throwable cause = r.getThrown();
                while (cause != null && cause.getCause() != null && cause.getCause() != cause) {
                    cause = cause.getCause();
                }
                return String.format(java.util.Locale.ROOT, "%1$tF %1$tT %2$s %3$s: %4$s%5$s%n", r.getMillis(),
                        r.getLevel().getName(), r.getLoggerName(), formatMessage(r).replace('\n', ' '),
                        cause == null ? "" : " (" + cause.getClass().getName() + ": " + cause.getMessage() + ")");
            }
        };
        for (java.util.logging.Handler handler : java.util.logging.Logger.getLogger("").getHandlers()) {
            handler.setFormatter(oneLine);
        }
    }

    @Override
    public Integer call() throws Exception {
        Path file = secretFile != null ? secretFile : ControlSecret.DEFAULT_FILE;
        if (newSecret) {
            ControlSecret.generate().writeTo(file);
            System.out.println("wrote a new control secret to " + file + " (mode rw-------); copy it to each agent host and"
                    + " to the coordinator's, as the same path or with --secret-file");
            return ExitCodes.OK;
        }
        if (control == null || control.isEmpty()) {
            throw new IllegalArgumentException("--control is required: the control cluster's members (HOST:PORT,...)");
        }
        if (port < 1024 || port > 65_000) {
            throw new IllegalArgumentException("--port must be 1024-65000, was " + port);
        }
        for (String address : control) {
            if (!address.matches("[A-Za-z0-9.:\\[\\]-]+:\\d{1,5}")) {
                throw new IllegalArgumentException("--control " + address + ": expected HOST:PORT");
            }
        }
        ControlSecret secret = ControlSecret.read(file);
        oneLineLogs();
        String self = name != null ? name : java.net.InetAddress.getLocalHost().getHostName() + "-"
                + ProcessHandle.current().pid();
        // the jobs this agent ran, kept beside its secret (owner-only): a job replayed after a restart is refused too
        Path jobs = file.toAbsolutePath().resolveSibling("jobs-seen-" + self.replaceAll("[^A-Za-z0-9._-]", "_"));
        Agent agent = Agent.join(secret, control, bind, port, self, jobs, System.out);
        agent.serve(exitWithParent ? System.in : null);
        if (agent.failure() != null) {
            agent.close();
            System.err.println("cpbench agent: " + self + ": " + agent.failure());
            return ExitCodes.FAILED;
        }
        return ExitCodes.OK;
    }
}
