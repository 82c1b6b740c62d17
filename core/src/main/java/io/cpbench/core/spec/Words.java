package io.cpbench.core.spec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A list as people write it on a command line or in YAML: {@code [1, 2, 4]}, {@code 1,2,4} or one value {@code 4}.
 * Each item is read as the list's element type, and a bad one is named by its index ({@code threads[1]}). Put it
 * on a record component with {@code @JsonDeserialize(using = Words.class)}, or on a map's values with
 * {@code contentUsing}.
 */
public final class Words extends JsonDeserializer<List<Object>> implements ContextualDeserializer {

    private final JavaType element;

    public Words() {
        this(null);
    }

    private Words(JavaType element) {
        this.element = element;
    }

    @Override
    public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
        JavaType type = ctxt.getContextualType() != null ? ctxt.getContextualType() : property.getType();
        return new Words(type.getContentType());
    }

    @Override
    public List<Object> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        List<JsonNode> items = new ArrayList<>();
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_ARRAY) {
            JsonNode array = ctxt.readTree(p);
            array.forEach(items::add);
        } else if (t == JsonToken.VALUE_STRING) {
            for (String part : p.getText().split(",")) {
                if (!part.isBlank()) {
                    items.add(word(part.trim()));
                }
            }
            if (items.isEmpty()) {
                throw JsonMappingException.from(p, "must be a list, like [1, 2, 4], was '" + p.getText() + "'");
            }
        } else if (t != null && t.isScalarValue() && t != JsonToken.VALUE_NULL) {
            items.add(ctxt.readTree(p));
        } else {
            throw JsonMappingException.from(p, "must be a list, like [1, 2, 4], was " + SpecMapping.shown(p));
        }
        List<Object> values = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            try {
                if (items.get(i).isNull() || items.get(i).isTextual() && items.get(i).asText().isBlank()) {
                    throw JsonMappingException.from(p, "an item is empty");
                }
                values.add(ctxt.readTreeAsValue(items.get(i), element));
            } catch (JsonMappingException e) {
                throw JsonMappingException.wrapWithPath(e, values, i);
            }
        }
        return List.copyOf(values);
    }

    /** A word of {@code 1,2.5,true} as YAML would read it alone: a number, a flag or text. */
    private static JsonNode word(String text) {
        if (text.matches("-?\\d{1,18}")) {
            return LongNode.valueOf(Long.parseLong(text));
        }
        if (text.matches("-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?")) {
            return DoubleNode.valueOf(Double.parseDouble(text));
        }
        if (text.equals("true") || text.equals("false")) {
            return BooleanNode.valueOf(Boolean.parseBoolean(text));
        }
        return TextNode.valueOf(text);
    }
}
