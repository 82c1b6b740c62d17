package io.cpbench.bench.cli;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Runs a scenario on a fresh cluster and writes its result; --scenario is required. With several"
                + " scenarios, each round runs each once, order rotated, as 'matrix' does."},
        footer = {"", "Examples:", "  cpbench run --scenario client-leader --quick",
                "  cpbench run --scenario client-lb --duration 60s --threads 8",
                "  cpbench run --scenario client-leader --topology attach --cluster-name stock --connect 127.0.0.1:5801"})
final class RunCommand extends SuiteCommand {

    @picocli.CommandLine.Mixin
    ScenarioOption scenarioOption;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1", description = "Times to repeat it, 1-1000 (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Override
    List<Scenario> scenarios() {
        if (!scenarioOption.given()) {
            throw new IllegalArgumentException("run needs --scenario NAME (see 'cpbench list')");
        }
        return Scenarios.byNames(scenarioOption.names());
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
