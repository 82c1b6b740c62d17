package io.cpbench.bench.cli;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;

@Command(name = "matrix", mixinStandardHelpOptions = true,
        description = {"Runs several scenarios on one cluster in interleaved rounds, then prints and writes the table.",
                "Each round runs every scenario once, in an order rotated per round."},
        footer = {"", "Examples:", "  cpbench matrix --quick                     (all 13 scenarios, 3 rounds, about 10 minutes)",
                "  cpbench matrix --scenarios client-leader,client-lb,client-smart --rounds 5 --ops 50000",
                "  cpbench matrix --quick --strict || echo \"not clean: exit $?\""})
final class MatrixCommand extends SuiteCommand {

    @Option(names = "--scenarios", paramLabel = "NAME", split = ",", completionCandidates = Completions.ScenarioNames.class,
            description = "Scenarios to run, comma separated (default: all; see 'cpbench list').")
    List<String> names;

    @Option(names = "--rounds", paramLabel = "N", description = "Interleaved rounds, 1-1000 (default: 1; quick: 3).")
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
