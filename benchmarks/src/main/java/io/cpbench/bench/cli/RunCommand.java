package io.cpbench.bench.cli;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Runs one scenario on a fresh cluster and writes its result.")
final class RunCommand extends SuiteCommand {

    @Option(names = "--scenario", paramLabel = "NAME", required = true, description = "Scenario to run (see 'cpbench list').")
    String scenario;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1", description = "Times to repeat it (default: ${DEFAULT-VALUE}).")
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
