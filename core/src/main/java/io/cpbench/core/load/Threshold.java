package io.cpbench.core.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pass/fail criterion on a load run's numbers, as k6 has: {@code [SELECTOR:]METRIC OP VALUE}.
 * <ul>
 * <li>SELECTOR (optional): an op ({@code cas}), a stage ({@code stage2}, 1-based), or both ({@code cas,stage2}).
 * Without one, the criterion applies to all ops over the whole run.</li>
 * <li>METRIC: {@code p50 p90 p95 p99 p99.9 max mean} (latency; in an open loop counted from when the op was due),
 * {@code rate} (successful op/s), {@code error_rate} (failed ÷ all ops), {@code errors} (a count),
 * {@code lag_p50 lag_p99 lag_max} (how late ops started, open loop only; no op selector).</li>
 * <li>OP: {@code < <= > >=}.</li>
 * <li>VALUE: a time for latencies ({@code 500us}, {@code 5ms}, {@code 1s}), op/s for rate, a percentage or a fraction
 * for error_rate ({@code 0.1%} or {@code 0.001}), a count for errors.</li>
 * </ul>
 * Examples: {@code cas:p99<5ms}, {@code error_rate<0.1%}, {@code rate>=1000}, {@code stage2:p95<=20ms}.
 */
public record Threshold(String text, OpType op, int stage, Metric metric, Comparison comparison, double limit) {

    private static final Pattern FORM = Pattern.compile(
            "^(?:([a-z0-9,]+):)?([a-z_0-9.]+)\\s*(<=|>=|<|>)\\s*([0-9]*\\.?[0-9]+)\\s*(%|us|µs|ms|s)?$");

    public enum Metric {
        P50("p50"), P90("p90"), P95("p95"), P99("p99"), P999("p99.9"), MAX("max"), MEAN("mean"), RATE("rate"),
        ERROR_RATE("error_rate"), ERRORS("errors"), LAG_P50("lag_p50"), LAG_P99("lag_p99"), LAG_MAX("lag_max");

        final String key;

        Metric(String key) {
            this.key = key;
        }

        boolean isLatency() {
            return this.ordinal() <= MEAN.ordinal() || isLag();
        }

        boolean isLag() {
            return this == LAG_P50 || this == LAG_P99 || this == LAG_MAX;
        }

        static Metric of(String key) {
            String k = key.equals("p999") ? "p99.9" : key;
            for (Metric m : values()) {
                if (m.key.equals(k)) {
                    return m;
                }
            }
            throw new IllegalArgumentException("unknown metric '" + key + "'; known: p50, p90, p95, p99, p99.9, max, mean,"
                    + " rate, error_rate, errors, lag_p50, lag_p99, lag_max");
        }
    }

    public enum Comparison {
        LT("<"), LE("<="), GT(">"), GE(">=");

        final String symbol;

        Comparison(String symbol) {
            this.symbol = symbol;
        }

        boolean holds(double actual, double limit) {
            return switch (this) {
                case LT -> actual < limit;
                case LE -> actual <= limit;
                case GT -> actual > limit;
                case GE -> actual >= limit;
            };
        }

        /** An upper bound: numbers so far can already show it crossed (what {@code abortOnFail} watches). */
        boolean isUpperBound() {
            return this == LT || this == LE;
        }
    }

