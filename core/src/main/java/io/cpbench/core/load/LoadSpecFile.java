package io.cpbench.core.load;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cpbench.core.spec.SpecMapping;
import io.cpbench.core.spec.Words;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link LoadSpec} read from YAML (a spec file, or what {@link LoadSpec#describe()} wrote): mapped by Jackson into
 * the records below, an unknown field refused, and every mistake one {@link IllegalArgumentException} line naming
 * the field by its path. See docs/load.md for the fields.
 */
final class LoadSpecFile {

    private static final SpecMapping MAPPING = SpecMapping.strict()
            .text(Duration.class, "a duration, like 30s", Durations::parse)
            .reading(Stage.class, new StageReader())
            .must("mix", "must be op: weight pairs, like {cas: 3, increment: 1}")
            .must("thresholds", "must be a list, like ['cas:p99<5ms', 'error_rate<0.1%']")
            .must("objects.names", "must be a list, like [orders, payments@g1]");

    /** The spec's fields; absent ones are null and keep the builder's defaults. */
    record SpecFile(Map<String, Integer> mix, ObjectsFile objects, Integer clients, Integer threads,
                    ScheduleFile schedule, List<String> thresholds, Boolean abortOnFail, Duration interval,
                    Duration drain, Long seed, BoundsFile bounds) {
    }

    record ObjectsFile(Integer count, String prefix,
                       @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) List<String> groups,
                       List<String> names) {
    }

    /** A stage list is {@code ["30s:500", {duration: 1m, target: 2000}]} or {@code "30s:500,1m:2000"}. */
    record ScheduleFile(String mode, Double rate, Duration duration,
                        @JsonDeserialize(using = Words.class) List<Stage> stages, Double start, Duration warmup) {
    }

    record BoundsFile(Long warmupOps, Long ops, Duration timebox, Integer maxConsecutiveErrors) {
    }

    record StageFile(Duration duration, Double target) {
    }

    private LoadSpecFile() {
    }

    /** Reads a YAML spec file; see docs/load.md for its fields. */
    static LoadSpec fromYaml(Path file) {
        JsonNode tree;
        try {
            tree = SpecMapping.tree(Files.readString(file));
        } catch (IOException | IllegalArgumentException e) {
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
        return SpecMapping.tree(yaml);
    }

    /**
     * A builder filled from a spec's tree. Fields named in {@code ignored} belong to the caller (the CLI's
     * {@code scenario}, say); any other unknown field is an error that names it.
     */
    static LoadSpecBuilder fromTree(JsonNode tree, Set<String> ignored) {
        if (tree == null || !tree.isObject()) {
            throw new IllegalArgumentException("the spec: expected a mapping with mix, clients, schedule ..., was " + tree);
        }
        ObjectNode own = ((ObjectNode) tree).deepCopy();
        own.remove(ignored);
        SpecFile spec = MAPPING.read(own, SpecFile.class);
        LoadSpecBuilder b = LoadSpec.builder();
        if (spec.mix() != null) {
            mixFrom(b, spec.mix());
        }
        if (spec.objects() != null) {
            objectsFrom(b, spec.objects());
        }
        set(spec.clients(), b::clients);
        set(spec.threads(), b::threads);
        if (spec.schedule() != null) {
            scheduleFrom(b, spec.schedule());
        }
        if (spec.thresholds() != null) {
            spec.thresholds().forEach(b::threshold);
        }
        set(spec.abortOnFail(), b::abortOnFail);
        set(spec.interval(), b::interval);
        set(spec.drain(), b::drain);
        set(spec.seed(), b::seed);
        if (spec.bounds() != null) {
            boundsFrom(b, spec.bounds());
        }
        return b;
    }

    private static <T> void set(T value, java.util.function.Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    private static void mixFrom(LoadSpecBuilder b, Map<String, Integer> mix) {
        b.clearMix();
        mix.forEach((name, weight) -> {
            OpType op;
            try {
                op = OpType.of(name);
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException("mix: " + bad.getMessage());
            }
            if (weight == null) {
                throw new IllegalArgumentException("mix." + name + " must be a whole number, was null");
            }
            b.op(op, weight);
        });
    }

    private static void objectsFrom(LoadSpecBuilder b, ObjectsFile objects) {
        set(objects.names(), b::names);
        set(objects.count(), b::objects);
        set(objects.prefix(), b::prefix);
        set(objects.groups(), b::groups);
    }

    private static void scheduleFrom(LoadSpecBuilder b, ScheduleFile s) {
        if (s.mode() != null) {
            if (!s.mode().equals("open") && !s.mode().equals("closed")) {
                throw new IllegalArgumentException("schedule.mode must be open or closed, was '" + s.mode() + "'");
            }
            b.open(s.mode().equals("open"));
        }
        set(s.rate(), b::rate);
        set(s.duration(), b::duration);
        set(s.start(), b::start);
        set(s.warmup(), b::warmup);
        set(s.stages(), b::stages);
    }

    private static void boundsFrom(LoadSpecBuilder b, BoundsFile bounds) {
        if (bounds.timebox() == null) {
            throw new IllegalArgumentException("bounds.timebox: give the most the run may take, like 10m");
        }
        b.timebox(bounds.timebox());
        if (bounds.warmupOps() != null && bounds.warmupOps() > 0) {
            b.warmupOps(bounds.warmupOps());
        }
        if (bounds.ops() != null && bounds.ops() > 0) {
            b.ops(bounds.ops()); // its schedule, as describe() writes it, is the time box's
        }
        b.maxConsecutiveErrors(bounds.maxConsecutiveErrors() == null ? 0 : bounds.maxConsecutiveErrors());
    }

    private static String firstLine(String text) {
        return text == null ? "" : text.lines().findFirst().orElse("");
    }

    /** A stage: {@code "30s:10"}, or {@code {duration: 30s, target: 10}} with both fields. */
    static final class StageReader extends StdDeserializer<Stage> {

        StageReader() {
            super(Stage.class);
        }

        @Override
        public Stage deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken().isScalarValue()) {
                try {
                    return Stage.parse(p.getText());
                } catch (IllegalArgumentException e) {
                    throw JsonMappingException.from(p, e.getMessage(), e);
                }
            }
            StageFile f = ctxt.readValue(p, StageFile.class);
            if (f.duration() == null || f.target() == null) {
                throw JsonMappingException.from(p, "each stage needs duration and target, like {duration: 30s, target: 10} or '30s:10'");
            }
            try {
                return new Stage(f.duration(), f.target());
            } catch (IllegalArgumentException e) {
                throw JsonMappingException.from(p, e.getMessage(), e);
            }
        }
    }
}
