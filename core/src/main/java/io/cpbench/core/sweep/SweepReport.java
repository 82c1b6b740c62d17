package io.cpbench.core.sweep;

import io.cpbench.core.result.MarkdownTable;

import io.cpbench.core.stats.Usl;
import io.cpbench.core.sweep.SweepAnalysis.LevelStats;
import io.cpbench.core.sweep.SweepAnalysis.LevelWinner;
import io.cpbench.core.sweep.SweepAnalysis.RoutingStats;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static io.cpbench.core.sweep.SweepAnalysis.micros;
import static io.cpbench.core.sweep.SweepAnalysis.opsWithCi;
import static io.cpbench.core.sweep.SweepAnalysis.ratioWithCi;

/** A sweep's analysis as Markdown tables: what the console prints and {@code sweep.md} holds. */
public final class SweepReport {

    private SweepReport() {
    }

    public static String render(SweepAnalysis a) {
        StringBuilder out = new StringBuilder();
        if (!a.complete()) {
            out.append("INCOMPLETE: not every cell of every repeat was measured; the numbers below use what was.\n\n");
        }
        throughputTable(out, a);
        repeatSpeed(out, a);
        kneeTable(out, a);
        uslTable(out, a);
        if (a.routings().size() > 1) {
            winnerTable(out, a);
        }
        out.append("Optimal configuration\n\n");
        out.append(MarkdownTable.render(List.of("Component", "Value", "Reason"),
                a.optimal().stream().map(r -> List.of(r.component(), r.value(), r.reason())).toList()));
        return out.toString();
    }

    /** Per level, each routing's op/s with its interval and p99, the knee marked. */
    private static void throughputTable(StringBuilder out, SweepAnalysis a) {
        out.append("Throughput against concurrency: op/s, median [95 % bootstrap interval] over repeats; p99\n\n");
        Set<String> levels = new LinkedHashSet<>();
        a.routings().forEach(r -> r.levels().forEach(l -> levels.add(l.level())));
        List<String> header = new ArrayList<>(List.of("level", "workers"));
        a.routings().forEach(r -> header.add(r.routing()));
        List<List<String>> rows = new ArrayList<>();
        for (String level : levels) {
            List<String> row = new ArrayList<>();
            row.add(level);
            row.add("");
            for (RoutingStats r : a.routings()) {
                LevelStats l = r.levels().stream().filter(s -> s.level().equals(level)).findFirst().orElse(null);
                if (l == null) {
                    row.add("-");
                    continue;
                }
                row.set(1, Integer.toString(l.workers()));
                if (l.runs() == 0) {
                    row.add("failed (" + l.failed() + ")");
                    continue;
                }
                row.add(opsWithCi(l.throughput()) + "; " + (l.p99Censored() ? "≥" : "") + micros(l.p99Us()) + (l.sloMet() ? "" : " !")
                        + (l == r.knee() ? " <- knee" : "") + (l.failed() > 0 ? " (" + l.failed() + " failed)" : ""));
            }
            rows.add(row);
        }
        out.append(MarkdownTable.render(header, rows));
        out.append("! over the SLO (").append(a.slo()).append("); knee: the highest throughput within it");
        if (a.routings().stream().anyMatch(r -> r.levels().stream().anyMatch(LevelStats::p99Censored))) {
            out.append("; ≥: a lower bound (a run's ops still in flight at its end counted at their latency so far)");
        }
        out.append("\n\n");
    }

    /** How fast each repeat ran against the others, and a warning when every cell moved together. */
    private static void repeatSpeed(StringBuilder out, SweepAnalysis a) {
        if (a.repeatSpeed().isEmpty()) {
            return;
        }
        out.append("Speed by repeat (median over cells of op/s ÷ the cell's median over repeats): ")
                .append(String.join(", ", a.repeatSpeed().stream().map(v -> String.format(Locale.ROOT, "%.2f", v)).toList()));
        if (a.speedSpread() > SweepAnalysis.SPEED_SPREAD_WARNING) {
            out.append(String.format(Locale.ROOT, "%nevery cell moved together by %.0f %% between repeats: the machine's"
                    + " (or the cluster's) speed, not a routing; the knee's throughput moves with it, paired ratios much"
                    + " less; run again when the machine is quiet, or read the ratios", 100 * a.speedSpread()));
        }
        out.append("\n\n");
    }

