package io.cpbench.core.result;

import io.cpbench.core.stats.Bootstrap;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A {@link Comparison} as the CLI and the reports show it: a Markdown table, and its verdict in one line. */
public final class ComparisonTable {

    private ComparisonTable() {
    }

    /** The comparison as a Markdown table with a verdict line under it. */
    public static String markdown(Comparison.Result result, String baseName, String newName) {
        return markdown(result, baseName, newName, "rounds");
    }

    /** As {@link #markdown(Comparison.Result, String, String)}, counting samples in {@code unit} (rounds, pairs). */
    public static String markdown(Comparison.Result result, String baseName, String newName, String unit) {
        return markdown(result, baseName, newName, unit, "scenario", "op");
    }

    /** As {@link #markdown(Comparison.Result, String, String, String)}, with the two key columns named (a sweep: routing, level). */
    public static String markdown(Comparison.Result result, String baseName, String newName, String unit, String key, String subKey) {
        List<String> header = List.of(key, subKey, unit + " base/new", "op/s base", "op/s new", "op/s new÷base [95 % CI]",
                "p50 new÷base [95 % CI]", "p99 new÷base [95 % CI]", "verdict");
        List<List<String>> rows = new ArrayList<>();
        boolean pointOnly = false;
        for (Comparison.Row r : result.rows()) {
            Comparison.MetricChange ops = r.metrics().get(Comparison.Metric.OPS);
            if (ops == null) {
                rows.add(List.of(r.scenario(), r.op(), r.baseRounds() + "/" + r.newRounds(), "-", "-", r.note(), "-", "-",
                        plain(r.verdict()) ? r.verdict().text() : "**" + r.verdict().text() + "**"));
                continue;
            }
            pointOnly |= Math.min(r.baseRounds(), r.newRounds()) < 2 && r.verdict() != Comparison.Verdict.UNDECIDED;
            rows.add(List.of(r.scenario(), r.op(), r.baseRounds() + "/" + r.newRounds(),
                    String.format(Locale.ROOT, "%,.0f", ops.base()), String.format(Locale.ROOT, "%,.0f", ops.next()),
                    cell(ops, result), cell(r.metrics().get(Comparison.Metric.P50), result) + (r.censored().contains(Comparison.Metric.P50) ? " †" : ""),
                    cell(r.metrics().get(Comparison.Metric.P99), result) + (r.censored().contains(Comparison.Metric.P99) ? " †" : ""),
                    plain(r.verdict()) ? r.verdict().text() : "**" + r.verdict().text() + "**"));
        }
        StringBuilder b = new StringBuilder(MarkdownTable.render(header, rows));
        b.append('\n').append(summary(result, baseName, newName)).append('\n');
        b.append(String.format(Locale.ROOT, "%nA metric counts as changed when its 95 %% interval excludes 1 and its"
                + " ratio is beyond ±%.0f %%; a row is slower when a gated metric (%s) is. ! marks a changed metric.%s%n",
                result.tolerance() * 100, String.join(", ", result.gate().stream().map(Comparison.Metric::label).toList()),
                pointOnly ? " Rows with 1 " + unit.replaceAll("s$", "") + " on a side have no interval: their verdict rests on the ratio alone." : "")
                + (result.count(Comparison.Verdict.UNDECIDED) > 0 ? "Rows with too few pairs have fewer " + unit + " than a verdict"
                + " needs: their ratios are shown, not judged.\n" : "")
                + (result.rows().stream().anyMatch(r -> !r.censored().isEmpty()) ? "† some " + unit.replaceAll("s$", "")
                + " on a side has this percentile only as a lower bound (ops still in flight at its end counted at their"
                + " latency so far, shown ≥ in its own table): the ratio is not exact.\n" : ""));
        return b.toString();
    }

    /** One line: the verdict of the whole comparison. */
    public static String summary(Comparison.Result result, String baseName, String newName) {
        long slower = result.count(Comparison.Verdict.SLOWER);
        long faster = result.count(Comparison.Verdict.FASTER);
        long undecided = result.count(Comparison.Verdict.UNDECIDED);
        int total = result.rows().size();
        String head = slower > 0 ? "REGRESSION" : faster > 0 ? "FASTER" : undecided == total ? "UNDECIDED" : "NO CHANGE";
        return String.format(Locale.ROOT, "verdict: %s: %d of %d rows slower, %d faster, %d no change%s (%s -> %s, tolerance %.0f %%)",
                head, slower, total, faster, total - slower - faster - undecided,
                undecided == 0 ? "" : ", " + undecided + " " + Comparison.Verdict.UNDECIDED.text(), baseName, newName,
                result.tolerance() * 100);
    }

    /** Whether a verdict is shown unmarked: nothing changed, or nothing was judged. */
    private static boolean plain(Comparison.Verdict v) {
        return v == Comparison.Verdict.NO_CHANGE || v == Comparison.Verdict.UNDECIDED;
    }

    private static String cell(Comparison.MetricChange m, Comparison.Result result) {
        if (m == null) {
            return "-";
        }
        if (m.ratio() == null) {
            return "n/a";
        }
        Bootstrap.Interval i = m.ratio();
        String text = i.n() < 2 ? String.format(Locale.ROOT, "%.3f", i.median())
                : String.format(Locale.ROOT, "%.3f [%.3f-%.3f]", i.median(), i.low(), i.high());
        return m.verdict() == Comparison.Verdict.NO_CHANGE || m.verdict() == Comparison.Verdict.UNDECIDED ? text : text + " !";
    }
}
