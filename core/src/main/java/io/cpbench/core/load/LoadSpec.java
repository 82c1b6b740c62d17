package io.cpbench.core.load;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a load run does, as plain data: the op mix, the CP objects, how many clients and threads, the schedule
 * (closed loop, open loop at a rate, or stages that ramp either), thresholds. Immutable; build it with
 * {@link #builder()}, or read it from YAML with {@link #fromYaml(Path)}. Everything is checked here, at the edge:
 * a bad spec gets an {@link IllegalArgumentException} whose message names the field.
 *
 * @param mix         op weights; ops with weight 0 are left out
 * @param objects     how many CP objects of each kind the ops spread over (picked at random per op)
 * @param prefix      object names start with this; the run appends a per-run suffix so runs never share state
 * @param groups      CP groups the objects spread over, round robin ({@code name@group}); {@code default} alone by default
 * @param names       the objects' names as given, instead of prefix + per-run suffix + index (empty: generated); a name
 *                    may carry its group ({@code orders@g1}). They are used as they are, so the counter invariant holds
 *                    only if nothing else increments them meanwhile
 * @param clients     client instances
 * @param threads     workers per client; clients x threads workers in all
 * @param open        open loop: ops start at the profile's rate, each timed from when it was due; else a closed loop
 *                    whose profile is the number of active workers
 * @param profile     the level over time: a flat rate or worker count for a duration, or stages
 * @param warmup      untimed ops before measuring (closed loop with every worker; open loop at the first rate); zero for none
 * @param interval    how often numbers are taken (the per-second CSV and live line)
 * @param drain       how long past the end to wait for ops still due or in flight before abandoning them
 * @param thresholds  pass/fail criteria checked at the end (see {@link Threshold})
 * @param abortOnFail stop as soon as an upper-bound threshold is crossed on the numbers so far
 * @param seed        seed of the op and object choices, so a run's sequence can be repeated
 * @param bounds      a closed loop bounded by op counts and a time box (a scenario run's shape; see {@link #scenario()}),
 *                    or null: the warm-up and the profile are the run
 */
public record LoadSpec(Map<OpType, Integer> mix, int objects, String prefix, List<String> groups, List<String> names,
                       int clients,
                       int threads, boolean open, Profile profile, Duration warmup, Duration interval, Duration drain,
                       List<Threshold> thresholds, boolean abortOnFail, long seed, Bounds bounds) {

    public static final int MAX_WORKERS = 4096;
    /**
     * A scenario's warm-up. The seed warmed up with 10,000 ops, about 8 s at its 1,299 op/s on the leader
     * (docs/matrix.md) but minutes through a slow member; a time is the same for every scenario.
     */
    public static final Duration SCENARIO_WARMUP = Duration.ofSeconds(10);
    /** A scenario's measured ops: the seed's 500,000. */
    public static final long SEED_OPS = 500_000;
    /** A scenario's time box. */
    public static final Duration DEFAULT_TIMEBOX = Duration.ofMinutes(10);
    /** A scenario's ops failing back to back on one worker before the run ends FAIL. */
    public static final int SCENARIO_MAX_CONSECUTIVE_ERRORS = 100;
    /** A scenario's grace for ops in flight past the time box or a stop: its {@link #drain()}. */
    public static final Duration SCENARIO_GRACE = Duration.ofSeconds(30);
    /** The longest schedule; an op-count run's schedule is its time box, up to this. */
    private static final Duration LONGEST = Duration.ofHours(24);

    /**
     * A closed loop bounded by op counts and a time box: a scenario run's shape. Ops in flight past the time box,
     * or past a stop, get the spec's {@link LoadSpec#drain()} before they are abandoned.
     *
     * @param warmupOps            ops run and discarded first, shared over the workers; 0 to warm up for the spec's
     *                             warm-up time instead. Either ends early at {@link #WARMUP_SHARE_OF_TIMEBOX} of the
     *                             time box, so a slow run still gets measured
     * @param ops                  ops to measure, shared over the workers; 0 to measure for the schedule's duration
     * @param timebox              the most the run may take, warm-up included; a run that reaches it ends TIMEBOXED
     * @param maxConsecutiveErrors ops failing back to back on one worker before the run ends FAIL; 0 for never
     */
    public record Bounds(long warmupOps, long ops, Duration timebox, int maxConsecutiveErrors) {

        /** Warm-up may use at most this share of the time box. */
        public static final double WARMUP_SHARE_OF_TIMEBOX = 0.2;

        public Bounds {
            if (warmupOps < 0 || ops < 0) {
                throw new IllegalArgumentException("bounds: op counts must be 0 or more, were " + warmupOps + " and " + ops);
            }
            if (timebox == null || timebox.isNegative() || timebox.isZero()) {
                throw new IllegalArgumentException("bounds.timebox must be positive, was " + timebox);
            }
            if (maxConsecutiveErrors < 0) {
                throw new IllegalArgumentException("bounds.maxConsecutiveErrors must be 0 or more, was " + maxConsecutiveErrors);
            }
        }
    }

    public LoadSpec {
        if (mix == null || mix.isEmpty()) {
            throw new IllegalArgumentException("mix: give at least one op with a weight, e.g. cas: 1 (ops: " + OpType.known() + ")");
        }
        Map<OpType, Integer> kept = new EnumMap<>(OpType.class);
        mix.forEach((op, weight) -> {
            if (weight == null || weight < 0) {
                throw new IllegalArgumentException("mix: weight of " + op.key() + " must be 0 or more, was " + weight);
            }
            if (weight > 0) {
                kept.put(op, weight);
            }
        });
        if (kept.isEmpty()) {
            throw new IllegalArgumentException("mix: every weight is 0");
        }
        if (kept.containsKey(OpType.NOOP) && kept.size() > 1) {
            throw new IllegalArgumentException("mix: noop measures the engine alone and cannot be mixed with CP ops");
        }
        if (kept.containsKey(OpType.CALL) && kept.size() > 1) {
            throw new IllegalArgumentException("mix: a caller's own op runs alone and cannot be mixed with other ops");
        }
        mix = Collections.unmodifiableMap(kept);
        if (objects < 1 || objects > 10_000) {
            throw new IllegalArgumentException("objects.count must be 1-10000, was " + objects);
        }
        if (prefix == null || !prefix.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new IllegalArgumentException("objects.prefix must be 1-64 letters, digits, '_', '.' or '-', was '" + prefix + "'");
        }
        groups = groups == null || groups.isEmpty() ? List.of("default") : List.copyOf(groups);
        for (String g : groups) {
            if (g == null || !g.matches("[A-Za-z0-9_-]{1,64}")) {
                throw new IllegalArgumentException("objects.groups: '" + g + "' is not a CP group name (letters, digits, '_', '-')");
            }
        }
        names = names == null ? List.of() : List.copyOf(names);
        if (!names.isEmpty()) {
            if (names.size() != objects) {
                throw new IllegalArgumentException("objects: count is " + objects + " but " + names.size() + " names are given");
            }
            for (String n : names) {
                if (n == null || !n.matches("[A-Za-z0-9_.-]{1,64}(@[A-Za-z0-9_-]{1,64})?")) {
                    throw new IllegalArgumentException("objects.names: '" + n + "' is not a CP object name (letters, digits,"
                            + " '_', '.', '-', optionally @group)");
                }
            }
            if (new java.util.HashSet<>(names).size() != names.size()) {
                throw new IllegalArgumentException("objects.names: a name is given twice");
            }
        }
        if (clients < 1 || clients > 256) {
            throw new IllegalArgumentException("clients must be 1-256, was " + clients);
        }
        if (threads < 1 || threads > MAX_WORKERS) {
            throw new IllegalArgumentException("threads must be 1-" + MAX_WORKERS + " per client, was " + threads);
        }
        if ((long) clients * threads > MAX_WORKERS) {
            throw new IllegalArgumentException("clients x threads must be at most " + MAX_WORKERS + ", was " + clients * threads);
        }
        if (profile == null) {
            throw new IllegalArgumentException("schedule: give a duration (with a rate for an open loop) or stages");
        }
        if (profile.totalNanos() > Duration.ofHours(24).toNanos()) {
            throw new IllegalArgumentException("schedule: a run may last at most 24h");
        }
        if (open) {
            if (profile.peak() <= 0) {
                throw new IllegalArgumentException("schedule.rate: an open loop needs a rate above 0");
            }
            if (profile.peak() > 10_000_000) {
                throw new IllegalArgumentException("schedule.rate: at most 10,000,000 op/s, was " + profile.peak());
            }
        } else {
            if (profile.peak() > (long) clients * threads) {
                throw new IllegalArgumentException("schedule.stages: a closed loop ramps up to " + (long) profile.peak()
                        + " workers, but clients x threads is " + clients * threads);
            }
            if (profile.peak() < 1) {
                throw new IllegalArgumentException("schedule.stages: a closed loop needs at least one worker at some point");
            }
        }
        warmup = warmup == null ? Duration.ZERO : warmup;
        if (warmup.isNegative() || warmup.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("schedule.warmup must be 0-1h, was " + warmup);
        }
        interval = interval == null ? Duration.ofSeconds(1) : interval;
        if (interval.toMillis() < 10 || interval.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException("interval must be 10ms-1m, was " + interval);
        }
        drain = drain == null ? Duration.ofSeconds(10) : drain;
        if (drain.isNegative() || drain.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException("drain must be 0-10m, was " + drain);
        }
        thresholds = thresholds == null ? List.of() : List.copyOf(thresholds);
        for (Threshold t : thresholds) {
            t.checkAgainst(mix.keySet(), profile.stages().size(), open);
        }
        if (bounds != null && open) {
            throw new IllegalArgumentException("bounds: op counts and a time box need a closed loop");
        }
        if (bounds != null && bounds.warmupOps() > 0 && !warmup.isZero()) {
            throw new IllegalArgumentException("give a warm-up time or warm-up ops, not both");
        }
    }

    /**
     * A scenario run's spec, to adjust and build: the caller's op ({@link OpType#CALL}) on 1 thread, warmed up for
     * {@link #SCENARIO_WARMUP}, then {@link #SEED_OPS} ops measured inside a {@link #DEFAULT_TIMEBOX} time box; ops
     * failing {@link #SCENARIO_MAX_CONSECUTIVE_ERRORS} times back to back end it; numbers every second.
     */
    public static Builder scenario() {
        return builder().op(OpType.CALL, 1).warmup(SCENARIO_WARMUP).ops(SEED_OPS).timebox(DEFAULT_TIMEBOX)
                .maxConsecutiveErrors(SCENARIO_MAX_CONSECUTIVE_ERRORS).drain(SCENARIO_GRACE).seed(1);
    }

    /** How long an op-count bounded run measures when it measures for a time rather than a count; else null. */
    public Duration measuredFor() {
        return bounds != null && bounds.ops() == 0 ? Duration.ofNanos(profile.totalNanos()) : null;
    }

    /** The warm-up, for progress lines: "10 s", or "10,000 ops" when it is an op count. */
    public String warmupText() {
        return bounds != null && bounds.warmupOps() > 0 ? String.format(Locale.ROOT, "%,d ops", bounds.warmupOps())
                : Durations.format(warmup);
    }

    public int workers() {
        return clients * threads;
    }

    /** The spec as plain data, for the result file and for {@link #fromTree} to read back. */
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        Map<String, Integer> weights = new LinkedHashMap<>();
        mix.forEach((op, w) -> weights.put(op.key(), w));
        d.put("mix", weights);
        Map<String, Object> objectFields = new LinkedHashMap<>();
        objectFields.put("count", objects);
        objectFields.put("prefix", prefix);
        objectFields.put("groups", groups);
        if (!names.isEmpty()) {
            objectFields.put("names", names);
        }
        d.put("objects", objectFields);
        d.put("clients", clients);
        d.put("threads", threads);
        Map<String, Object> schedule = new LinkedHashMap<>();
        schedule.put("mode", open ? "open" : "closed");
        schedule.put("start", profile.startLevel());
        schedule.put("stages", profile.stages().stream().map(Stage::toString).toList());
        schedule.put("warmup", Durations.format(warmup));
        d.put("schedule", schedule);
        d.put("interval", Durations.format(interval));
        d.put("drain", Durations.format(drain));
        d.put("thresholds", thresholds.stream().map(Threshold::text).toList());
        d.put("abortOnFail", abortOnFail);
        d.put("seed", seed);
        if (bounds != null) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("warmupOps", bounds.warmupOps());
            b.put("ops", bounds.ops());
            b.put("timebox", Durations.format(bounds.timebox()));
            b.put("maxConsecutiveErrors", bounds.maxConsecutiveErrors());
            d.put("bounds", b);
        }
        return d;
    }

    /** One line: {@code open loop 30s:0→2000, 1m:2000; mix cas 3, increment 1; 2 clients x 4 threads}. */
    public String summary() {
        List<String> mixText = new ArrayList<>();
        mix.forEach((op, w) -> mixText.add(op.key() + " " + w));
        String level = open ? " op/s" : " workers";
        String shape = profile.stages().size() == 1 && profile.startLevel() == profile.stages().get(0).target()
                ? fmt(profile.startLevel()) + level + " for " + Durations.format(profile.stages().get(0).duration())
                : "from " + fmt(profile.startLevel()) + level + ", stages " + profile.stages();
        return String.format(Locale.ROOT, "%s, %s; mix %s; %d object%s in %s; %d client%s x %d thread%s",
                open ? "open loop" : "closed loop", shape, String.join(", ", mixText), objects, objects == 1 ? "" : "s",
                groups.size() == 1 ? "group " + groups.get(0) : "groups " + groups, clients, clients == 1 ? "" : "s",
                threads, threads == 1 ? "" : "s");
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%,d", (long) v) : String.format(Locale.ROOT, "%,.1f", v);
    }

    /** The CP group of object {@code j}: its given name's {@code @group}, else {@link #groups()} round robin. */
    public String objectGroup(int j) {
        String given = names.isEmpty() ? null : names.get(j);
        return given != null && given.contains("@") ? given.substring(given.indexOf('@') + 1) : groups.get(j % groups.size());
    }

    /** The CP groups the objects are in, each once, in the order of the objects ({@link #objectGroup}). */
    public List<String> objectGroups() {
        java.util.LinkedHashSet<String> used = new java.util.LinkedHashSet<>();
        for (int j = 0; j < objects; j++) {
            used.add(objectGroup(j));
        }
        return List.copyOf(used);
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.mix.putAll(mix);
        b.objects = objects;
        b.prefix = prefix;
        b.names = names;
        b.groups = groups;
        b.clients = clients;
        b.threads = threads;
        b.open = open;
        b.start = profile.startLevel();
        b.stages = profile.stages();
        b.warmup = warmup;
        b.interval = interval;
        b.drain = drain;
        b.thresholds = new ArrayList<>(thresholds.stream().map(Threshold::text).toList());
        b.abortOnFail = abortOnFail;
        b.seed = seed;
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

    public static Builder builder() {
        return new Builder();
    }

    /** Reads a YAML spec file; see docs/load.md for its fields. */
    public static LoadSpec fromYaml(Path file) {
        return LoadSpecFile.fromYaml(file);
    }

    /** Parses YAML text into a tree, for callers that take fields of their own out first. */
    public static JsonNode readTree(String yaml) {
        return LoadSpecFile.readTree(yaml);
    }

    /**
     * A builder filled from a spec's tree. Fields named in {@code ignored} belong to the caller (the CLI's
     * {@code scenario}, say); any other unknown field is an error that names it.
     */
    public static Builder fromTree(JsonNode tree, Set<String> ignored) {
        return LoadSpecFile.fromTree(tree, ignored);
    }

    /**
     * Builds a spec. Defaults: the seed's {@code cas} op alone, 1 object in group {@code default}, 1 client x 1
     * thread, closed loop for 30 s after a 5 s warm-up, numbers every second.
     */
    public static final class Builder {
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

        /** Adds an op to the mix with this weight (replacing its weight if it is there). */
        public Builder op(OpType op, int weight) {
            mix.put(op, weight);
            return this;
        }

        /** Empties the mix (a spec file's mix replaces the default). */
        Builder clearMix() {
            mix.clear();
            return this;
        }

        /** Replaces the mix: {@code cas=3,increment=1}, or op names alone for equal weights. */
        public Builder mix(String text) {
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

        public Builder objects(int value) {
            objects = value;
            return this;
        }

        public Builder prefix(String value) {
            prefix = value;
            return this;
        }

        /** The objects' names as given (their count is the object count); see {@link LoadSpec#names()}. */
        public Builder names(List<String> value) {
            names = List.copyOf(value);
            if (!names.isEmpty()) {
                objects = names.size();
            }
            return this;
        }

        public Builder groups(List<String> value) {
            groups = List.copyOf(value);
            return this;
        }

        public Builder clients(int value) {
            clients = value;
            return this;
        }

        public Builder threads(int value) {
            threads = value;
            return this;
        }

        /** Open loop at this rate, op/s (with {@link #duration}, or as the start of {@link #stages}). */
        public Builder rate(double opsPerSecond) {
            rate = opsPerSecond;
            open = true;
            return this;
        }

        /** Open loop (true) or closed loop (false); by default open exactly when a rate is given. */
        public Builder open(boolean value) {
            open = value;
            return this;
        }

        /** The level before the first stage: workers (closed; default 1) or op/s (open; default 0). */
        public Builder start(double level) {
            start = level;
            return this;
        }

        /**
         * Measure for this long: the schedule's duration; in an op-count bounded run, instead of {@link #ops}. A copied
         * spec's flat schedule (one stage at one level) gives way to it, as it does to an op count.
         */
        public Builder duration(Duration value) {
            duration = value;
            ops = 0;
            clearFlatSchedule();
            return this;
        }

        /**
         * Measure this many ops, shared over the workers, instead of for a duration: an op-count bounded run (with
         * {@link #timebox}), whose schedule is its time box.
         */
        public Builder ops(long value) {
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
        public Builder timebox(Duration value) {
            timebox = value;
            return this;
        }

        /** Warm up with this many ops (an op-count bounded run) instead of for a time. */
        public Builder warmupOps(long value) {
            warmupOps = value;
            warmup = Duration.ZERO;
            return this;
        }

        /** Ops failing back to back on one worker before an op-count bounded run ends FAIL; 0 for never. */
        public Builder maxConsecutiveErrors(int value) {
            maxConsecutiveErrors = value;
            return this;
        }

        /** Bounds the run by op counts and a time box ({@link Bounds}), or not (null). */
        public Builder bounds(Bounds value) {
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

        public Builder stages(List<Stage> value) {
            stages = value == null ? null : List.copyOf(value);
            return this;
        }

        /** {@code 30s:10,1m:50,30s:0}. */
        public Builder stages(String text) {
            return stages(Stage.parseList(text));
        }

        /** Warm up for this long (zero for none), instead of {@link #warmupOps}. */
        public Builder warmup(Duration value) {
            warmup = value;
            warmupOps = 0;
            return this;
        }

        public Builder interval(Duration value) {
            interval = value;
            return this;
        }

        public Builder drain(Duration value) {
            drain = value;
            return this;
        }

        /** Adds a threshold, like {@code cas:p99<5ms}; see {@link Threshold}. */
        public Builder threshold(String text) {
            thresholds.add(text);
            return this;
        }

        public Builder clearThresholds() {
            thresholds.clear();
            return this;
        }

        public Builder abortOnFail(boolean value) {

            abortOnFail = value;
            return this;
        }

        public Builder seed(long value) {
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
            Bounds bounds = timebox == null ? null : new Bounds(warmupOps, ops, timebox, maxConsecutiveErrors);
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
            Duration duration = bounds != null && ops > 0 ? (timebox.compareTo(LONGEST) > 0 ? LONGEST : timebox) : this.duration;
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
                    isOpen, profile, warmup, interval, drain, parsed, abortOnFail,
                    seed != null ? seed : System.nanoTime(), bounds);
        }
    }
}