    /** Each routing's knee, where its SLO is reached, and that point per repeat. */
    private static void kneeTable(StringBuilder out, SweepAnalysis a) {
        List<List<String>> knees = new ArrayList<>();
        for (RoutingStats r : a.routings()) {
            String byRepeat = kneeByRepeat(r);
            if (r.knee() == null) {
                knees.add(List.of(r.routing(), "none", "-", byRepeat, "no level within the SLO"));
                continue;
            }
            knees.add(List.of(r.routing(), r.knee().level() + ": " + opsWithCi(r.knee().throughput()) + " op/s",
                    String.format(Locale.ROOT, "%,.0f op/s", r.kneeEstimate()), byRepeat,
                    r.kneeBracket() == null ? "the knee's own throughput (no higher level gave more)"
                            : "interpolated toward " + r.kneeBracket() + ", where the SLO metric crosses " + a.slo()));
        }
        out.append(MarkdownTable.render(List.of("routing", "knee (level: op/s)", "SLO reached at", "each repeat alone", "how"), knees))
                .append('\n');
        out.append("Each repeat alone: the SLO-reached point from that repeat's runs only. Its spread is how far a knee moved"
                + " between passes minutes apart on this machine: a second sweep can agree with this one no more closely"
                + " than that.\n\n");
    }

    /** The Universal Scalability Law's fit per routing. */
    private static void uslTable(StringBuilder out, SweepAnalysis a) {
        out.append("Universal Scalability Law, X(N) = λN / (1 + σ(N-1) + κN(N-1)), fitted to every closed-loop run\n\n");
        List<List<String>> usl = new ArrayList<>();
        for (RoutingStats r : a.routings()) {
            Usl u = r.usl();
            if (u == null) {
                usl.add(List.of(r.routing(), "-", "-", "-", "-", "-", r.uslNote() == null ? "" : r.uslNote()));
                continue;
            }
            double peak = u.peakConcurrency();
            usl.add(List.of(r.routing(), String.format(Locale.ROOT, "%,.0f", u.lambda()), String.format(Locale.ROOT, "%.4f", u.sigma()),
                    String.format(Locale.ROOT, "%.6f", u.kappa()),
                    Double.isInfinite(peak) ? "none" : String.format(Locale.ROOT, "%.1f (%,.0f op/s)", peak, u.peakThroughput()),
                    String.format(Locale.ROOT, "%.3f", u.rSquared()), u.rSquared() < 0.8 ? "poor fit: read the table, not the curve" : ""));
        }
        out.append(MarkdownTable.render(List.of("routing", "λ (op/s per worker)", "σ", "κ", "peak N*", "R²", "note"), usl)).append('\n');
    }

    /** Per level, the best routing against the runner-up, paired by repeat. */
    private static void winnerTable(StringBuilder out, SweepAnalysis a) {
        out.append("Which routing wins where: best ÷ runner-up, paired by repeat, median [95 % interval]\n\n");
        List<List<String>> w = new ArrayList<>();
        for (LevelWinner winner : a.winners()) {
            w.add(List.of(winner.level(), winner.best(), winner.runnerUp() == null ? "-" : winner.runnerUp(),
                    ratioWithCi(winner.ratio()), winner.ratio() == null ? "-" : winner.clear() ? "yes" : "no (reaches 1)"));
        }
        out.append(MarkdownTable.render(List.of("level", "best", "runner-up", "ratio", "settled"), w)).append('\n');
    }

    /** {@code 15,300 / 9,900 / 15,500 (spread 57 %)}; {@code -} with fewer than two repeats. */
    static String kneeByRepeat(RoutingStats r) {
        if (r.kneeByRepeat().isEmpty()) {
            return "-";
        }
        String values = String.join(" / ", r.kneeByRepeat().stream()
                .map(v -> Double.isNaN(v) ? "none" : String.format(Locale.ROOT, "%,.0f", v)).toList());
        double spread = r.kneeSpread();
        return Double.isNaN(spread) ? values : values + String.format(Locale.ROOT, " (spread %.0f %%)", 100 * spread);
    }
}
