package io.cpbench.bench.suite;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.core.result.RunResult;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.IntPredicate;

/**
 * Runs scenarios in interleaved rounds on one cluster. Each round runs every scenario once, in an order rotated
 * by one per round, so that no scenario always runs first (cold) or last; comparisons are then made between runs
 * of the same round.
 */
public final class Matrix {

    private Matrix() {
    }

    public static List<Scenario> orderForRound(List<Scenario> scenarios, int round) {
        List<Scenario> order = new ArrayList<>();
        int shift = (round - 1) % scenarios.size();
        for (int i = 0; i < scenarios.size(); i++) {
            order.add(scenarios.get((i + shift) % scenarios.size()));
        }
        return order;
    }

    /**
     * @param before called before each scenario with (round, scenario)
     * @param after  called with each result as it is written
     * @return every result, in the order run; fewer than asked if the runner was stopped
     */
    public static List<RunResult> run(ScenarioRunner runner, List<Scenario> scenarios, int rounds,
                                      BiConsumer<Integer, Scenario> before, BiConsumer<Integer, RunResult> after) {
        return run(runner, scenarios, rounds, before, after, done -> true);
    }

    /**
     * As {@link #run(ScenarioRunner, List, int, BiConsumer, BiConsumer)}, but before each round after the first,
     * {@code another} is asked, with the number of rounds done, whether to run it: rounds until an answer is
     * known, never more than {@code maxRounds}.
     */
    public static List<RunResult> run(ScenarioRunner runner, List<Scenario> scenarios, int maxRounds,
                                      BiConsumer<Integer, Scenario> before, BiConsumer<Integer, RunResult> after,
                                      IntPredicate another) {
        List<RunResult> results = new ArrayList<>();
        for (int round = 1; round <= maxRounds && !runner.stopped(); round++) {
            if (round > 1 && !another.test(round - 1)) {
                break;
            }
            for (Scenario scenario : orderForRound(scenarios, round)) {
                if (runner.stopped()) {
                    break;
                }
                before.accept(round, scenario);
                RunResult result = runner.run(scenario, round);
                results.add(result);
                after.accept(round, result);
            }
        }
        return results;
    }
}