    /** @throws IllegalArgumentException saying what is wrong with {@code text} */
    public static Threshold parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
        Matcher m = FORM.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException("threshold '" + text + "' must read [OP|stageN:]METRIC<VALUE, like cas:p99<5ms,"
                    + " error_rate<0.1% or rate>=1000");
        }
        OpType op = null;
        int stage = 0;
        if (m.group(1) != null) {
            for (String part : m.group(1).split(",")) {
                if (part.matches("stage[0-9]+")) {
                    stage = Integer.parseInt(part.substring(5));
                    if (stage < 1) {
                        throw new IllegalArgumentException("threshold '" + text + "': stages count from 1");
                    }
                } else {
                    try {
                        op = OpType.of(part);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("threshold '" + text + "': '" + part + "' is neither an op ("
                                + OpType.known() + ") nor a stage (stage1, stage2, ...)");
                    }
                }
            }
        }
        Metric metric;
        try {
            metric = Metric.of(m.group(2));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("threshold '" + text + "': " + e.getMessage());
        }
        Comparison comparison = switch (m.group(3)) {
            case "<" -> Comparison.LT;
            case "<=" -> Comparison.LE;
            case ">" -> Comparison.GT;
            default -> Comparison.GE;
        };
        double limit = limit(text, metric, Double.parseDouble(m.group(4)), m.group(5));
        if (metric.isLag() && op != null) {
            throw new IllegalArgumentException("threshold '" + text + "': schedule lag is kept for all ops together; leave out the op");
        }
        return new Threshold(text.trim(), op, stage, metric, comparison, limit);
    }

    /** {@code value} in {@code unit} as the metric's own unit (µs; a fraction for error_rate), checked. */
    private static double limit(String text, Metric metric, double value, String unit) {
        if (metric.isLatency()) {
            if (unit == null || unit.equals("%")) {
                throw new IllegalArgumentException("threshold '" + text + "': give " + metric.key + " a time unit, like 5ms or 500us");
            }
            return switch (unit) {
                case "s" -> value * 1_000_000;
                case "ms" -> value * 1000;
                default -> value;
            }; // µs
        } else if (metric == Metric.ERROR_RATE) {
            if (unit != null && !unit.equals("%")) {
                throw new IllegalArgumentException("threshold '" + text + "': error_rate is a percentage or a fraction, not a time");
            }
            double limit = unit == null ? value : value / 100;
            if (limit > 1) {
                throw new IllegalArgumentException("threshold '" + text + "': error_rate above 100%");
            }
            return limit;
        } else {
            if (unit != null) {
                throw new IllegalArgumentException("threshold '" + text + "': " + metric.key + " takes a plain number, not '" + unit + "'");
            }
            return value;
        }
    }

    /** Checks that the op, stage and metric can exist in a run of this shape. */
    void checkAgainst(Set<OpType> ops, int stages, boolean open) {
        if (op != null && !ops.contains(op)) {
            throw new IllegalArgumentException("threshold '" + text + "': op " + op.key() + " is not in the mix");
        }
        if (stage > stages) {
            throw new IllegalArgumentException("threshold '" + text + "': there " + (stages == 1 ? "is 1 stage" : "are " + stages + " stages"));
        }
        if (metric.isLag() && !open) {
            throw new IllegalArgumentException("threshold '" + text + "': schedule lag exists in open-loop runs only");
        }
    }

    /** Whether {@code actual} (in the unit of {@link #actual}: µs for latencies) meets this threshold. */
    public boolean holds(double actual) {
        return comparison.holds(actual, limit);
    }

    /** The metric's name as written: p99, p99.9, mean, ... */
    public String metricKey() {
        return metric.key;
    }

    /** A latency metric (p50 ... max, mean), in µs: what a sweep's SLO may be. */
    public boolean isLatency() {
        return metric.isLatency() && !metric.isLag();
    }

    /** The number this threshold compares, from a run's numbers (latencies in µs). */
    public double actual(LoadResult.StageStats stats) {
        if (metric.isLag()) {
            LoadResult.LoadLatency lag = stats.lag();
            return lag == null ? 0 : switch (metric) {
                case LAG_P50 -> lag.p50();
                case LAG_P99 -> lag.p99();
                default -> lag.max();
            };
        }
        LoadResult.OpStats s = selected(stats);
        return switch (metric) {
            case RATE -> s.opsPerSecond();
            case ERROR_RATE -> s.errorRate();
            case ERRORS -> s.errors();
            case MEAN -> s.latency().mean();
            case P50 -> s.latency().p50();
            case P90 -> s.latency().p90();
            case P95 -> s.latency().p95();
            case P99 -> s.latency().p99();
            case P999 -> s.latency().p999();
            default -> s.latency().max();
        };
    }

    private LoadResult.OpStats selected(LoadResult.StageStats stats) {
        return op == null ? stats.all() : stats.ops().stream().filter(o -> o.op().equals(op.key())).findFirst()
                .orElse(LoadResult.OpStats.empty(op.key()));
    }

    /** Judges each of {@code thresholds}: one of a stage on that stage's numbers, the others on the whole run's. */
    static List<LoadResult.ThresholdResult> judgeAll(List<Threshold> thresholds, LoadResult.StageStats total,
                                                     List<LoadResult.StageStats> stages) {
        List<LoadResult.ThresholdResult> judged = new ArrayList<>();
        for (Threshold t : thresholds) {
            judged.add(t.judge(t.stage() == 0 ? total : stages.get(t.stage() - 1)));
        }
        return judged;
    }

    /** Judges this threshold on the stats of its stage (or of the whole run). */
    public LoadResult.ThresholdResult judge(LoadResult.StageStats stats) {
        double actual = actual(stats);
        LoadResult.OpStats s = selected(stats);
        boolean noData = !metric.isLag() && metric != Metric.RATE && metric != Metric.ERRORS && s.ops() + s.errors() == 0;
        boolean passed = !noData && comparison.holds(actual, limit);
        return new LoadResult.ThresholdResult(text, passed, noData ? "no ops measured" : formatValue(actual));
    }

    /** {@code 4.21ms}, {@code 1,234 op/s}, {@code 0.05%}. */
    String formatValue(double v) {
        if (metric.isLatency()) {
            return v >= 1000 ? String.format(Locale.ROOT, "%.2fms", v / 1000) : String.format(Locale.ROOT, "%.0fus", v);
        }
        return switch (metric) {
            case RATE -> String.format(Locale.ROOT, "%,.1f op/s", v);
            case ERROR_RATE -> String.format(Locale.ROOT, "%.3f%%", v * 100);
            default -> String.format(Locale.ROOT, "%,.0f", v);
        };
    }

    public boolean canAbortEarly() {
        return comparison.isUpperBound();
    }
}
