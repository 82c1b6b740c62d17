package io.cpbench.core.sweep;

import io.cpbench.core.load.Threshold;
import io.cpbench.core.stats.Usl;
import io.cpbench.core.sweep.SweepAnalysis.ConfigRow;
import io.cpbench.core.sweep.SweepAnalysis.LevelStats;
import io.cpbench.core.sweep.SweepAnalysis.RoutingStats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import static io.cpbench.core.sweep.SweepAnalysis.micros;
import static io.cpbench.core.sweep.SweepAnalysis.opsWithCi;
import static io.cpbench.core.sweep.SweepAnalysis.ratioWithCi;

/** Seed 003's "optimal configuration" table (docs/origins.md), with every reason read off the sweep's numbers. */
final class OptimalConfiguration {

    private OptimalConfiguration() {
    }

    static List<ConfigRow> rows(SweepAnalysis a, Threshold slo) {
        List<ConfigRow> rows = new ArrayList<>();
        String metric = slo.metricKey();
        if (a.knee() == null) {
            rows.add(noKnee(a, slo));
            return rows;
        }
        RoutingStats best = a.routings().stream().filter(r -> r.routing().equals(a.knee().routing())).findFirst().orElseThrow();
        LevelStats k = a.knee().level();
        rows.add(new ConfigRow("Routing", best.routing(), routingReason(a, slo, best, k)));

        if (a.routings().stream().anyMatch(r -> !r.members().isEmpty())) {
            List<String> swept = a.routings().stream().map(RoutingStats::members).distinct().toList();
            rows.add(new ConfigRow("Member settings", best.members().isEmpty() ? "Hazelcast's defaults" : best.members(),
                    "of " + swept.size() + " settings swept (" + String.join("; ", swept) + "), the knee's"));
        }
        List<Integer> clientValues = best.levels().stream().map(LevelStats::clients).distinct().sorted().toList();
        List<Integer> threadValues = best.levels().stream().map(LevelStats::threads).distinct().sorted().toList();
        rows.add(new ConfigRow("Client instances", Integer.toString(k.clients()), clientValues.size() == 1
                ? "the only value swept"
                : "of " + clientValues + ", the one at the knee" + sameWorkers(best, k)));
        String limit = limit(best, k, metric);
        rows.add(new ConfigRow(k.rate() == null ? "Threads per client" : "Threads per client / rate",
                k.rate() == null ? Integer.toString(k.threads()) : k.threads() + " / " + String.format(Locale.ROOT, "%.0f op/s", k.rate()),
                (threadValues.size() == 1 && k.rate() == null ? "the only value swept; " : "") + limit));
        rows.add(new ConfigRow("Expected throughput", opsWithCi(k.throughput()) + " op/s",
                String.format(Locale.ROOT, "median of %d repeat%s, 95 %% bootstrap interval%s", k.runs(), k.runs() == 1 ? "" : "s",
                        best.kneeBracket() == null ? "" : String.format(Locale.ROOT, "; the SLO is reached at about %,.0f op/s"
                                + " (interpolated toward %s)", best.kneeEstimate(), best.kneeBracket()))));
        rows.add(new ConfigRow("Expected " + metric, micros(k.sloActual()),
                String.format(Locale.ROOT, "median of the repeats' %s; SLO %s; p50 %s", metric, slo.text(), micros(k.p50Us()))));
        ConfigRow peak = uslRow(best, k);
        if (peak != null) {
            rows.add(peak);
        }
        return rows;
    }

    /** No level met the SLO: which came closest. */
    private static ConfigRow noKnee(SweepAnalysis a, Threshold slo) {
        String metric = slo.metricKey();
        LevelStats lowest = null;
        String where = null;
        for (RoutingStats r : a.routings()) {
            for (LevelStats l : r.levels()) {
                if (l.runs() > 0 && (lowest == null || l.sloActual() < lowest.sloActual())) {
                    lowest = l;
                    where = r.routing();
                }
            }
        }
        return new ConfigRow("Knee", "none", lowest == null ? "no cell was measured"
                : "no level met the SLO " + slo.text() + "; the lowest " + metric + " was "
                + micros(lowest.sloActual()) + ", " + where + " at " + lowest.level()
                + ": relax the SLO or sweep lower concurrency");
    }

