package io.cpbench.bench.cli;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the scenarios.",
        footer = {"", "Example:", "  cpbench list"})
final class ListCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        int width = java.util.stream.Stream.concat(Scenarios.all().stream(), Scenarios.extra().stream())
                .mapToInt(s -> s.name().length()).max().orElse(10);
        for (Scenario s : Scenarios.all()) {
            System.out.printf("%-" + width + "s  (%s)  %s%n", s.name(), s.network().code(), s.description());
        }
        System.out.println();
        System.out.println("Not in the default matrix (name them with --scenario; for load runs over several CP groups):");
        for (Scenario s : Scenarios.extra()) {
            System.out.printf("%-" + width + "s  (%s)  %s%n", s.name(), s.network().code(), s.description());
        }
        return 0;
    }
}
