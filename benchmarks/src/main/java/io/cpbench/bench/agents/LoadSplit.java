package io.cpbench.bench.agents;

import io.cpbench.core.load.LoadSpecBuilder;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.Stage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** How a load is split between agents: clients (or threads), each stage's level, objects of their own. */
public final class LoadSplit {

    private LoadSplit() {
    }

    /**
     * The slice of {@code spec} that each of {@code n} agents runs: the clients split between them (or, with one
     * client, its threads), and each stage's level (an open loop's rate, a closed loop's workers). Whole numbers split
     * with their remainders, the first agents taking one more (10 over 3: 4+3+3), so that the shares sum to what was
     * asked; an open loop's rate splits exactly. Each slice works on objects of its own (its prefix ends in the
     * agent's number), so the invariants each agent checks are about its own objects.
     *
     * @throws IllegalArgumentException (one line) when there is less to split than there are agents: fewer clients
     *                                  (and not one client with enough threads), or a closed loop's level of workers
     *                                  between 1 and n - 1
     */
    public static List<LoadSpec> split(LoadSpec spec, int n) {
        if (spec.bounds() != null) {
            throw new IllegalArgumentException("--agents " + n + " cannot split a count of ops (the spec's bounds):"
                    + " give the run a duration or stages instead");
        }
        boolean byClients = spec.clients() >= n;
        if (!byClients && !(spec.clients() == 1 && spec.threads() >= n)) {
            throw new IllegalArgumentException("--agents " + n + " cannot split " + spec.clients() + " client"
                    + (spec.clients() == 1 ? "" : "s") + " x " + spec.threads() + " thread" + (spec.threads() == 1 ? "" : "s")
                    + ": each agent needs a client of its own (give --clients " + n + " or more), or, with 1 client, a"
                    + " thread of its own (--threads " + n + " or more)");
        }
        if (!spec.open()) {
            // the stages' targets; the start level (a ramp's first, often 1) splits with its remainder, down to 0
            List<Double> levels = new ArrayList<>();
            spec.profile().stages().forEach(st -> levels.add(st.target()));
            for (double level : levels) {
                if (level != Math.rint(level) || level > 0 && level < n) {
                    throw new IllegalArgumentException("--agents " + n + " cannot split a level of " + fmtShare(level)
                            + " workers: each agent needs a whole worker at least (a level of 0, or " + n + " or more)");
                }
            }
        }
        if (!spec.names().isEmpty()) {
            throw new IllegalArgumentException("--agents runs each agent on objects of its own, named by the prefix;"
                    + " objects.names cannot be split between agents");
        }
        if (spec.abortOnFail()) {
            throw new IllegalArgumentException("--agents judges thresholds once, on the merged run, at its end;"
                    + " abortOnFail is not supported with --agents");
        }
        int[] even = new int[n];
        java.util.Arrays.fill(even, 1);
        int[] clients = byClients ? apportion(spec.clients(), even) : null;
        int[] threads = byClients ? null : apportion(spec.threads(), even);
        int[] capacity = new int[n];
        for (int i = 0; i < n; i++) {
            capacity[i] = byClients ? clients[i] * spec.threads() : threads[i];
        }
        // a stage's level is op/s in an open loop (split evenly), workers in a closed one (split in proportion to each
        // agent's clients x threads, so that no agent is asked for more workers than it has)
        double[] start = levels(spec, spec.profile().startLevel(), capacity);
        List<double[]> stages = spec.profile().stages().stream().map(st -> levels(spec, st.target(), capacity)).toList();
        List<LoadSpec> slices = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int agent = i;
            LoadSpecBuilder b = spec.toBuilder().clients(byClients ? clients[i] : 1)
                    .threads(byClients ? spec.threads() : threads[i]).prefix(spec.prefix() + "-a" + (i + 1))
                    .seed(spec.seed() + i + 1).clearThresholds();
            List<Stage> mine = new ArrayList<>();
            for (int s = 0; s < stages.size(); s++) {
                mine.add(new Stage(spec.profile().stages().get(s).duration(), stages.get(s)[agent]));
            }
            slices.add(b.start(start[agent]).stages(mine).build());
        }
        return slices;
    }

    /**
     * {@code total} whole things apportioned to weights (largest remainders: each gets its proportional share rounded
     * down, and what is left goes one each to the largest fractions, the first agent first on a tie); the shares sum
     * to {@code total}, and none exceeds its weight while {@code total} is at most their sum.
     */
    static int[] apportion(int total, int[] weights) {
        long sum = 0;
        for (int w : weights) {
            sum += w;
        }
        int[] shares = new int[weights.length];
        double[] fractions = new double[weights.length];
        int given = 0;
        for (int i = 0; i < weights.length; i++) {
            double exact = sum == 0 ? (double) total / weights.length : (double) total * weights[i] / sum;
            shares[i] = (int) Math.floor(exact);
            fractions[i] = exact - shares[i];
            given += shares[i];
        }
        for (int left = total - given; left > 0; left--) {
            int best = 0;
            for (int i = 1; i < weights.length; i++) {
                if (fractions[i] > fractions[best] + 1e-12) {
                    best = i;
                }
            }
            shares[best]++;
            fractions[best] = -1;
        }
        return shares;
    }

    /** Each agent's part of one level: an open loop's rate evenly, a closed loop's workers by capacity. */
    private static double[] levels(LoadSpec spec, double level, int[] capacity) {
        double[] parts = new double[capacity.length];
        if (spec.open()) {
            java.util.Arrays.fill(parts, level / capacity.length);
        } else {
            int[] workers = apportion((int) Math.round(level), capacity);
            for (int i = 0; i < parts.length; i++) {
                parts[i] = workers[i];
            }
        }
        return parts;
    }

    /** "4 clients x 2 threads, 40 op/s" or "1 client x 3 threads, 3 workers": a slice as the run start prints it. */
    static String describeShare(LoadSpec slice) {
        StringBuilder text = new StringBuilder();
        text.append(slice.clients()).append(slice.clients() == 1 ? " client x " : " clients x ").append(slice.threads())
                .append(slice.threads() == 1 ? " thread" : " threads");
        List<String> levels = new ArrayList<>();
        if (slice.profile().startLevel() > 0) {
            levels.add(fmtShare(slice.profile().startLevel()));
        }
        slice.profile().stages().forEach(st -> {
            String level = fmtShare(st.target());
            if (levels.isEmpty() || !levels.get(levels.size() - 1).equals(level)) {
                levels.add(level);
            }
        });
        boolean everyThread = !slice.open() && levels.size() == 1
                && levels.get(0).equals(Integer.toString(slice.clients() * slice.threads()));
        if (!levels.isEmpty() && !everyThread) {
            text.append(", ").append(String.join(" -> ", levels)).append(slice.open() ? " op/s" : " workers");
        }
        return text.toString();
    }

    private static String fmtShare(double level) {
        return level == Math.rint(level) ? Long.toString((long) level) : String.format(Locale.ROOT, "%.2f", level);
    }
}
