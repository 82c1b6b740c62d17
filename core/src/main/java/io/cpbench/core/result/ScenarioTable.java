package io.cpbench.core.result;

import io.cpbench.core.status.Status;

import io.cpbench.core.stats.Bootstrap;
import io.cpbench.core.stats.Censored;
import io.soabase.recordbuilder.core.RecordBuilder;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The seed's scenario table, rendered from result files only. With several rounds of a scenario, op/s and
 * duration are medians and the spread is shown; latency percentiles come from the rounds' histograms merged.
 */
public final class ScenarioTable {

    private ScenarioTable() {
    }

    /**
     * One scenario over its rounds.
     *
     * @param opsPerSecond median over rounds; {@code opsMin}/{@code opsMax} bound it
     * @param latency      percentiles of all rounds' ops together, µs
     * @param opsCi        the median op/s over rounds with its 95 % bootstrap interval
     */
    @RecordBuilder
    public record Row(String scenario, String network, int rounds, double durationSeconds, double opsPerSecond,
                      double opsMin, double opsMax, RunResult.Latency latency, long errors, String leader,
                      String status, Bootstrap.Interval opsCi) {

        /** Half the min-max range, relative to the median. */
        public double spread() {
            return opsPerSecond == 0 ? 0 : (opsMax - opsMin) / 2 / opsPerSecond;
        }
    }

    /** Rows in the order scenarios first appear. */
    public static List<Row> rows(List<RunResult> results) {
        Map<String, List<RunResult>> byScenario = new LinkedHashMap<>();
        for (RunResult result : results) {
            byScenario.computeIfAbsent(result.label(), k -> new ArrayList<>()).add(result);
        }
        List<Row> rows = new ArrayList<>();
        byScenario.forEach((scenario, runs) -> rows.add(row(scenario, runs)));
        return rows;
    }

    private static Row row(String scenario, List<RunResult> runs) {
        double[] ops = runs.stream().mapToDouble(r -> r.measured().opsPerSecond()).sorted().toArray();
        double[] durations = runs.stream().mapToDouble(r -> r.measured().durationSeconds()).sorted().toArray();
        Histogram merged = new Histogram(3);
        long errors = 0;
        Censored censored = null;
        for (RunResult run : runs) {
            merged.add(run.decodeHistogram());
            errors += run.measured().errors();
            censored = run.latencyMicros() == null ? censored : Censored.merge(censored, run.latencyMicros().censored());
        }
        return ScenarioTableRowBuilder.builder().scenario(scenario).network(runs.get(0).run().network())
                .rounds(runs.size()).durationSeconds(Bootstrap.median(durations)).opsPerSecond(Bootstrap.median(ops))
                .opsMin(ops[0]).opsMax(ops[ops.length - 1]).latency(RunResult.Latency.of(merged, censored))
                .errors(errors).leader(leader(runs)).status(status(runs)).opsCi(Bootstrap.median95(ops)).build();
    }

    private static String leader(List<RunResult> runs) {
        TreeMap<String, Integer> names = new TreeMap<>();
        for (RunResult run : runs) {
            String before = run.leader().before() == null ? "?" : run.leader().before().name();
            String after = run.leader().after() == null ? "?" : run.leader().after().name();
            names.merge((before.equals(after) ? before : before + "→" + after) + source(run.leader().before()), 1, Integer::sum);
        }
        return names.size() == 1 ? names.firstKey() : names.toString();
    }

    /** Where leadership was read, when not from cp-bench's exact per-member query: " (metrics)". */
    private static String source(RunResult.LeaderInfo leader) {
        return leader == null || leader.source() == null || leader.source().equals("members") ? "" : " (" + leader.source() + ")";
    }

