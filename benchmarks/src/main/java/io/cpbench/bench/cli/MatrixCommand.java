package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.run.UntilCi;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;

@Command(name = "matrix", mixinStandardHelpOptions = true,
        description = {"Runs several scenarios on one cluster in interleaved rounds, then prints and writes the table.",
                "Each round runs every scenario once, in an order rotated per round. Without --scenario: the 13 scenarios"
                        + " of 'cpbench list' that run by default."},
        footer = {"", "Examples:", "  cpbench matrix --quick                     (all 13 scenarios, 3 rounds, about 10 minutes)",
                "  cpbench matrix --scenario client-leader,client-lb,client-smart --rounds 5 --ops 50000",
                "  cpbench matrix --quick --strict || echo \"not clean: exit $?\"",
                "  cpbench matrix --scenario client-leader,client-follower,client-leader-aware --duration 5s --until-ci 5%%"})
final class MatrixCommand extends SuiteCommand {

    @picocli.CommandLine.Mixin
    ScenarioOption scenarioOption;

    @Option(names = "--rounds", paramLabel = "N", description = "Interleaved rounds, 1-1000 (default: 1; quick: 3).")
    Integer rounds;

    @Option(names = "--until-ci", paramLabel = "PCT",
            description = "Add interleaved rounds until every paired ratio's 95%% bootstrap CI half-width is at most"
                    + " PCT (e.g. 5%%), at least " + UntilCi.MIN_ROUNDS + " rounds; bounded by --max-rounds and --max-time.")
    String untilCiTarget;

    @Option(names = "--max-rounds", paramLabel = "N", defaultValue = "30",
            description = "With --until-ci: most rounds to run (default: ${DEFAULT-VALUE}).")
    int maxRounds;

    @Option(names = "--max-time", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "1h",
            description = "With --until-ci: no round starts if it would end past this (default: ${DEFAULT-VALUE}).")
    java.time.Duration maxTime;

    @Override
    UntilCi untilCi() {
        if (untilCiTarget == null) {
            return null;
        }
        if (rounds != null) {
            throw new IllegalArgumentException("give --rounds or --until-ci, not both (--until-ci runs at least "
                    + UntilCi.MIN_ROUNDS + " and at most --max-rounds)");
        }
        return new UntilCi(UntilCi.parseTarget(untilCiTarget), UntilCi.MIN_ROUNDS, maxRounds, maxTime);
    }

    @Override
    List<Scenario> scenarios() {
        return Scenarios.byNames(scenarioOption.names());
    }

    @Override
    boolean scenariosGiven() {
        return scenarioOption.given();
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
