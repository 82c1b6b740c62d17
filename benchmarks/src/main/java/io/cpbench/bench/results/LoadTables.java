package io.cpbench.bench.results;

import io.cpbench.core.load.LoadResult;
import io.cpbench.core.result.MarkdownTable;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.stats.Bootstrap;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Load results side by side: per scenario and op, the median over rounds of op/s and latency, with the spread. */
public final class LoadTables {

    private LoadTables() {
    }

    public static String perOp(List<RunResult> results) {
        Map<String, Map<String, List<LoadResult.OpStats>>> byScenario = new LinkedHashMap<>();
        for (RunResult r : results) {
            if (r.load() == null) {
                continue;
            }
            List<LoadResult.OpStats> ops = new ArrayList<>(r.load().total().ops());
            if (ops.size() > 1) {
                ops.add(r.load().total().all());
            }
            for (LoadResult.OpStats o : ops) {
                byScenario.computeIfAbsent(r.scenario(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(o.op(), k -> new ArrayList<>()).add(o);
            }
        }
        if (byScenario.isEmpty()) {
            return "";
        }
        MarkdownTable table = MarkdownTable.of("scenario", "op", "rounds", "op/s", "op/s min-max", "p50", "p95", "p99",
                "p99.9", "errors").right(2, 3, 5, 6, 7, 8, 9);
        byScenario.forEach((scenario, ops) -> ops.forEach((op, list) -> {
            double[] rates = list.stream().mapToDouble(LoadResult.OpStats::opsPerSecond).toArray();
            table.row(scenario, op, Integer.toString(list.size()), String.format(Locale.ROOT, "%,.1f", Bootstrap.medianOf(rates)),
                    String.format(Locale.ROOT, "%,.0f-%,.0f", min(rates), max(rates)),
                    ms(list, LoadResult.LoadLatency::p50), ms(list, LoadResult.LoadLatency::p95),
                    ms(list, LoadResult.LoadLatency::p99), ms(list, LoadResult.LoadLatency::p999),
                    String.format(Locale.ROOT, "%,d", list.stream().mapToLong(LoadResult.OpStats::errors).sum()));
        }));
        return "Per op, median over rounds (min-max of op/s):\n\n" + table.render();
    }

    /**
     * The median over rounds of one percentile, "≥" before it when some round's is only a lower bound (its ops still in
     * flight at the end were counted at their latency so far), as every table shows it.
     */
    private static String ms(List<LoadResult.OpStats> list, java.util.function.ToLongFunction<LoadResult.LoadLatency> p) {
        double median = Bootstrap.medianOf(list.stream().mapToDouble(o -> p.applyAsLong(o.latency())).toArray());
        boolean lowerBound = list.stream().anyMatch(o -> !o.latency().mark(p.applyAsLong(o.latency())).isEmpty());
        return median == 0 ? "-" : (lowerBound ? "≥" : "") + ms(median);
    }

    private static double min(double[] v) {
        return java.util.Arrays.stream(v).min().orElse(0);
    }

    private static double max(double[] v) {
        return java.util.Arrays.stream(v).max().orElse(0);
    }

    private static String ms(double micros) {
        return micros == 0 ? "-" : String.format(Locale.ROOT, "%.2fms", micros / 1000);
    }
}