    private static String status(List<RunResult> runs) {
        Map<Status, Integer> counts = new TreeMap<>();
        runs.forEach(run -> counts.merge(run.status(), 1, Integer::sum));
        if (counts.size() == 1) {
            return counts.keySet().iterator().next().name();
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((status, count) -> parts.add(status + "×" + count));
        return String.join(" ", parts);
    }

    /** The table as GitHub Markdown, columns padded so it also reads in a terminal. */
    public static String markdown(List<RunResult> results) {
        List<Row> rows = rows(results);
        boolean rounds = rows.stream().anyMatch(r -> r.rounds() > 1);
        List<String> header = new ArrayList<>(List.of("Scenario", "Network", "Duration(s)", "Op/s"));
        if (rounds) {
            header.add("Op/s 95% CI (rounds)");
        }
        header.addAll(List.of("p50 (µs)", "p99 (µs)", "p99.9 (µs)", "max (µs)", "errors", "leader", "status"));
        List<List<String>> cells = new ArrayList<>();
        for (Row row : rows) {
            List<String> line = new ArrayList<>(List.of(row.scenario(), "(" + row.network() + ")",
                    fmt("%.1f", row.durationSeconds()), fmt("%.0f", row.opsPerSecond())));
            if (rounds) {
                Bootstrap.Interval ci = row.opsCi();
                line.add(ci.n() < 2 ? fmt("– (n=%d)", ci.n())
                        : fmt("%.0f–%.0f ±%.1f%% (n=%d)", ci.low(), ci.high(), ci.relativeHalfWidth() * 100, ci.n()));
            }
            RunResult.Latency l = row.latency();
            line.addAll(List.of(micros(l, l.p50()), micros(l, l.p99()), micros(l, l.p999()),
                    micros(l, l.max()), Long.toString(row.errors()), row.leader(), row.status()));
            cells.add(line);
        }
        long censored = rows.stream().map(r -> r.latency().censored()).filter(java.util.Objects::nonNull)
                .mapToLong(Censored::ops).sum();
        // an interval of a median from under 6 rounds is the rounds' range at best, and not a 95 % one
        int fewest = rows.stream().mapToInt(r -> r.opsCi().n()).filter(n -> n >= 2).min().orElse(Integer.MAX_VALUE);
        String fewRounds = fewest >= Bootstrap.VALUES_FOR_95 ? "" : fmt("%nOp/s 95%% CI: from %d rounds, an interval holds"
                + " the median with at most %.1f%% confidence (1 - 2 x 0.5^%d); %d rounds or more give 95%%.%n", fewest,
                Bootstrap.mostConfidence(fewest) * 100, fewest, Bootstrap.VALUES_FOR_95);
        return MarkdownTable.render(header, cells) + fewRounds + (censored == 0 ? "" : fmt("%n≥: a lower bound. %,d op%s still in"
                + " flight when %s run ended %s counted at %s latency so far, not left out.%n", censored,
                censored == 1 ? "" : "s", censored == 1 ? "its" : "their", censored == 1 ? "is" : "are",
                censored == 1 ? "its" : "their"));
    }

    /**
     * Each scenario's op/s divided by the baseline's op/s in the same round, over the rounds: the interleaved,
     * paired comparison that a noisy machine allows. Rounds in which either run did not end OK are left out, and so
     * is a disturbed round ({@link Disturbed}: the scenario's own, or its baseline's), each named below the table.
     */
    public static String ratios(List<RunResult> results, String baseline) {
        return ratios(results, network -> baseline);
    }

    /**
     * As {@link #ratios(List, String)}, but each scenario against the baseline of its own network (the result marked
     * {@link RunResult#baselineOfItsNetwork()}), so a ratio shows the routing, not the network. A network without a marked
     * baseline gets no ratios.
     */
    public static String ratiosWithinNetwork(List<RunResult> results) {
        return ratios(results, baselinesByNetwork(results)::get);
    }

    /** Each network's baseline scenario, from the results marked as baseline. */
    static Map<String, String> baselinesByNetwork(List<RunResult> results) {
        Map<String, String> byNetwork = new java.util.HashMap<>();
        for (RunResult r : results) {
            if (r.baselineOfItsNetwork()) {
                byNetwork.putIfAbsent(r.run().network(), r.scenario());
            }
        }
        return byNetwork;
    }

    /**
     * One scenario's op/s over its baseline's, paired by round.
     *
     * @param interval median of the per-round ratios with its 95 % bootstrap interval
     * @param min      smallest per-round ratio
     * @param max      largest per-round ratio
     */
    public record Ratio(String scenario, String baseline, Bootstrap.Interval interval, double min, double max) {

        /** What the interval says: faster or slower than the baseline, or no difference shown at its precision. */
        public Reading reading() {
            if (interval.n() < 2) {
                return Reading.ONE_ROUND;
            }
            return interval.low() > 1 ? Reading.FASTER : interval.high() < 1 ? Reading.SLOWER : Reading.NO_DIFFERENCE_SHOWN;
        }

        /**
         * The smallest difference this run could have seen: the interval's half-width relative to its median (0.05 is
         * ±5 %); a true difference smaller than this may show as none. Infinite with one round.
         */
        public double resolution() {
            return interval.relativeHalfWidth();
        }

        /** Whether the whole interval lies within {@code band} of the baseline (0.03: 0.97-1.03): shown to be as fast. */
        public boolean within(double band) {
            return interval.n() >= 2 && interval.low() >= 1 - band && interval.high() <= 1 + band;
        }

        /**
         * About how many paired rounds in all would give an interval of half-width {@code target}, the width shrinking as
         * one over the square root of the rounds: this run's rounds when it is already that narrow, 0 when one round
         * cannot tell (no interval).
         */
        public int roundsFor(double target) {
            int n = interval.n();
            if (n < 2 || !Double.isFinite(resolution())) {
                return 0;
            }
            if (resolution() <= target) {
                return n;
            }
            double rounds = n * Math.pow(resolution() / target, 2);
            return rounds >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) Math.ceil(rounds - 1e-9);
        }

        /** {@code faster (+10.3 %)}, {@code slower (-35.2 %)}, {@code no difference shown (could see ±7.4 %)}. */
        public String readingText() {
            double change = (interval.median() - 1) * 100;
            return switch (reading()) {
                case FASTER -> fmt("faster (%+.1f%%)", change);
                case SLOWER -> fmt("slower (%+.1f%%)", change);
                case NO_DIFFERENCE_SHOWN -> fmt("no difference shown (could see ±%.1f%%)", resolution() * 100);
                case ONE_ROUND -> "one round: no interval";
            };
        }
    }

