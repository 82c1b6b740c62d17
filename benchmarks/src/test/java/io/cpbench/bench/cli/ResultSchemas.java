package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonModule;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.cpbench.core.check.ChaosDocument;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.sweep.SweepDocument;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The JSON Schemas of cp-bench's result files, generated from the types that write them (victools), and validation
 * of files against them (networknt). The committed copies are in docs/schemas/; {@code ResultSchemasTest} keeps
 * them equal to what the types generate.
 *
 * <p>A schema requires the primitive components and {@code format} or {@code kind}, and allows null for the rest, so
 * reference results written before an optional field existed still validate; it forbids fields the type does not know.
 */
final class ResultSchemas {

    static final Path DIR = DocsTest.ROOT.resolve("docs/schemas");

    /** Each kind of result file and the type that writes it. */
    static final Map<String, Class<?>> KINDS = kinds();

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final Map<String, JsonSchema> LOADED = new ConcurrentHashMap<>();

    private ResultSchemas() {
    }

    private static Map<String, Class<?>> kinds() {
        Map<String, Class<?>> kinds = new LinkedHashMap<>();
        kinds.put("result", RunResult.class);
        kinds.put("load", LoadResult.class);
        kinds.put("chaos", ChaosDocument.class);
        kinds.put("sweep", SweepDocument.class);
        kinds.put("starts", io.cpbench.bench.run.LbStudyRun.Study.class);
        kinds.put("ab", io.cpbench.core.result.AbDocument.class);
        // not a result: the members of a cluster cp-bench did not start (the AWS lab's Terraform writes it)
        kinds.put("inventory", io.cpbench.topology.Inventory.class);
        return kinds;
    }

    static Path file(String kind) {
        return DIR.resolve(kind + ".schema.json");
    }

