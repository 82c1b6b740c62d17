package io.cpbench.bench.suite;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.core.result.RunResult;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;

/**
 * Runs scenarios in interleaved rounds on one cluster. Each round runs every scenario once, in an order rotated
 * by one per round, so that no scenario always runs first (cold) or last; comparisons are then made between runs
 * of the same round.
 */
public final class Matrix {

    private Matrix() {
    }

    /** The units in the order of {@code round}: rotated by one per round. */
    public static <T> List<T> orderForRound(List<T> units, int round) {
        List<T> order = new ArrayList<>();
        int shift = (round - 1) % units.size();
        for (int i = 0; i < units.size(); i++) {
            order.add(units.get((i + shift) % units.size()));
        }
        return order;
    }

    /** One unit's run in one round. */
    public interface Step<T> {
        void run(int round, T unit);
    }

    /**
     * The round loop every harness shares: each round runs every unit once, in {@link #orderForRound} order, until
     * {@code maxRounds} are done, {@code stopped} says so, or, before each round after the first, {@code another}
     * (asked with the number of rounds done) says no more are needed.
     *
     * @return the number of rounds started
     */
    public static <T> int rounds(List<T> units, int maxRounds, BooleanSupplier stopped, IntPredicate another, Step<T> step) {
        int started = 0;
        for (int round = 1; round <= maxRounds && !stopped.getAsBoolean(); round++) {
            if (round > 1 && !another.test(round - 1)) {
                break;
            }
            started++;
            for (T unit : orderForRound(units, round)) {
                if (stopped.getAsBoolean()) {
                    break;
                }
                step.run(round, unit);
            }
        }
        return started;
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
        rounds(scenarios, maxRounds, runner::stopped, another, (round, scenario) -> {
            before.accept(round, scenario);
            RunResult result = runner.run(scenario, round);
            results.add(result);
            after.accept(round, result);
        });
        return results;
    }
}