    /** How a paired ratio reads ({@link Ratio#reading()}). */
    public enum Reading { FASTER, SLOWER, NO_DIFFERENCE_SHOWN, ONE_ROUND }

    /**
     * The study's question: whether a topology's op/s are within this share of its network's leader-only baseline
     * (the seed's: 3 %). A ratio whose interval is wider than this cannot answer it, whatever its median.
     */
    public static final double QUESTION = 0.03;

    /**
     * What the ratios found, in words, for the summary's last lines: which scenarios were faster or slower than their
     * baseline, which showed no difference at this run's precision and how large a difference each could have seen,
     * which were shown to be within {@code band} (the study's question) and, when some interval is wider than that,
     * about how many rounds would answer it for every row. Empty without a ratio of two rounds or more.
     */
    public static List<String> findings(List<Ratio> ratios, double band) {
        List<Ratio> judged = ratios.stream().filter(r -> r.reading() != Reading.ONE_ROUND).toList();
        if (judged.isEmpty()) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        lines.add("What this run found (each scenario against its network's baseline, 95% intervals of the paired ratios):");
        int fewest = judged.stream().mapToInt(r -> r.interval().n()).min().orElseThrow();
        if (fewest < Bootstrap.VALUES_FOR_95) {
            // no interval of a median from so few rounds is a 95 % one, the bootstrap's included: say what they are
            lines.add(fmt("  With %d paired rounds these are not 95%% intervals: none from %d values can hold their median"
                    + " with more than %.1f%% confidence (all %d fall on one side of it %.1f%% of the time), so read"
                    + " every verdict below at that confidence; %d rounds or more give 95%% (--rounds, or --until-ci).",
                    fewest, fewest, Bootstrap.mostConfidence(fewest) * 100, fewest,
                    (1 - Bootstrap.mostConfidence(fewest)) * 100, Bootstrap.VALUES_FOR_95));
        }
        for (Reading reading : List.of(Reading.FASTER, Reading.SLOWER)) {
            List<String> rows = judged.stream().filter(r -> r.reading() == reading).map(r -> fmt("%s %.3f (%.3f–%.3f)",
                    r.scenario(), r.interval().median(), r.interval().low(), r.interval().high())).toList();
            if (!rows.isEmpty()) {
                lines.add("  " + (reading == Reading.FASTER ? "faster" : "slower") + " than the baseline: "
                        + String.join(", ", rows));
            }
        }
        List<String> none = judged.stream().filter(r -> r.reading() == Reading.NO_DIFFERENCE_SHOWN)
                .map(r -> fmt("%s (±%.1f%%)", r.scenario(), r.resolution() * 100)).toList();
        if (!none.isEmpty()) {
            lines.add("  no difference shown at this precision (a difference smaller than its ± could not show): "
                    + String.join(", ", none));
        }
        List<String> within = judged.stream().filter(r -> r.within(band)).map(Ratio::scenario).toList();
        lines.add(fmt("  within %.0f%% of the baseline (the study's question): %s", band * 100,
                within.isEmpty() ? "shown for none" : "shown for " + String.join(", ", within)));
        Ratio widest = judged.stream().max(java.util.Comparator.comparingDouble(Ratio::resolution)).orElseThrow();
        if (widest.resolution() > band) {
            int needed = judged.stream().mapToInt(r -> r.roundsFor(band)).max().orElse(0);
            lines.add(fmt("  This run cannot tell a %.0f%% difference for every row: its widest interval is ±%.1f%% (%s)"
                    + " after %d paired rounds; about %,d rounds would narrow it to ±%.0f%% (--until-ci %.0f%% runs"
                    + " rounds until then).", band * 100, widest.resolution() * 100, widest.scenario(),
                    widest.interval().n(), needed, band * 100, band * 100));
        } else if (fewest < Bootstrap.VALUES_FOR_95) {
            // narrow, but not at 95 %: the caveat above holds, and the question is not answered at the confidence asked
            lines.add(fmt("  Every interval is within ±%.0f%%, but from %d paired rounds none is a 95%% one: %d rounds or"
                    + " more would answer the question at 95%%.", band * 100, fewest, Bootstrap.VALUES_FOR_95));
        } else {
            lines.add(fmt("  Every interval is within ±%.0f%%: this run answers the question for every row.", band * 100));
        }
        return lines;
    }

