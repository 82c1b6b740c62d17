package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.cluster.ClusterOptions;
import io.cpbench.bench.run.AbProtocol;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.service.ExitCodes;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.workload.PlantedSlowdown;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * One side of {@code cpbench ab}: a client of one build, on a cluster that {@code ab} started or reached, running
 * the scenario's op in the time slices {@code ab} hands it over standard input ({@link AbProtocol}). Not for users;
 * hidden from help.
 */
@Command(name = AbProtocol.COMMAND, hidden = true, mixinStandardHelpOptions = true,
        description = "One side of 'cpbench ab' (started by it; not for direct use).")
final class AbWorkerCommand implements Callable<Integer> {

    @Mixin
    ClusterOptions clusterOptions;

    @Option(names = "--scenario", required = true)
    String scenario;

    @Option(names = "--threads", defaultValue = "1")
    int threads;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        Scenario chosen = Scenarios.byName(scenario);
        ClusterChoice cluster = clusterOptions.choose(-1);
        Topology topology = cluster.start(null);
        SuiteOptions options = cluster.suiteOptions(-1, SuiteOptions.SEED_DELAY, ProbeSettings.defaults());
        try (ScenarioSession session = ScenarioSession.open(chosen, topology, options)) {
            AbProtocol.Ready ready = new AbProtocol.Ready(AbProtocol.VERSION, new CpBench.Version().getVersion()[0],
                    PlantedSlowdown.fraction(), ProcessHandle.current().pid(), session.memberVersion());
            AbProtocol.serve(session.op(), threads, ready,
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), out);
        } finally {
            topology.close();
        }
        return ExitCodes.OK;
    }
}
