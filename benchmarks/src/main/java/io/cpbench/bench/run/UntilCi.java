package io.cpbench.bench.run;

import io.cpbench.core.load.Durations;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.ScenarioTable;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code matrix --until-ci 5%}: keep adding interleaved rounds until every paired ratio's 95 % bootstrap CI is
 * narrower than the target (half-width relative to the median), or a round or time cap is reached.
 *
 * @param target    the largest CI half-width accepted, as a fraction (0.05 for ±5 %)
 * @param minRounds rounds always run: with fewer, a bootstrap interval is the sample's range and can be narrow by luck
 * @param maxRounds rounds never exceeded
 * @param maxTime   no round starts when the last one's length would take the run past this
 */
public record UntilCi(double target, int minRounds, int maxRounds, Duration maxTime) {

    /** Under 6 values no interval of a median is a 95 % one ({@link io.cpbench.core.stats.Bootstrap#mostConfidence}). */
    public static final int MIN_ROUNDS = io.cpbench.core.stats.Bootstrap.VALUES_FOR_95;

    public UntilCi {
        if (!(target > 0 && target < 1)) {
            throw new IllegalArgumentException("--until-ci must be between 0% and 100% (e.g. 5%), was " + target * 100 + "%");
        }
        if (maxRounds < minRounds || maxRounds > 1000) {
            throw new IllegalArgumentException("--max-rounds must be " + minRounds + "-1000 with --until-ci, was " + maxRounds);
        }
        if (maxTime.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException("--max-time must be at least 1m, was " + Durations.human(maxTime));
        }
    }

    /** "5%", "2.5%" or "0.05". */
    public static double parseTarget(String text) {
        return io.cpbench.core.stats.Percent.parse(text, "--until-ci");
    }

    public String describe() {
        return String.format(Locale.ROOT, "rounds until every paired ratio's 95%% CI half-width is at most ±%.1f%%: at least %d,"
                + " at most %d rounds and %s", target * 100, minRounds, maxRounds, Durations.human(maxTime));
    }

    /** The widest of the ratios' CIs, or null when there is no ratio yet. */
    public static ScenarioTable.Ratio widest(List<RunResult> results) {
        return ScenarioTable.pairedRatiosWithinNetwork(results).stream()
                .max(Comparator.comparingDouble(r -> r.interval().relativeHalfWidth())).orElse(null);
    }

    /**
     * Whether to run another round, after {@code done} rounds that took {@code elapsed} in all; says why not.
     */
    public boolean another(int done, List<RunResult> results, Duration elapsed, PrintStream console) {
        ScenarioTable.Ratio widest = widest(results);
        String now = widest == null ? "no paired ratio yet"
                : String.format(Locale.ROOT, "widest CI ±%.1f%% (%s ÷ %s, n=%d)", widest.interval().relativeHalfWidth() * 100,
                widest.scenario(), widest.baseline(), widest.interval().n());
        Duration perRound = elapsed.dividedBy(Math.max(1, done));
        if (done >= minRounds && widest != null && widest.interval().relativeHalfWidth() <= target) {
            console.printf(Locale.ROOT, "until-ci: after %d rounds, %s: every ratio within ±%.1f%%; done%n", done, now, target * 100);
            return false;
        }
        if (done >= maxRounds) {
            console.printf(Locale.ROOT, "until-ci: after %d rounds, %s: round cap reached%n", done, now);
            return false;
        }
        if (elapsed.plus(perRound).compareTo(maxTime) > 0) {
            console.printf(Locale.ROOT, "until-ci: after %d rounds (%s), %s: another round (about %s) would pass --max-time %s%n",
                    done, Durations.human(elapsed.toSeconds()), now, Durations.human(perRound.toSeconds()),
                    Durations.human(maxTime));
            return false;
        }
        console.printf(Locale.ROOT, "until-ci: after %d round%s, %s; target ±%.1f%%: another round%n", done,
                done == 1 ? "" : "s", now, target * 100);
        return true;
    }

    /**
     * The fewest rounds (at least the minimum) after which {@code label}'s ratio was within the target, judging the
     * results of rounds 1..k as they stood then; 0 if it never was.
     */
    public int roundsNeeded(List<RunResult> results, String label, int rounds) {
        for (int k = minRounds; k <= rounds; k++) {
            int upTo = k;
            List<RunResult> firstK = results.stream().filter(r -> r.round() <= upTo).toList();
            for (ScenarioTable.Ratio ratio : ScenarioTable.pairedRatiosWithinNetwork(firstK)) {
                if (ratio.scenario().equals(label) && ratio.interval().relativeHalfWidth() <= target) {
                    return k;
                }
            }
        }
        return 0;
    }

    /** One line per ratio for the table's notes: reached the target or not, and with how many rounds. */
    public List<String> verdicts(List<RunResult> results) {
        List<String> lines = new ArrayList<>();
        int rounds = results.stream().mapToInt(RunResult::round).max().orElse(0);
        lines.add(String.format(Locale.ROOT, "--until-ci ±%.1f%%: %d round%s run", target * 100, rounds, rounds == 1 ? "" : "s"));
        for (ScenarioTable.Ratio ratio : ScenarioTable.pairedRatiosWithinNetwork(results)) {
            double width = ratio.interval().relativeHalfWidth();
            int needed = roundsNeeded(results, ratio.scenario(), rounds);
            lines.add(String.format(Locale.ROOT, "  %s ÷ %s: %.3f, 95%% CI %.3f–%.3f (±%.1f%%, %d paired rounds): %s",
                    ratio.scenario(), ratio.baseline(), ratio.interval().median(), ratio.interval().low(),
                    ratio.interval().high(), width * 100, ratio.interval().n(), width <= target
                            ? "target reached" + (needed > 0 ? ", first within it after " + needed + " rounds" : "")
                            : "NOT reached"));
        }
        return lines;
    }
}
