package io.cpbench.bench.cli;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Runs one scenario on a fresh cluster and writes its result.",
        footer = {"", "Examples:", "  cpbench run --scenario client-leader --quick",
                "  cpbench run --scenario client-lb --duration 60s --threads 8",
                "  cpbench run --scenario client-leader --topology attach --cluster-name stock --connect 127.0.0.1:5801"})
final class RunCommand extends SuiteCommand {

    @Option(names = "--scenario", paramLabel = "NAME", required = true, completionCandidates = Completions.ScenarioNames.class, description = "Scenario to run (see 'cpbench list').")
    String scenario;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1", description = "Times to repeat it, 1-1000 (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Override
    List<Scenario> scenarios() {
        return List.of(Scenarios.byName(scenario));
    }

    @Override
    int rounds() {
        return rounds;
    }

    @Override
    String commandName() {
        return "run";
    }
}