    /** The paired ratios, each scenario against the baseline of its own network (see {@link #ratiosWithinNetwork}). */
    public static List<Ratio> pairedRatiosWithinNetwork(List<RunResult> results) {
        java.util.function.Function<String, String> baselineOf = baselinesByNetwork(results)::get;
        return pairedRatios(results, baselineOf, disturbed(results, baselineOf));
    }

    /** The paired ratios, every scenario against {@code baseline}. */
    public static List<Ratio> pairedRatios(List<RunResult> results, String baseline) {
        java.util.function.Function<String, String> baselineOf = network -> baseline;
        return pairedRatios(results, baselineOf, disturbed(results, baselineOf));
    }

    /**
     * A scenario's round that ran far off its other rounds (a cluster still warming, a client path not yet compiled, a
     * machine busy with something else): below {@link #DISTURBED_BELOW} of the median of its other OK rounds. Its
     * ratio would measure the disturbance, not the routing, so it is left out of that scenario's ratio; a disturbed
     * baseline leaves its whole round out of its network's ratios, as every ratio of that round is built on it. The
     * table names each, and a matrix runs such a round again (bounded).
     *
     * @param scenario     the scenario's label
     * @param opsPerSecond what it ran at in that round
     * @param othersMedian the median of its other rounds
     * @param ofBaseline   whether it is its network's baseline
     */
    public record Disturbed(String scenario, int round, double opsPerSecond, double othersMedian, boolean ofBaseline) {

        /**
         * {@code round 1 left out of the ratios: its baseline client-leader ran at 120 op/s, under half ...}, or for
         * another scenario {@code round 1 left out of client-lb's ratio: it ran at ...}.
         */
        public String line() {
            return String.format(Locale.ROOT, "round %d left out of %s ran at %,.0f op/s, under half the median of its"
                    + " other rounds (%,.0f op/s)", round, ofBaseline ? "the ratios: its baseline " + scenario
                    : scenario + "'s ratio: it", opsPerSecond, othersMedian);
        }
    }

    /** A round below this share of the median of the scenario's other rounds is disturbed. */
    public static final double DISTURBED_BELOW = 0.5;

    /** The disturbed rounds among {@code results}, each baseline against its own network's (see {@link Disturbed}). */
    public static List<Disturbed> disturbedWithinNetwork(List<RunResult> results) {
        return disturbed(results, baselinesByNetwork(results)::get);
    }