    /** The schema of {@code kind}, as the type generates it today. */
    static String generate(String kind) {
        SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON)
                .with(new JacksonModule())
                .with(Option.NULLABLE_FIELDS_BY_DEFAULT, Option.FORBIDDEN_ADDITIONAL_PROPERTIES_BY_DEFAULT,
                        Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES,
                        Option.DEFINITIONS_FOR_ALL_OBJECTS)
                .without(Option.SCHEMA_VERSION_INDICATOR);
        // Jackson writes a double that is NaN or infinite as the string "NaN", "Infinity" or "-Infinity"
        config.forTypesInGeneral().withCustomDefinitionProvider((type, context) -> {
            Class<?> erased = type.getErasedType();
            if (erased != double.class && erased != Double.class && erased != float.class && erased != Float.class) {
                return null;
            }
            ObjectNode number = context.getGeneratorConfig().createObjectNode();
            ArrayNode anyOf = number.putArray("anyOf");
            anyOf.addObject().put("type", "number");
            anyOf.addObject().putArray("enum").add("NaN").add("Infinity").add("-Infinity");
            return new CustomDefinition(number, CustomDefinition.DefinitionType.INLINE, CustomDefinition.AttributeInclusion.NO);
        });
        // a status, and a linearizability verdict, are written by name and read also in the words older files used
        config.forTypesInGeneral().withCustomDefinitionProvider((type, context) -> {
            java.util.List<String> words = new java.util.ArrayList<>();
            if (type.getErasedType() == io.cpbench.core.status.Status.class) {
                java.util.Arrays.stream(io.cpbench.core.status.Status.values()).forEach(s -> words.add(s.name()));
                io.cpbench.core.status.Status.FORMER_WORDS.keySet().stream().sorted().forEach(words::add);
            } else if (type.getErasedType() == io.cpbench.core.check.Linearizability.Verdict.class) {
                java.util.Arrays.stream(io.cpbench.core.check.Linearizability.Verdict.values()).forEach(v -> words.add(v.name()));
                java.util.Arrays.stream(io.cpbench.core.check.Linearizability.Verdict.values()).forEach(v -> words.add(v.text()));
            } else {
                return null;
            }
            ObjectNode word = context.getGeneratorConfig().createObjectNode();
            word.put("type", "string");
            words.forEach(word.putArray("enum")::add);
            return new CustomDefinition(word, CustomDefinition.DefinitionType.STANDARD, CustomDefinition.AttributeInclusion.NO);
        });
        config.forFields().withRequiredCheck(field -> field.getType().isPrimitive()
                || field.getName().equals("format") || field.getName().equals("kind"))
                .withNullableCheck(field -> !field.getType().isPrimitive() && !field.getName().equals("format")
                        && !field.getName().equals("kind"));
        ObjectNode schema = new SchemaGenerator(config.build()).generateSchema(KINDS.get(kind));
        inlineUnwrapped(schema);
        ObjectNode page = JSON.createObjectNode();
        page.put("$schema", SchemaVersion.DRAFT_2020_12.getIdentifier());
        page.put("$id", "https://cp-bench.invalid/schemas/" + kind + ".schema.json");
        page.put("title", "cp-bench " + kind + " file");
        page.put("description", "Generated from " + KINDS.get(kind).getName()
                + " by ResultSchemas (benchmarks tests); do not edit by hand.");
        page.setAll(schema);
        try {
            return JSON.writeValueAsString(page) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A record component that is {@code @JsonUnwrapped} (a group of a wide result's fields, like a sweep cell run's
     * latencies) is written by Jackson as fields of the object around it; the generator describes it as an
     * {@code allOf} of the group's schema, which {@code additionalProperties: false} beside it would refuse. Its
     * properties are put where Jackson puts them, in the object's own, in the generator's order (by name).
     */
    static void inlineUnwrapped(JsonNode node) {
        if (node instanceof ObjectNode o && o.get("allOf") instanceof ArrayNode parts && o.get("properties") instanceof ObjectNode props) {
            java.util.TreeMap<String, JsonNode> all = new java.util.TreeMap<>();
            props.fields().forEachRemaining(e -> all.put(e.getKey(), e.getValue()));
            java.util.TreeSet<String> required = new java.util.TreeSet<>();
            o.path("required").forEach(r -> required.add(r.asText()));
            for (JsonNode part : parts) {
                if (!part.has("properties") || part.has("$ref")) {
                    throw new IllegalStateException("an allOf that is not an unwrapped group's object: " + part);
                }
                part.get("properties").fields().forEachRemaining(e -> all.put(e.getKey(), e.getValue()));
                part.path("required").forEach(r -> required.add(r.asText()));
            }
            o.remove("allOf");
            props.removeAll();
            all.forEach(props::set);
            ArrayNode names = JSON.createArrayNode();
            required.forEach(names::add);
            JsonNode additional = o.has("required") ? null : o.remove("additionalProperties"); // required goes before it
            o.set("required", names);
            if (additional != null) {
                o.set("additionalProperties", additional);
            }
        }
        if (node != null && node.isContainerNode()) {
            node.forEach(ResultSchemas::inlineUnwrapped);
        }
    }

    /**
     * The kind of an existing file: the files a run names for what they hold, and scenario results by the rule
     * {@code report} reads them by ({@link ResultFiles#isResultFile}); empty for files that are not cp-bench's own
     * (JMH's JSON, for one).
     */
    static Optional<String> kindOf(Path file) {
        return switch (file.getFileName().toString()) {
            case "chaos.json" -> Optional.of("chaos");
            case "sweep.json" -> Optional.of("sweep");
            case "starts.json" -> Optional.of("starts");
            case "load.json" -> Optional.of("load");
            case "ab.json" -> Optional.of("ab");
            case "inventory.json" -> Optional.of("inventory"); // a reference run's lab members, beside its results
            default -> ResultFiles.isResultFile(file) ? Optional.of("result") : Optional.empty();
        };
    }

    /** What is wrong with {@code file} against its kind's committed schema; empty when it validates. */
    static List<String> validate(Path file, String kind) {
        JsonSchema schema = LOADED.computeIfAbsent(kind, k -> {
            try {
                return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                        .getSchema(Files.readString(file(k), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file(k), e);
            }
        });
        JsonNode node;
        try {
            node = JSON.readTree(file.toFile());
        } catch (IOException e) {
            return List.of("not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if ("result".equals(kind) && node instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
            // a file of the first format is checked as the reader sees it, its fields moved into the sections
            node = io.cpbench.core.result.ResultFormat.upgrade(object);
        }
        Set<ValidationMessage> messages = schema.validate(node);
        return messages.stream().map(ValidationMessage::getMessage).sorted().toList();
    }

    /**
     * Every result file under {@code dir} last written at or after {@code sinceMillis}, checked against its schema;
     * {@code "file: message"} for each problem.
     */
    static List<String> problemsUnder(Path dir, long sinceMillis) {
        List<String> problems = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return problems;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path file : walk.filter(Files::isRegularFile).sorted().toList()) {
                Optional<String> kind = kindOf(file);
                if (kind.isPresent() && Files.getLastModifiedTime(file).toMillis() >= sinceMillis) {
                    validate(file, kind.get()).forEach(m -> problems.add(dir.relativize(file) + ": " + m));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return problems;
    }
}
