package io.cpbench.core.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a spec. Defaults: the seed's {@code cas} op alone, 1 object in group {@code default}, 1 client x 1
 * thread, closed loop for 30 s after a 5 s warm-up, numbers every second.
 */
public final class LoadSpecBuilder {
    private final Map<OpType, Integer> mix = new LinkedHashMap<>();
    private int objects = 1;
    private String prefix = "cpbench-load";
    private List<String> names = List.of();
    private List<String> groups = List.of("default");
    private int clients = 1;
    private int threads = 1;
    private Boolean open;
    private Double rate;
    private Double start;
    private Duration duration;
    private List<Stage> stages;
    private Duration warmup = Duration.ofSeconds(5);
    private Duration interval = Duration.ofSeconds(1);
    private Duration drain = Duration.ofSeconds(10);
    private List<String> thresholds = new ArrayList<>();
    private boolean abortOnFail;
    private Long seed;
    private long warmupOps;
    private long ops;
    private Duration timebox;
    private int maxConsecutiveErrors;

    /** A builder that starts from {@code spec}. */
    static LoadSpecBuilder of(LoadSpec spec) {
        LoadSpecBuilder b = new LoadSpecBuilder();
        b.mix.putAll(spec.mix());
        b.objects = spec.objects();
        b.prefix = spec.prefix();
        b.names = spec.names();
        b.groups = spec.groups();
        b.clients = spec.clients();
        b.threads = spec.threads();
        b.open = spec.open();
        b.start = spec.profile().startLevel();
        b.stages = spec.profile().stages();
        b.warmup = spec.warmup();
        b.interval = spec.interval();
        b.drain = spec.drain();
        b.thresholds = new ArrayList<>(spec.thresholds().stream().map(Threshold::text).toList());
        b.abortOnFail = spec.abortOnFail();
        b.seed = spec.seed();
        LoadSpec.Bounds bounds = spec.bounds();
        if (bounds != null) {
            b.warmupOps = bounds.warmupOps();
            b.ops = bounds.ops();
            b.timebox = bounds.timebox();
            b.maxConsecutiveErrors = bounds.maxConsecutiveErrors();
            if (bounds.ops() > 0) {
                b.clearFlatSchedule(); // an op count's schedule follows the time box
            }
        }
        return b;
    }

    /** Adds an op to the mix with this weight (replacing its weight if it is there). */
    public LoadSpecBuilder op(OpType op, int weight) {
        mix.put(op, weight);
        return this;
    }

    /** Empties the mix (a spec file's mix replaces the default). */
    LoadSpecBuilder clearMix() {
        mix.clear();
        return this;
    }

    /** Replaces the mix: {@code cas=3,increment=1}, or op names alone for equal weights. */
    public LoadSpecBuilder mix(String text) {
        mix.clear();
        for (String part : text.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] kv = part.split("[=:]");
            OpType op = OpType.of(kv[0]);
            int weight = 1;
            if (kv.length == 2) {
                try {
                    weight = Integer.parseInt(kv[1].trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("mix: weight of " + op.key() + " must be a whole number, was '" + kv[1] + "'");
                }
            } else if (kv.length > 2) {
                throw new IllegalArgumentException("mix: '" + part + "' must be OP or OP=WEIGHT");
            }
            mix.put(op, weight);
        }
        return this;
    }

    public LoadSpecBuilder objects(int value) {
        objects = value;
        return this;
    }

    public LoadSpecBuilder prefix(String value) {
        prefix = value;
        return this;
    }

    /** The objects' names as given (their count is the object count); see {@link LoadSpec#names()}. */
    public LoadSpecBuilder names(List<String> value) {
        names = List.copyOf(value);
        if (!names.isEmpty()) {
            objects = names.size();
        }
        return this;
    }

    public LoadSpecBuilder groups(List<String> value) {
        groups = List.copyOf(value);
        return this;
    }

    public LoadSpecBuilder clients(int value) {
        clients = value;
        return this;
    }

    public LoadSpecBuilder threads(int value) {
        threads = value;
        return this;
    }

    /** Open loop at this rate, op/s (with {@link #duration}, or as the start of {@link #stages}). */
    public LoadSpecBuilder rate(double opsPerSecond) {
        rate = opsPerSecond;
        open = true;
        return this;
    }

    /** Open loop (true) or closed loop (false); by default open exactly when a rate is given. */
    public LoadSpecBuilder open(boolean value) {
        open = value;
        return this;
    }

    /** The level before the first stage: workers (closed; default 1) or op/s (open; default 0). */
    public LoadSpecBuilder start(double level) {
        start = level;
        return this;
    }

    /**
     * Measure for this long: the schedule's duration; in an op-count bounded run, instead of {@link #ops}. A copied
     * spec's flat schedule (one stage at one level) gives way to it, as it does to an op count.
     */
    public LoadSpecBuilder duration(Duration value) {
        duration = value;
        ops = 0;
        clearFlatSchedule();
        return this;
    }

    /**
     * Measure this many ops, shared over the workers, instead of for a duration: an op-count bounded run (with
     * {@link #timebox}), whose schedule is its time box.
     */
    public LoadSpecBuilder ops(long value) {
        if (value < 1) {
            throw new IllegalArgumentException("ops must be a positive number, was " + value);
        }
        ops = value;
        duration = null;
        clearFlatSchedule();
        return this;
    }

