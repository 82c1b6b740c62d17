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
 * @param gate        pass/fail criteria checked at the end, and whether crossing one stops the run ({@link Gate})
 * @param seed        seed of the op and object choices, so a run's sequence can be repeated
 * @param bounds      a closed loop bounded by op counts and a time box (a scenario run's shape; see {@link #scenario()}),
 *                    or null: the warm-up and the profile are the run
 */
public record LoadSpec(Map<OpType, Integer> mix, int objects, String prefix, List<String> groups, List<String> names,
                       int clients,
                       int threads, boolean open, Profile profile, Duration warmup, Duration interval, Duration drain,
                       Gate gate, long seed, Bounds bounds) {

    public static final int MAX_WORKERS = 4096;

    /**
     * What a run is judged by.
     *
     * @param thresholds  pass/fail criteria checked at the end (see {@link Threshold})
     * @param abortOnFail stop as soon as an upper-bound threshold is crossed on the numbers so far
     */
    public record Gate(List<Threshold> thresholds, boolean abortOnFail) {
        public static final Gate NONE = new Gate(List.of(), false);

        public Gate {
            thresholds = thresholds == null ? List.of() : List.copyOf(thresholds);
        }
    }

    /** Pass/fail criteria checked at the end ({@link Gate#thresholds}). */
    public List<Threshold> thresholds() {
        return gate.thresholds();
    }

    /** Whether crossing an upper-bound threshold stops the run ({@link Gate#abortOnFail}). */
    public boolean abortOnFail() {
        return gate.abortOnFail();
    }
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
    static final Duration LONGEST = Duration.ofHours(24);

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
        gate = gate == null ? Gate.NONE : gate;
        for (Threshold t : gate.thresholds()) {
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
    public static LoadSpecBuilder scenario() {
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
        d.put("thresholds", gate.thresholds().stream().map(Threshold::text).toList());
        d.put("abortOnFail", gate.abortOnFail());
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

    /** A builder that starts from this spec. */
    public LoadSpecBuilder toBuilder() {
        return LoadSpecBuilder.of(this);
    }

    public static LoadSpecBuilder builder() {
        return new LoadSpecBuilder();
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
    public static LoadSpecBuilder fromTree(JsonNode tree, Set<String> ignored) {
        return LoadSpecFile.fromTree(tree, ignored);
    }
}
