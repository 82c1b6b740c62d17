package io.cpbench.bench.cli;

import io.cpbench.bench.agents.AgentPool;
import io.cpbench.bench.agents.ControlSecret;
import io.cpbench.bench.run.AbProtocol;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.service.RunService;
import io.cpbench.core.load.LoadSpec;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** {@code --agents}, {@code --agent-hosts}, {@code --control-bind}: a load split between load generators. */
final class AgentOptions implements RunService.Agents {

    @Option(names = "--agents", paramLabel = "N", defaultValue = "0",
            description = "Split each load between N load generators ('cpbench agent' processes this command starts on"
                    + " this machine, 1-16) that meet in a control cluster of their own; the result merges their"
                    + " histograms exactly and has a row per agent. Clients split between them (or one client's threads),"
                    + " and each stage's level (rate or workers). Network (a) scenarios only (default: 0, this process"
                    + " alone).")
    int agents;

    @Option(names = "--agent-hosts", paramLabel = "HOST[:PORT]", split = ",",
            description = "Instead of starting agents, use the ones already running there ('cpbench agent', started on"
                    + " each client host, for example by the lab); --agents defaults to how many are listed. The"
                    + " agents stay when the run ends and wait for the next one.")
    List<String> agentHosts = List.of();

    @Option(names = "--control-bind", paramLabel = "HOST", defaultValue = "127.0.0.1",
            description = "With --agent-hosts: this host's address in the control cluster, which the agents reach"
                    + " (default: ${DEFAULT-VALUE}, for agents on this machine; agents on other hosts need it set).")
    String controlBind;

    @Option(names = "--secret-file", paramLabel = "FILE",
            description = "With --agent-hosts: the secret shared with those agents, in a file only its owner may read, as"
                    + " 'cpbench agent --new-secret' writes it (default: ~/.cpbench/control.secret). Agents this command"
                    + " starts itself get a new secret of their own.")
    Path secretFile;

    /** With --agent-hosts: the secret, read by {@link #validate()}. */
    private ControlSecret secret;

    /**
     * Checks the options themselves and settles how many agents there are; returns it (0: no agents).
     *
     * @throws IllegalArgumentException on a bad host, a loopback --control-bind for agents elsewhere, or a count
     *                                  that is out of range or does not match the hosts
     */
    int validate() {
        if (!agentHosts.isEmpty()) {
            for (String host : agentHosts) {
                if (!host.matches("[A-Za-z0-9.-]+(:\\d{1,5})?") || host.contains(":")
                        && Integer.parseInt(host.substring(host.indexOf(':') + 1)) > 65_535) {
                    throw new IllegalArgumentException("--agent-hosts " + host + ": expected HOST or HOST:PORT");
                }
            }
            boolean allLoopback = agentHosts.stream().allMatch(h -> h.startsWith("127.") || h.startsWith("localhost"));
            if (!allLoopback && (controlBind.startsWith("127.") || controlBind.equals("localhost"))) {
                throw new IllegalArgumentException("--agent-hosts on other hosts need --control-bind: this host's address"
                        + " that they reach (the default, " + controlBind + ", is loopback)");
            }
            if (agents == 0) {
                agents = agentHosts.size();
            } else if (agents != agentHosts.size()) {
                throw new IllegalArgumentException("--agents " + agents + " but --agent-hosts lists " + agentHosts.size());
            }
            secret = ControlSecret.read(secretFile != null ? secretFile : ControlSecret.DEFAULT_FILE);
        }
        if (agents != 0 && (agents < 1 || agents > 16)) {
            throw new IllegalArgumentException("--agents must be 1-16, was " + agents);
        }
        return agents;
    }

    /**
     * Checks that {@code spec}, run as {@code scenario} ({@code what} names it in the error: "the load", "cell
     * r1-...") splits between the agents.
     */
    void checkSplits(LoadSpec spec, Scenario scenario, String what) {
        if (scenario.slowNetwork()) {
            throw new IllegalArgumentException("--agents runs network (a) scenarios only, not " + scenario.name()
                    + ": the slow member's links are emulated in this process");
        }
        try {
            io.cpbench.bench.agents.LoadSplit.split(spec, agents);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage());
        }
    }

    /** Joins the agents at --agent-hosts, or starts --agents of them on this machine (their logs in runDir/agents). */
    @Override
    public int count() {
        return agents;
    }

    @Override
    public AgentPool start(PrintStream console, Path runDir) {
        if (!agentHosts.isEmpty()) {
            console.printf(Locale.ROOT, "joining %d agent%s at %s ...%n", agents, agents == 1 ? "" : "s", String.join(", ", agentHosts));
            long start = System.nanoTime();
            AgentPool pool = AgentPool.remote(agentHosts, secret, controlBind, console);
            console.printf(Locale.ROOT, "%d agent%s in the control cluster after %.1f s: %s%n", agents, agents == 1 ? "" : "s",
                    (System.nanoTime() - start) / 1e9, String.join(", ", pool.agents().keySet()));
            return pool;
        }
        console.printf(Locale.ROOT, "starting %d agent%s on this machine ...%n", agents, agents == 1 ? "" : "s");
        long start = System.nanoTime();
        AgentPool pool = AgentPool.local(agents, AbProtocol.workerCommand(null, "--agents", List.of(), CpBench.class,
                AgentCommand.class), runDir.resolve("agents"), console);
        console.printf(Locale.ROOT, "%d agent%s joined the control cluster in %.1f s: %s%n", agents, agents == 1 ? "" : "s",
                (System.nanoTime() - start) / 1e9, String.join(", ", pool.agents().keySet()));
        return pool;
    }
}