    /** Why the knee's routing: its throughput, the next routing's, and their paired ratio at the knee's level. */
    private static String routingReason(SweepAnalysis a, Threshold slo, RoutingStats best, LevelStats k) {
        StringBuilder why = new StringBuilder(String.format(Locale.ROOT, "highest throughput within %s: %s op/s at %s",
                slo.text(), opsWithCi(k.throughput()), k.level()));
        RoutingStats next = a.routings().stream().filter(r -> r != best && r.knee() != null)
                .max(Comparator.comparingDouble(RoutingStats::kneeEstimate)).orElse(null);
        if (next != null) {
            why.append(String.format(Locale.ROOT, "; next, %s: %s op/s at %s (%+.1f %%)", next.routing(),
                    opsWithCi(next.knee().throughput()), next.knee().level(),
                    (next.knee().throughput().median() / k.throughput().median() - 1) * 100));
        }
        a.winners().stream().filter(w -> w.level().equals(k.level()) && w.best().equals(best.routing()) && w.ratio() != null)
                .findFirst().ifPresent(w -> why.append(String.format(Locale.ROOT, "; at %s, paired by repeat, %s / %s = %s%s",
                        w.level(), w.best(), w.runnerUp(), ratioWithCi(w.ratio()),
                        w.clear() ? "" : " (the interval reaches 1: not settled at these repeats)")));
        if (a.routings().stream().filter(r -> r.knee() != null).count() == 1 && a.routings().size() > 1) {
            why.append("; no other routing met the SLO at any level");
        }
        return why.toString();
    }

    /** What stops the knee's level from going higher: the next level over the SLO, or giving less. */
    private static String limit(RoutingStats best, LevelStats k, String metric) {
        LevelStats above = best.levels().stream()
                .filter(l -> l.runs() > 0 && (l.workers() > k.workers()
                        || (k.rate() != null && l.rate() != null && l.rate() > k.rate())))
                .min(Comparator.comparingInt(LevelStats::workers)
                        .thenComparingDouble(l -> l.rate() == null ? 0 : l.rate())).orElse(null);
        String limit;
        if (above == null) {
            limit = "the largest level swept: the knee may lie further out, sweep higher";
        } else if (!above.sloMet()) {
            limit = String.format(Locale.ROOT, "at the next level, %s, %s was %s: over the SLO", above.level(), metric,
                    micros(above.sloActual()));
        } else {
            limit = String.format(Locale.ROOT, "the next level, %s, met the SLO (%s %s) but gave %s op/s (%+.1f %%)",
                    above.level(), metric, micros(above.sloActual()), opsWithCi(above.throughput()),
                    (above.throughput().median() / k.throughput().median() - 1) * 100);
        }
        return limit;
    }

    /** The knee's routing's Universal Scalability Law peak, or why there is no fit; null when neither. */
    private static ConfigRow uslRow(RoutingStats best, LevelStats k) {
        Usl usl = best.usl();
        if (usl != null) {
            double peak = usl.peakConcurrency();
            return new ConfigRow("USL peak", Double.isInfinite(peak) ? "none (κ = 0)"
                    : String.format(Locale.ROOT, "N* = %.0f workers, %,.0f op/s", peak, usl.peakThroughput()),
                    String.format(Locale.ROOT, "%s fit: σ = %.4f, κ = %.6f, R² = %.3f over %d runs%s", best.routing(),
                            usl.sigma(), usl.kappa(), usl.rSquared(), usl.points(),
                            Double.isInfinite(peak) ? "; throughput levels off towards " + String.format(Locale.ROOT, "%,.0f", usl.peakThroughput()) + " op/s"
                                    : peak < k.workers() ? "; the knee lies past the peak: more workers add only latency" : ""));
        }
        return best.uslNote() == null ? null : new ConfigRow("USL peak", "no fit", best.uslNote());
    }

    /** When another client count had the same workers, how it compared. */
    private static String sameWorkers(RoutingStats r, LevelStats k) {
        return r.levels().stream().filter(l -> l != k && l.workers() == k.workers() && l.runs() > 0
                        && Objects.equals(l.rate(), k.rate()))
                .findFirst().map(l -> String.format(Locale.ROOT, "; %s, the same workers, gave %s op/s (%+.1f %%)",
                        l.level(), opsWithCi(l.throughput()), (l.throughput().median() / k.throughput().median() - 1) * 100))
                .orElse("");
    }
}
