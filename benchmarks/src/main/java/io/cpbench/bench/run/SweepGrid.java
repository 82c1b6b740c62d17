package io.cpbench.bench.run;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.core.load.Durations;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.Threshold;
import io.cpbench.core.spec.SpecMapping;
import io.cpbench.core.spec.Words;
import io.cpbench.core.sweep.SweepCell;
import io.cpbench.topology.MemberTuning;
import io.soabase.recordbuilder.core.RecordBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A sweep's grid: routings (scenarios) x client instances x threads per client (x open-loop rates), with the cell's
 * length, repeats and SLO. Read from a YAML file and then from flags, each validated with a one-line error.
 */
@RecordBuilder
public record SweepGrid(List<String> scenarios, List<Integer> clients, List<Integer> threads, List<Double> rates, String mix,
                 Duration duration, Duration warmup, int repeats, Threshold slo, List<MemberTuning> memberSettings,
                 boolean freshClusters) {

    public static final List<String> DEFAULT_SCENARIOS = List.of("client-leader-aware", "client-smart", "client-follower");
    public static final List<Integer> DEFAULT_CLIENTS = List.of(1);
    public static final List<Integer> DEFAULT_THREADS = List.of(1, 4, 16, 32, 64, 128);
    /** Starting a fresh cluster for another member setting, and settling its leadership: ~25 s here. */
    public static final Duration CLUSTER_START = Duration.ofSeconds(30);
    /** Setting a session up, clients included, and reading leadership back: measured at 1-3 s a cell here. */
    public static final Duration CELL_OVERHEAD = Duration.ofSeconds(3);

    public SweepGrid {
        if (scenarios.isEmpty() || clients.isEmpty() || threads.isEmpty()) {
            throw new IllegalArgumentException("a sweep needs at least one scenario, one client count and one thread count");
        }
        for (String name : scenarios) {
            Scenario s = Scenarios.byName(name);
            if (s.slowNetwork()) {
                throw new IllegalArgumentException("scenario '" + name + "' is a network (b) scenario; a sweep runs on"
                        + " network (a): " + String.join(", ", Scenarios.all().stream().filter(x -> !x.slowNetwork())
                        .map(Scenario::name).toList()));
            }
        }
        if (scenarios.stream().distinct().count() != scenarios.size()) {
            throw new IllegalArgumentException("a scenario is named twice: " + String.join(",", scenarios));
        }
        for (int c : clients) {
            if (c < 1 || c > 64) {
                throw new IllegalArgumentException("clients must be 1-64, was " + c);
            }
        }
        for (int t : threads) {
            if (t < 1 || t > 1024) {
                throw new IllegalArgumentException("threads must be 1-1024 per client, was " + t);
            }
        }
        for (int c : clients) {
            for (int t : threads) {
                if (c * t > LoadSpec.MAX_WORKERS) {
                    throw new IllegalArgumentException(c + " clients x " + t + " threads is over " + LoadSpec.MAX_WORKERS + " workers");
                }
            }
        }
        for (double r : rates) {
            if (!(r > 0) || r > 10_000_000) {
                throw new IllegalArgumentException("rates must be above 0 and at most 10,000,000 op/s, was " + r);
            }
        }
        if (duration.compareTo(Duration.ofSeconds(1)) < 0 || duration.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("a cell's duration must be 1s-1h, was " + Durations.human(duration));
        }
        if (warmup.isNegative() || warmup.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException("a cell's warm-up must be 0-10m, was " + Durations.human(warmup));
        }
        if (repeats < 1 || repeats > 50) {
            throw new IllegalArgumentException("repeats must be 1-50, was " + repeats);
        }
        io.cpbench.core.sweep.SweepAnalysis.checkSlo(slo);
        if (slo.stage() != 0) {
            throw new IllegalArgumentException("--slo '" + slo.text() + "': a sweep's cells have one stage; leave out the stage");
        }
        memberSettings = memberSettings == null || memberSettings.isEmpty() ? List.of(MemberTuning.NONE) : List.copyOf(memberSettings);
        if (memberSettings.size() > 64) {
            throw new IllegalArgumentException("member settings make " + memberSettings.size() + " clusters; at most 64, please");
        }
        scenarios = List.copyOf(scenarios);
        clients = List.copyOf(clients);
        threads = List.copyOf(threads);
        rates = List.copyOf(rates);
        // the mix must parse, and the SLO's op must be in it
        LoadSpec check = LoadSpec.builder().mix(mix).build();
        if (slo.op() != null && !check.mix().containsKey(slo.op())) {
            throw new IllegalArgumentException("--slo '" + slo.text() + "': op " + slo.op().key() + " is not in the mix " + mix);
        }
        if (check.mix().containsKey(io.cpbench.core.load.OpType.NOOP)) {
            throw new IllegalArgumentException("a sweep measures CP ops; noop is for the engine alone (cpbench load --mix noop)");
        }
    }

    /**
     * The cells of one repeat, level by level and, within a level, routing by routing: the routings compared at a
     * level run next to each other, so a drift of the machine between them is small.
     */
    public List<SweepCell> cells() {
        List<SweepCell> cells = new ArrayList<>();
        for (MemberTuning tuning : memberSettings) {
            cells.addAll(cells(tuning));
        }
        return cells;
    }

    /** The cells that run on a cluster with these member settings. */
    public List<SweepCell> cells(MemberTuning tuning) {
        List<SweepCell> cells = new ArrayList<>();
        List<Double> rateLevels = rates.isEmpty() ? java.util.Collections.singletonList(null) : rates;
        String members = tuning.isEmpty() ? "" : tuning.describe();
        for (int c : clients) {
            for (int t : threads) {
                for (Double rate : rateLevels) {
                    for (String s : scenarios) {
                        cells.add(new SweepCell(s, c, t, rate, members));
                    }
                }
            }
        }
        cells.sort(java.util.Comparator.comparingInt(SweepCell::workers)
                .thenComparingDouble(c -> c.rate() == null ? 0 : c.rate()).thenComparingInt(SweepCell::clients));
        return cells;
    }

    /** Each member setting is a cluster of its own, started afresh in every repeat. */
    public boolean clusterPerSetting() {
        return memberSettings.size() > 1;
    }

    /**
     * Whether every repeat starts its own cluster(s): with several member settings, or when asked
     * ({@code --fresh-clusters}), so that the intervals over repeats hold the cluster-to-cluster spread too.
     */
    public boolean clusterPerRepeat() {
        return clusterPerSetting() || freshClusters;
    }

    /** How long the cells take, overhead included, and the extra clusters' starts (not the first one's). */
    public Duration estimate(Duration clusterWarmup) {
        Duration perCell = duration.plus(warmup).plus(CELL_OVERHEAD);
        Duration cellsTime = perCell.multipliedBy((long) cells().size() * repeats);
        if (!clusterPerRepeat()) {
            return cellsTime;
        }
        long extraClusters = (long) memberSettings.size() * repeats - 1;
        return cellsTime.plus(CLUSTER_START.plus(clusterWarmup).multipliedBy(extraClusters));
    }

    /**
     * The member-setting grid: {@code KNOB=V1,V2} items, multiplied out; {@code [NONE]} when there are none.
     *
     * @throws IllegalArgumentException naming the item
     */
    public static List<MemberTuning> memberGrid(java.util.Map<String, List<Integer>> knobs) {
        List<MemberTuning> grid = new ArrayList<>(List.of(MemberTuning.NONE));
        knobs.forEach((knob, values) -> {
            if (values.isEmpty()) {
                throw new IllegalArgumentException("member setting " + knob + " needs at least one value");
            }
            List<MemberTuning> next = new ArrayList<>();
            for (MemberTuning t : grid) {
                for (int v : values) {
                    next.add(t.with(new MemberTuning(java.util.Map.of(knob, v))));
                }
            }
            grid.clear();
            grid.addAll(next);
        });
        return grid;
    }

    /** Parses {@code --vary-member KNOB=V1,V2} items. */
    public static java.util.Map<String, List<Integer>> parseVary(List<String> items) {
        java.util.Map<String, List<Integer>> knobs = new java.util.LinkedHashMap<>();
        for (String item : items) {
            int eq = item.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("--vary-member '" + item + "' must read KNOB=V1,V2,..., like operation-threads=1,2,4;"
                        + " knobs: " + MemberTuning.Knob.known());
            }
            List<Integer> values = new ArrayList<>();
            for (String v : item.substring(eq + 1).split(",")) {
                try {
                    values.add(Integer.parseInt(v.trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--vary-member '" + item + "': '" + v.trim() + "' is not a whole number");
                }
            }
            knobs.put(item.substring(0, eq).trim(), values);
        }
        return knobs;
    }

    public String describe() {
        String levels = rates.isEmpty()
                ? "clients " + join(clients) + " x threads " + join(threads)
                : "clients " + join(clients) + " x threads " + join(threads) + " x rates " + join(rates.stream()
                .map(r -> String.format(Locale.ROOT, "%.0f", r)).toList()) + " op/s (open loop)";
        if (clusterPerSetting()) {
            levels = levels + " x " + memberSettings.size() + " member settings (" + String.join("; ",
                    memberSettings.stream().map(MemberTuning::describe).toList()) + ", a cluster each)";
        }
        if (freshClusters && !clusterPerSetting()) {
            levels = levels + " (a fresh cluster per repeat)";
        }
        return String.format(Locale.ROOT, "%d routing%s (%s) x %s = %d cells, x %d repeat%s; each cell %s warm-up + %s measured;"
                        + " mix %s; SLO %s", scenarios.size(), scenarios.size() == 1 ? "" : "s", String.join(", ", scenarios),
                levels, cells().size(), repeats, repeats == 1 ? "" : "s", Durations.human(warmup),
                Durations.human(duration), mix, slo.text());
    }

    private static String join(List<?> values) {
        return String.join(",", values.stream().map(String::valueOf).toList());
    }

    /**
     * The values a YAML grid file gives; absent keys are null. A list may be written {@code [1, 2, 4]}, {@code 1,2,4}
     * or as one value, and a number or a flag as text ({@code "4"}, {@code "true"}): a grid is often written by a
     * script.
     */
    @RecordBuilder
    public record FileValues(@JsonDeserialize(using = Words.class) List<String> scenarios,
                             @JsonDeserialize(using = Words.class) List<Integer> clients,
                             @JsonDeserialize(using = Words.class) List<Integer> threads,
                             @JsonDeserialize(using = Words.class) List<Double> rates,
                             String mix, Duration duration, Duration warmup, Integer repeats, String slo,
                             @JsonDeserialize(contentUsing = Words.class) java.util.Map<String, List<Integer>> members,
                             @JsonProperty("fresh-clusters") Boolean freshClusters) {

        public static final FileValues NONE = SweepGridFileValuesBuilder.builder().build();
    }

    private static final SpecMapping GRID = SpecMapping.lenient().unknownCalled("key")
            .text(Duration.class, "a duration, like 30s", Durations::parse)
            .must("members", "must map settings to lists, like {operation-threads: [1, 2, 4]}");
    /** The keys a grid file may give (FileValues' components), sorted. */
    public static final List<String> KEYS = GRID.keys(FileValues.class);

    /** @throws IllegalArgumentException naming the file and what is wrong, in one line */
    public static FileValues readFile(Path file) {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("--grid: cannot read " + file);
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("--grid: cannot read " + file + ": " + e.getMessage());
        }
        try {
            JsonNode tree = SpecMapping.tree(text);
            if (tree == null) {
                return FileValues.NONE;
            }
            if (!tree.isObject()) {
                throw new IllegalArgumentException("a grid is a mapping of keys (" + String.join(", ", KEYS) + ")");
            }
            return GRID.read(tree, FileValues.class);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage());
        }
    }
}
