package io.cpbench.core.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link LoadSpec} read from YAML (a spec file, or what {@link LoadSpec#describe()} wrote): every field checked at
 * the edge, an unknown or bad one an {@link IllegalArgumentException} that names it.
 */
final class LoadSpecFile {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private LoadSpecFile() {
    }

    /** Reads a YAML spec file; see docs/load.md for its fields. */
    static LoadSpec fromYaml(Path file) {
        JsonNode tree;
        try {
            tree = YAML.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read: " + firstLine(e.getMessage()));
        }
        if (tree == null || !tree.isObject()) {
            throw new IllegalArgumentException(file + ": not a load spec (expected a YAML mapping with mix, clients, schedule ...)");
        }
        try {
            return fromTree(tree, Set.of()).build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage());
        }
    }

    /** Parses YAML text into a tree, for callers that take fields of their own out first. */
    static JsonNode readTree(String yaml) {
        try {
            return YAML.readTree(yaml);
        } catch (IOException e) {
            throw new IllegalArgumentException("not valid YAML: " + firstLine(e.getMessage()));
        }
    }

    /**
     * A builder filled from a spec's tree. Fields named in {@code ignored} belong to the caller (the CLI's
     * {@code scenario}, say); any other unknown field is an error that names it.
     */
    static LoadSpecBuilder fromTree(JsonNode tree, Set<String> ignored) {
        LoadSpecBuilder b = LoadSpec.builder();
        Fields top = new Fields("", tree, Set.of("mix", "objects", "clients", "threads", "schedule", "thresholds",
                "abortOnFail", "interval", "drain", "seed", "bounds"), ignored);
        if (top.get("mix") != null) {
            mixFrom(b, top.get("mix"));
        }
        if (top.get("objects") != null) {
            objectsFrom(b, top.get("objects"));
        }
        if (top.get("clients") != null) {
            b.clients(intOf("clients", top.get("clients")));
        }
        if (top.get("threads") != null) {
            b.threads(intOf("threads", top.get("threads")));
        }
        if (top.get("schedule") != null) {
            scheduleFrom(b, top.get("schedule"));
        }
        runFrom(b, top);
        if (top.get("bounds") != null) {
            boundsFrom(b, top.get("bounds"));
        }
        return b;
    }

    private static void boundsFrom(LoadSpecBuilder b, JsonNode bounds) {
        Fields f = new Fields("bounds.", bounds, Set.of("warmupOps", "ops", "timebox", "maxConsecutiveErrors"), Set.of());
        if (f.get("timebox") == null) {
            throw new IllegalArgumentException("bounds.timebox: give the most the run may take, like 10m");
        }
        b.timebox(durationOf("bounds.timebox", f.get("timebox")));
        if (f.get("warmupOps") != null && longOf("bounds.warmupOps", f.get("warmupOps")) > 0) {
            b.warmupOps(longOf("bounds.warmupOps", f.get("warmupOps")));
        }
        if (f.get("ops") != null && longOf("bounds.ops", f.get("ops")) > 0) {
            b.ops(longOf("bounds.ops", f.get("ops"))); // its schedule, as describe() writes it, is the time box's
        }
        b.maxConsecutiveErrors(f.get("maxConsecutiveErrors") == null ? 0
                : intOf("bounds.maxConsecutiveErrors", f.get("maxConsecutiveErrors")));
    }

    private static long longOf(String field, JsonNode node) {
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new IllegalArgumentException(field + " must be a whole number, was " + node);
        }
        return node.asLong();
    }

    private static void mixFrom(LoadSpecBuilder b, JsonNode mix) {
        if (!mix.isObject()) {
            throw new IllegalArgumentException("mix: expected op: weight pairs, like {cas: 3, increment: 1}");
        }
        b.clearMix();
        for (Iterator<Map.Entry<String, JsonNode>> it = mix.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            OpType op;
            try {
                op = OpType.of(e.getKey());
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException("mix: " + bad.getMessage());
            }
            b.op(op, intOf("mix." + e.getKey(), e.getValue()));
        }
    }

    private static void objectsFrom(LoadSpecBuilder b, JsonNode objects) {
        Fields o = new Fields("objects.", objects, Set.of("count", "prefix", "groups", "names"), Set.of());
        JsonNode given = o.get("names");
        if (given != null) {
            if (!given.isArray()) {
                throw new IllegalArgumentException("objects.names: expected a list, like [orders, payments@g1]");
            }
            List<String> list = new ArrayList<>();
            given.forEach(n -> list.add(textOf("objects.names", n)));
            b.names(list);
        }
        if (o.get("count") != null) {
            b.objects(intOf("objects.count", o.get("count")));
        }
        if (o.get("prefix") != null) {
            b.prefix(textOf("objects.prefix", o.get("prefix")));
        }
        JsonNode groups = o.get("groups");
        if (groups != null) {
            List<String> names = new ArrayList<>();
            if (groups.isArray()) {
                groups.forEach(g -> names.add(textOf("objects.groups", g)));
            } else {
                names.add(textOf("objects.groups", groups));
            }
            b.groups(names);
        }
    }

    private static void scheduleFrom(LoadSpecBuilder b, JsonNode schedule) {
        Fields s = new Fields("schedule.", schedule, Set.of("mode", "rate", "duration", "stages", "start", "warmup"), Set.of());
        if (s.get("mode") != null) {
            String mode = textOf("schedule.mode", s.get("mode"));
            if (!mode.equals("open") && !mode.equals("closed")) {
                throw new IllegalArgumentException("schedule.mode must be open or closed, was '" + mode + "'");
            }
            b.open(mode.equals("open"));
        }
        if (s.get("rate") != null) {
            b.rate(numberOf("schedule.rate", s.get("rate")));
        }
        if (s.get("duration") != null) {
            b.duration(durationOf("schedule.duration", s.get("duration")));
        }
        if (s.get("start") != null) {
            b.start(numberOf("schedule.start", s.get("start")));
        }
        if (s.get("warmup") != null) {
            b.warmup(durationOf("schedule.warmup", s.get("warmup")));
        }
        JsonNode stages = s.get("stages");
        if (stages != null) {
            List<Stage> list = new ArrayList<>();
            if (stages.isArray()) {
                for (JsonNode st : stages) {
                    list.add(stageOf(st));
                }
            } else {
                try {
                    list.addAll(Stage.parseList(textOf("schedule.stages", stages)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("schedule.stages: " + e.getMessage());
                }
            }
            b.stages(list);
        }
    }

    /** Thresholds, abort-on-fail, the interval, the drain and the seed. */
    private static void runFrom(LoadSpecBuilder b, Fields top) {
        JsonNode thresholds = top.get("thresholds");
        if (thresholds != null) {
            if (!thresholds.isArray()) {
                throw new IllegalArgumentException("thresholds: expected a list, like ['cas:p99<5ms', 'error_rate<0.1%']");
            }
            thresholds.forEach(t -> b.threshold(textOf("thresholds", t)));
        }
        if (top.get("abortOnFail") != null) {
            JsonNode a = top.get("abortOnFail");
            if (!a.isBoolean()) {
                throw new IllegalArgumentException("abortOnFail must be true or false, was " + a);
            }
            b.abortOnFail(a.asBoolean());
        }
        if (top.get("interval") != null) {
            b.interval(durationOf("interval", top.get("interval")));
        }
        if (top.get("drain") != null) {
            b.drain(durationOf("drain", top.get("drain")));
        }
        if (top.get("seed") != null) {
            JsonNode seed = top.get("seed");
            if (!seed.canConvertToLong() || !seed.isIntegralNumber()) {
                throw new IllegalArgumentException("seed must be a whole number, was " + seed);
            }
            b.seed(seed.asLong());
        }
    }

    private static Stage stageOf(JsonNode node) {
        if (node.isTextual()) {
            try {
                return Stage.parse(node.asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("schedule.stages: " + e.getMessage());
            }
        }
        Fields f = new Fields("schedule.stages[].", node, Set.of("duration", "target"), Set.of());
        if (f.get("duration") == null || f.get("target") == null) {
            throw new IllegalArgumentException("schedule.stages: each stage needs duration and target, like {duration: 30s, target: 10} or '30s:10'");
        }
        try {
            return new Stage(durationOf("schedule.stages[].duration", f.get("duration")),
                    numberOf("schedule.stages[].target", f.get("target")));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().startsWith("schedule") ? e.getMessage() : "schedule.stages: " + e.getMessage());
        }
    }

    private static int intOf(String field, JsonNode node) {
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw new IllegalArgumentException(field + " must be a whole number, was " + node);
        }
        return node.asInt();
    }

    private static double numberOf(String field, JsonNode node) {
        if (!node.isNumber()) {
            throw new IllegalArgumentException(field + " must be a number, was " + node);
        }
        return node.asDouble();
    }

    private static String textOf(String field, JsonNode node) {
        if (!node.isTextual() && !node.isNumber()) {
            throw new IllegalArgumentException(field + " must be text, was " + node);
        }
        return node.asText();
    }

    private static Duration durationOf(String field, JsonNode node) {
        try {
            return Durations.parse(node.isNumber() ? node.asText() : textOf(field, node));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": " + e.getMessage());
        }
    }

    private static String firstLine(String text) {
        return text == null ? "" : text.lines().findFirst().orElse("");
    }

    /** A mapping's fields, with any unknown one reported by name. */
    private static final class Fields {
        private final JsonNode node;

        Fields(String path, JsonNode node, Set<String> known, Set<String> ignored) {
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException((path.isEmpty() ? "the spec" : path.substring(0, path.length() - 1))
                        + ": expected a mapping with " + String.join(", ", new java.util.TreeSet<>(known)) + ", was " + node);
            }
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                if (!known.contains(name) && !ignored.contains(name)) {
                    throw new IllegalArgumentException("unknown field '" + path + name + "'; known: "
                            + String.join(", ", new java.util.TreeSet<>(known)));
                }
            }
            this.node = node;
        }

        JsonNode get(String name) {
            JsonNode value = node.get(name);
            return value == null || value.isNull() ? null : value;
        }
    }

}
