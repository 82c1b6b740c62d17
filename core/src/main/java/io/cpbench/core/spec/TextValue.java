package io.cpbench.core.spec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;

import java.io.IOException;
import java.util.function.Function;

/** A value people write as text, or as a bare number ({@code 30s}, {@code 90}), read by the value's own parser. */
final class TextValue<T> extends StdScalarDeserializer<T> {

    private final String what;
    private final transient Function<String, T> parse;

    TextValue(Class<T> type, String what, Function<String, T> parse) {
        super(type);
        this.what = what;
        this.parse = parse;
    }

    @Override
    public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_STRING && t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
            throw JsonMappingException.from(p, "must be " + what + ", was " + SpecMapping.shown(p));
        }
        try {
            return parse.apply(p.getText());
        } catch (IllegalArgumentException e) {
            throw JsonMappingException.from(p, e.getMessage(), e);
        }
    }
}