    /** Forgets a flat schedule's one stage (a copied spec's), so that an op count's follows its time box. */
    private void clearFlatSchedule() {
        if (stages != null && stages.size() == 1 && start != null && start == stages.get(0).target()) {
            stages = null;
            start = null;
        }
    }

    /** The most an op-count bounded run may take, warm-up included; null for a run that is not bounded. */
    public LoadSpecBuilder timebox(Duration value) {
        timebox = value;
        return this;
    }

    /** Warm up with this many ops (an op-count bounded run) instead of for a time. */
    public LoadSpecBuilder warmupOps(long value) {
        warmupOps = value;
        warmup = Duration.ZERO;
        return this;
    }

    /** Ops failing back to back on one worker before an op-count bounded run ends FAIL; 0 for never. */
    public LoadSpecBuilder maxConsecutiveErrors(int value) {
        maxConsecutiveErrors = value;
        return this;
    }

    /** Bounds the run by op counts and a time box ({@link LoadSpec.Bounds}), or not (null). */
    public LoadSpecBuilder bounds(LoadSpec.Bounds value) {
        if (value == null) {
            warmupOps = 0;
            ops = 0;
            timebox = null;
            maxConsecutiveErrors = 0;
            return this;
        }
        warmupOps = value.warmupOps();
        if (warmupOps > 0) {
            warmup = Duration.ZERO;
        }
        ops = value.ops();
        if (ops > 0) {
            duration = null;
            clearFlatSchedule();
        }
        timebox = value.timebox();
        maxConsecutiveErrors = value.maxConsecutiveErrors();
        return this;
    }

    public LoadSpecBuilder stages(List<Stage> value) {
        stages = value == null ? null : List.copyOf(value);
        return this;
    }

    /** {@code 30s:10,1m:50,30s:0}. */
    public LoadSpecBuilder stages(String text) {
        return stages(Stage.parseList(text));
    }

    /** Warm up for this long (zero for none), instead of {@link #warmupOps}. */
    public LoadSpecBuilder warmup(Duration value) {
        warmup = value;
        warmupOps = 0;
        return this;
    }

    public LoadSpecBuilder interval(Duration value) {
        interval = value;
        return this;
    }

    public LoadSpecBuilder drain(Duration value) {
        drain = value;
        return this;
    }

    /** Adds a threshold, like {@code cas:p99<5ms}; see {@link Threshold}. */
    public LoadSpecBuilder threshold(String text) {
        thresholds.add(text);
        return this;
    }

    public LoadSpecBuilder clearThresholds() {
        thresholds.clear();
        return this;
    }

    public LoadSpecBuilder abortOnFail(boolean value) {

        abortOnFail = value;
        return this;
    }

    public LoadSpecBuilder seed(long value) {
        seed = value;
        return this;
    }

    /** @throws IllegalArgumentException naming the field that is wrong */
    public LoadSpec build() {
        boolean isOpen = open != null ? open : rate != null;
        Profile profile;
        if (stages != null && duration != null) {
            throw new IllegalArgumentException("schedule: give either a duration or stages, not both");
        }
        LoadSpec.Bounds bounds = timebox == null ? null : new LoadSpec.Bounds(warmupOps, ops, timebox, maxConsecutiveErrors);
        if (bounds != null && isOpen) {
            throw new IllegalArgumentException("bounds: op counts and a time box need a closed loop");
        }
        if (timebox == null && (ops > 0 || warmupOps > 0)) {
            throw new IllegalArgumentException("bounds: op counts need a time box");
        }
        if (bounds != null && ops > 0 && stages != null) {
            throw new IllegalArgumentException("bounds: give either ops to measure or stages, not both");
        }
        // an op count runs for as long as it takes, up to the time box
        Duration duration = bounds != null && ops > 0 ? (timebox.compareTo(LoadSpec.LONGEST) > 0 ? LoadSpec.LONGEST : timebox) : this.duration;
        if (stages != null) {
            double from = start != null ? start : isOpen ? (rate != null ? rate : 0) : 1;
            profile = new Profile(from, stages);
        } else {
            Duration d = duration != null ? duration : Duration.ofSeconds(30);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("schedule.duration must be positive, was " + d);
            }
            if (isOpen && rate == null) {
                throw new IllegalArgumentException("schedule: an open loop needs a rate (or stages)");
            }
            double level = isOpen ? rate : start != null ? start : (double) clients * threads;
            profile = Profile.flat(level, d);
        }
        if (!isOpen && rate != null) {
            throw new IllegalArgumentException("schedule: a rate needs mode open");
        }
        List<Threshold> parsed = new ArrayList<>();
        for (String t : thresholds) {
            parsed.add(Threshold.parse(t));
        }
        return new LoadSpec(mix.isEmpty() ? Map.of(OpType.CAS, 1) : mix, objects, prefix, groups, names, clients, threads,
                isOpen, profile, warmup, interval, drain, new LoadSpec.Gate(parsed, abortOnFail),
                seed != null ? seed : System.nanoTime(), bounds);
    }
}
