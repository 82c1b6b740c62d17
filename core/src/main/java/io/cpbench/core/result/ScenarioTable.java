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
        return MarkdownTable.render(header, cells) + (censored == 0 ? "" : fmt("%n≥: a lower bound. %,d op%s still in"
                + " flight when %s run ended %s counted at %s latency so far, not left out.%n", censored,
                censored == 1 ? "" : "s", censored == 1 ? "its" : "their", censored == 1 ? "is" : "are",
                censored == 1 ? "its" : "their"));
    }

    /**
     * Each scenario's op/s divided by the baseline's op/s in the same round, over the rounds: the interleaved,
     * paired comparison that a noisy machine allows. Rounds in which either run did not end OK are left out, and so
     * is a round whose baseline was disturbed ({@link Disturbed}), each named below the table.
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
     * A round whose baseline ran far off its other rounds (a cluster still warming, a machine busy with something
     * else): below {@link #DISTURBED_BELOW} of the median of its other rounds. Every ratio of that round would be
     * built on it, so none is: the round is left out of the paired ratios, and the table says so.
     *
     * @param baseline     the baseline's label
     * @param opsPerSecond what the baseline ran at in that round
     * @param othersMedian the median of its other rounds
     */
    public record Disturbed(String baseline, int round, double opsPerSecond, double othersMedian) {

        /** {@code round 1 left out: its baseline client-leader ran at 120 op/s, under half ...}. */
        public String line() {
            return String.format(Locale.ROOT, "round %d left out of the ratios: its baseline %s ran at %,.0f op/s, under"
                    + " half the median of its other rounds (%,.0f op/s)", round, baseline, opsPerSecond, othersMedian);
        }
    }

    /** A baseline below this share of the median of its other rounds disturbs its round. */
    public static final double DISTURBED_BELOW = 0.5;

    /** The disturbed rounds among {@code results}, each baseline against its own network's (see {@link Disturbed}). */
    public static List<Disturbed> disturbedWithinNetwork(List<RunResult> results) {
        return disturbed(results, baselinesByNetwork(results)::get);
    }

    private static List<Disturbed> disturbed(List<RunResult> results, java.util.function.Function<String, String> baselineOf) {
        Map<String, Map<Integer, Double>> byBaseline = new LinkedHashMap<>();
        for (RunResult r : results) {
            String baseline = baselineOf.apply(r.run().network());
            if (baseline != null && r.scenario().equals(baseline) && r.status() == Status.OK) {
                byBaseline.computeIfAbsent(r.label(), k -> new java.util.TreeMap<>()).put(r.round(), r.measured().opsPerSecond());
            }
        }
        List<Disturbed> out = new ArrayList<>();
        byBaseline.forEach((label, rounds) -> {
            if (rounds.size() < 2) {
                return;
            }
            rounds.forEach((round, ops) -> {
                double median = Bootstrap.median(rounds.entrySet().stream().filter(e -> !e.getKey().equals(round))
                        .mapToDouble(Map.Entry::getValue).sorted().toArray());
                if (ops < DISTURBED_BELOW * median) {
                    out.add(new Disturbed(label, round, ops, median));
                }
            });
        });
        return out;
    }

    /** The paired ratios, the rounds {@code left} (disturbed) left out. */
    private static List<Ratio> pairedRatios(List<RunResult> results, java.util.function.Function<String, String> baselineOf,
                                            List<Disturbed> left) {
        java.util.Set<String> disturbed = new java.util.HashSet<>();
        left.forEach(d -> disturbed.add(d.baseline() + "#" + d.round()));
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
            if (!r.label().equals(baseline) && base != null && r.status() == Status.OK && base.measured().opsPerSecond() > 0) {
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
            cells.add(List.of(ratio.scenario(), ratio.baseline(), fmt("%.3f", ci.median()),
                    ci.n() < 2 ? "–" : fmt("%.3f–%.3f", ci.low(), ci.high()),
                    ci.n() < 2 ? "–" : fmt("±%.1f%%", ci.relativeHalfWidth() * 100),
                    fmt("%.3f–%.3f", ratio.min(), ratio.max()), Integer.toString(ci.n())));
        }
        StringBuilder notes = new StringBuilder();
        disturbed.forEach(d -> notes.append(d.line()).append('.').append(System.lineSeparator()));
        return MarkdownTable.render(List.of("Scenario", "Baseline (same round)", "Op/s ÷ baseline (median)", "95% CI", "CI half-width",
                "min–max", "paired rounds"), cells) + notes;
    }

    /** "–" where nothing was measured (rather than zeros); "≥" before a value ops abandoned in flight make a lower bound. */
    private static String micros(RunResult.Latency latency, long value) {
        return latency.isEmpty() ? "–" : latency.mark(value) + value;
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
