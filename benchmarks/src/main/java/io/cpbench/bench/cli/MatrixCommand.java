package io.cpbench.bench.cli;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;

@Command(name = "matrix", mixinStandardHelpOptions = true,
        description = {"Runs several scenarios on one cluster in interleaved rounds, then prints and writes the table.",
                "Each round runs every scenario once, in an order rotated per round."})
final class MatrixCommand extends SuiteCommand {

    @Option(names = "--scenarios", paramLabel = "NAME", split = ",",
            description = "Scenarios to run, comma separated (default: all; see 'cpbench list').")
    List<String> names;

    @Option(names = "--rounds", paramLabel = "N", description = "Interleaved rounds (default: 1; quick: 3).")
    Integer rounds;

    @Override
    List<Scenario> scenarios() {
        return Scenarios.byNames(names);
    }

    @Override
    int rounds() {
        return rounds != null ? rounds : planOptions.quick ? 3 : 1;
    }

    @Override
    String commandName() {
        return "matrix";
    }
}