    /** Every scenario's disturbed rounds, baselines first, each in round order. */
    private static List<Disturbed> disturbed(List<RunResult> results, java.util.function.Function<String, String> baselineOf) {
        Map<String, Map<Integer, Double>> byScenario = new LinkedHashMap<>();
        Map<String, Boolean> isBaseline = new java.util.HashMap<>();
        for (RunResult r : results) {
            String baseline = baselineOf.apply(r.run().network());
            if (baseline != null && r.status() == Status.OK) {
                byScenario.computeIfAbsent(r.label(), k -> new java.util.TreeMap<>()).put(r.round(), r.measured().opsPerSecond());
                isBaseline.put(r.label(), r.scenario().equals(baseline));
            }
        }
        List<Disturbed> out = new ArrayList<>();
        byScenario.forEach((label, rounds) -> {
            if (rounds.size() < 2) {
                return;
            }
            rounds.forEach((round, ops) -> {
                double median = Bootstrap.median(rounds.entrySet().stream().filter(e -> !e.getKey().equals(round))
                        .mapToDouble(Map.Entry::getValue).sorted().toArray());
                if (ops < DISTURBED_BELOW * median) {
                    out.add(new Disturbed(label, round, ops, median, isBaseline.get(label)));
                }
            });
        });
        out.sort(java.util.Comparator.comparing((Disturbed d) -> !d.ofBaseline()));
        return out;
    }

    /** The paired ratios, the rounds {@code left} (disturbed) left out. */
    private static List<Ratio> pairedRatios(List<RunResult> results, java.util.function.Function<String, String> baselineOf,
                                            List<Disturbed> left) {
        java.util.Set<String> disturbed = new java.util.HashSet<>();
        left.forEach(d -> disturbed.add(d.scenario() + "#" + d.round()));
        Map<String, RunResult> baselineByRound = new java.util.HashMap<>();
        for (RunResult r : results) {
            if (baselineOf.apply(r.run().network()) == null) {
                continue;
            }
            if (r.scenario().equals(baselineOf.apply(r.run().network())) && r.status() == Status.OK
                    && !disturbed.contains(r.label() + "#" + r.round())) {
                baselineByRound.put(r.label() + "#" + r.round(), r);
            }
        }
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        Map<String, String> baselines = new LinkedHashMap<>();
        for (RunResult r : results) {
            if (baselineOf.apply(r.run().network()) == null) {
                continue;
            }
            String baseline = r.labelOf(baselineOf.apply(r.run().network()));
            RunResult base = baselineByRound.get(baseline + "#" + r.round());
            if (!r.label().equals(baseline) && base != null && r.status() == Status.OK && base.measured().opsPerSecond() > 0
                    && !disturbed.contains(r.label() + "#" + r.round())) {
                ratios.computeIfAbsent(r.label(), k -> new ArrayList<>()).add(r.measured().opsPerSecond() / base.measured().opsPerSecond());
                baselines.put(r.label(), baseline);
            }
        }
        List<Ratio> out = new ArrayList<>();
        ratios.forEach((scenario, values) -> {
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            out.add(new Ratio(scenario, baselines.get(scenario), Bootstrap.median95(sorted), sorted[0], sorted[sorted.length - 1]));
        });
        return out;
    }

    private static String ratios(List<RunResult> results, java.util.function.Function<String, String> baselineOf) {
        List<Disturbed> disturbed = disturbed(results, baselineOf);
        List<Ratio> ratios = pairedRatios(results, baselineOf, disturbed);
        if (ratios.isEmpty()) {
            return "";
        }
        List<List<String>> cells = new ArrayList<>();
        for (Ratio ratio : ratios) {
            Bootstrap.Interval ci = ratio.interval();
            int rounds = ratio.roundsFor(QUESTION);
            cells.add(List.of(ratio.scenario(), ratio.baseline(), fmt("%.3f", ci.median()),
                    ci.n() < 2 ? "–" : fmt("%.3f–%.3f", ci.low(), ci.high()),
                    ci.n() < 2 ? "–" : fmt("±%.1f%%", ci.relativeHalfWidth() * 100),
                    fmt("%.3f–%.3f", ratio.min(), ratio.max()), Integer.toString(ci.n()), ratio.readingText(),
                    rounds == 0 ? "–" : rounds <= ci.n() ? "reached" : fmt("about %,d", rounds)));
        }
        StringBuilder notes = new StringBuilder();
        disturbed.forEach(d -> notes.append(d.line()).append('.').append(System.lineSeparator()));
        return MarkdownTable.render(List.of("Scenario", "Baseline (same round)", "Op/s ÷ baseline (median)", "95% CI", "CI half-width",
                "min–max", "paired rounds", "reading", fmt("rounds for ±%.0f%%", QUESTION * 100)), cells) + notes;
    }

    /** "–" where nothing was measured (rather than zeros); "≥" before a value ops abandoned in flight make a lower bound. */
    private static String micros(RunResult.Latency latency, long value) {
        return latency.isEmpty() ? "–" : latency.mark(value) + value;
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
