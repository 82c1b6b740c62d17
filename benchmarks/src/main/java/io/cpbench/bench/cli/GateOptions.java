package io.cpbench.bench.cli;

import io.cpbench.core.result.Comparison;
import picocli.CommandLine.Option;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The verdict's settings, the same for {@code compare} and {@code ab}: the tolerance and the gated metrics. */
final class GateOptions {

    @Option(names = "--tolerance", paramLabel = "PCT", defaultValue = "5%",
            description = "How much worse a metric must be, beyond its noise, to count as slower (default: ${DEFAULT-VALUE}).")
    String tolerance;

    @Option(names = "--gate", paramLabel = "METRIC", split = ",", defaultValue = "ops,p50",
            description = "The metrics whose slowdown is a regression: ops, p50, p99 (default: ${DEFAULT-VALUE}; p99 is"
                    + " reported either way, and on a small machine it moves more between runs than a gate should).")
    List<String> gate;

    /** "5%" or "0.05" -> 0.05, from 0 to below 100 %. */
    double tolerance() {
        double v = io.cpbench.core.stats.Percent.parse(tolerance, "--tolerance");
        if (!(v >= 0 && v < 1)) {
            throw new IllegalArgumentException("--tolerance must be from 0% to below 100%, was " + tolerance);
        }
        return v;
    }

    /** The gated metrics. */
    Set<Comparison.Metric> gated() {
        Set<Comparison.Metric> gated = EnumSet.noneOf(Comparison.Metric.class);
        gate.forEach(g -> gated.add(Comparison.Metric.of(g)));
        return gated;
    }
}
