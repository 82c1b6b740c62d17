package io.cpbench.core.spec;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A spec a person wrote (YAML or JSON) mapped by Jackson into records: an unknown field refused, and every mistake
 * one line that names the field by its path ({@code schedule.stages[1]}) and says what it must be, without Jackson's
 * class names or its advice about its own settings.
 *
 * <p>Strict by default: a number must be written as a number and a flag as true or false. {@link #lenient()} lets
 * text stand for them ({@code threads: "4"}), as a grid file written by a script may have it. Values people write
 * as text (a duration like {@code 30s}) are read by {@link #text}.
 */
public final class SpecMapping {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private final ObjectMapper mapper;
    private final String unknownWord;
    private final Map<String, String> musts;

    private SpecMapping(ObjectMapper mapper, String unknownWord, Map<String, String> musts) {
        this.mapper = mapper;
        this.unknownWord = unknownWord;
        this.musts = musts;
    }

    /** A strict mapping: numbers as numbers, flags as true or false, unknown fields named as "field". */
    public static SpecMapping strict() {
        ObjectMapper m = base();
        for (LogicalType type : List.of(LogicalType.Integer, LogicalType.Float, LogicalType.Boolean)) {
            m.coercionConfigFor(type).setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        m.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        return new SpecMapping(m, "field", Map.of());
    }

    /** A lenient mapping: text may stand for a number or a flag ({@code "4"}, {@code "true"}). */
    public static SpecMapping lenient() {
        return new SpecMapping(base(), "field", Map.of());
    }

    private static ObjectMapper base() {
        return new ObjectMapper()
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
                .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
                .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
                .configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true);
    }

    /** Values of {@code type} written as text (or a bare number), read by {@code parse}, whose message is kept. */
    public <T> SpecMapping text(Class<T> type, String what, Function<String, T> parse) {
        SimpleModule module = new SimpleModule(type.getSimpleName() + "-as-text");
        module.addDeserializer(type, new TextValue<>(type, what, parse));
        ObjectMapper copy = mapper.copy().registerModule(module);
        return new SpecMapping(copy, unknownWord, musts);
    }

    /** Values of {@code type} read by a deserializer of their own (one that takes several shapes, say). */
    public <T> SpecMapping reading(Class<T> type, com.fasterxml.jackson.databind.JsonDeserializer<T> deserializer) {
        SimpleModule module = new SimpleModule(type.getSimpleName() + "-reader");
        module.addDeserializer(type, deserializer);
        return new SpecMapping(mapper.copy().registerModule(module), unknownWord, musts);
    }

    /** What an unknown name is called in the one-line error: "field" (the default) or "key". */
    public SpecMapping unknownCalled(String word) {
        return new SpecMapping(mapper, word, musts);
    }

    /**
     * What the field at {@code path} must be, said better than its type says it ("must map settings to lists, like
     * {operation-threads: [1, 2]}"), for when it is given in the wrong shape.
     */
    public SpecMapping must(String path, String must) {
        Map<String, String> more = new java.util.HashMap<>(musts);
        more.put(path, must);
        return new SpecMapping(mapper, unknownWord, Map.copyOf(more));
    }

    /** Reads YAML (JSON is YAML too) into a tree; null when the text holds no document. */
    public static JsonNode tree(String yaml) {
        try {
            JsonNode tree = YAML.readTree(yaml);
            return tree == null || tree.isMissingNode() || tree.isNull() ? null : tree;
        } catch (IOException e) {
            throw new IllegalArgumentException("not valid YAML: " + firstLine(e.getMessage()));
        }
    }

    /**
     * The tree as a {@code type}.
     *
     * @throws IllegalArgumentException one line naming the field and what it must be
     */
    public <T> T read(JsonNode tree, Class<T> type) {
        try {
            return mapper.treeToValue(tree, type);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(oneLine(e), e);
        } catch (IllegalArgumentException e) {
            // Jackson wraps a problem it found in the tree's own traversal this way
            throw new IllegalArgumentException(firstLine(e.getMessage()), e);
        }
    }

    /** The keys a {@code type} reads, as a spec names them (a record's components, or their {@code @JsonProperty}), sorted. */
    public List<String> keys(Class<?> type) {
        return mapper.getDeserializationConfig().introspect(mapper.constructType(type)).findProperties().stream()
                .map(com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition::getName).sorted().toList();
    }

    /** Jackson's mapping error in the spec's terms. */
    String oneLine(JacksonException e) {
        String path = e instanceof JsonMappingException m ? path(m.getPath()) : "";
        if (e instanceof UnrecognizedPropertyException u) {
            return "unknown " + unknownWord + " '" + (path.isEmpty() ? u.getPropertyName() : path) + "'; known: "
                    + known(u.getKnownPropertyIds());
        }
        if (e instanceof ValueInstantiationException v && v.getCause() != null) {
            return joined(path, firstLine(v.getCause().getMessage()));
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            String must = musts.getOrDefault(path, "must be " + kind(m.getTargetType()));
            return joined(path, must + ", was " + shown(m));
        }
        String message = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
        message = message.replaceAll("\\s*\\([^()]*Feature[^()]*\\)", "");
        return joined(path, firstLine(message));
    }

    private static String joined(String path, String message) {
        if (path.isEmpty()) {
            return message;
        }
        return message.startsWith("must ") ? path + " " + message : path + ": " + message;
    }

    /** A mapping error's place in the document: {@code members[2].priority}. */
    static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder p = new StringBuilder();
        for (JsonMappingException.Reference ref : refs) {
            if (ref.getFieldName() != null) {
                p.append(p.length() == 0 ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                p.append('[').append(ref.getIndex()).append(']');
            }
        }
        return p.toString();
    }

    private static String known(Collection<Object> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.toCollection(TreeSet::new)).stream()
                .collect(Collectors.joining(", "));
    }

    private static String kind(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class
                || type == Short.class || type == short.class) {
            return "a whole number";
        }
        if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "text";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        return "a mapping";
    }

    /** The value that did not fit, as the user wrote it: 'many', 1.5, a list, a mapping. */
    private static String shown(MismatchedInputException e) {
        if (e instanceof InvalidFormatException f && f.getValue() != null) {
            return f.getValue() instanceof String s ? "'" + s + "'" : String.valueOf(f.getValue());
        }
        // Jackson names the value in its message ('Cannot coerce String value ("x") to ...'); its parser may have
        // moved past it by now (a list read whole before its items are mapped)
        java.util.regex.Matcher coerced = COERCED.matcher(String.valueOf(e.getOriginalMessage()));
        if (coerced.find()) {
            String value = coerced.group(1);
            return value.startsWith("\"") ? "'" + value.substring(1, value.length() - 1) + "'" : value;
        }
        java.util.regex.Matcher shape = SHAPE.matcher(String.valueOf(e.getOriginalMessage()));
        if (shape.find()) {
            return shape.group(1).equals("Array") ? "a list" : "a mapping";
        }
        return e.getProcessor() instanceof JsonParser p ? shown(p) : "something else";
    }

    private static final java.util.regex.Pattern COERCED = java.util.regex.Pattern.compile(
            "^Cannot coerce \\w+ value \\((\"[^\"]*\"|[^)]*)\\)");
    private static final java.util.regex.Pattern SHAPE = java.util.regex.Pattern.compile(" from (Array|Object) value");

    static String shown(JsonParser p) {
        JsonToken t = p.currentToken();
        if (t == null) {
            return "nothing";
        }
        try {
            return switch (t) {
                case START_ARRAY, END_ARRAY -> "a list";
                case START_OBJECT, END_OBJECT, FIELD_NAME -> "a mapping";
                case VALUE_STRING -> "'" + p.getText() + "'";
                case VALUE_NULL -> "null";
                default -> Objects.toString(p.getText());
            };
        } catch (IOException e) {
            return t.asString() == null ? t.name() : t.asString();
        }
    }

    static String firstLine(String text) {
        return text == null ? "" : text.lines().findFirst().orElse("");
    }
}
