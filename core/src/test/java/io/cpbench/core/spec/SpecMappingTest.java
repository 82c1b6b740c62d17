package io.cpbench.core.spec;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SpecMappingTest {

    record Part(String name, Integer size) {
    }

    record Spec(Integer count, Long seed, Double rate, Boolean on, String label, Part part,
                @JsonDeserialize(using = Words.class) List<Integer> levels,
                @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) List<String> tags,
                @JsonDeserialize(contentUsing = Words.class) Map<String, List<Double>> knobs,
                Code code) {
    }

    /** A value written as text and read by its own parser. */
    record Code(String value) {
        static Code parse(String text) {
            if (!text.matches("[A-Z]{3}")) {
                throw new IllegalArgumentException("'" + text + "' is not a code; write three capitals, like ABC");
            }
            return new Code(text);
        }
    }

    private static final SpecMapping STRICT = SpecMapping.strict().text(Code.class, "a code, like ABC", Code::parse);
    private static final SpecMapping LENIENT = SpecMapping.lenient().text(Code.class, "a code, like ABC", Code::parse);

    private static Spec strict(String yaml) {
        return STRICT.read(SpecMapping.tree(yaml), Spec.class);
    }

    private static String strictError(String yaml) {
        try {
            strict(yaml);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("read without an error: " + yaml);
    }

    @Test
    void readsEveryShapeAPersonWrites() {
        Spec s = strict("""
                count: 3
                seed: 12345678901
                rate: 2
                on: true
                label: 42
                part: {name: p, size: 1}
                levels: 1,2, 4
                tags: solo
                knobs: {a: [1, 2.5], b: 3}
                code: ABC
                """);
        assertThat(s.count()).isEqualTo(3);
        assertThat(s.seed()).isEqualTo(12345678901L);
        assertThat(s.rate()).isEqualTo(2.0);
        assertThat(s.label()).as("a number where text is wanted is its text").isEqualTo("42");
        assertThat(s.part()).isEqualTo(new Part("p", 1));
        assertThat(s.levels()).containsExactly(1, 2, 4);
        assertThat(s.tags()).containsExactly("solo");
        assertThat(s.knobs()).containsExactly(Map.entry("a", List.of(1.0, 2.5)), Map.entry("b", List.of(3.0)));
        assertThat(s.code()).isEqualTo(new Code("ABC"));
        assertThat(strict("levels: [8]\n").levels()).containsExactly(8);
        assertThat(strict("levels: 8\n").levels()).containsExactly(8);
        assertThat(strict("count: null\n").count()).as("null is absent").isNull();
        assertThat(SpecMapping.tree("")).as("an empty file holds no document").isNull();
    }

    @Test
    void everyMistakeIsOneLineNamingTheFieldByItsPath() {
        assertThat(strictError("cont: 3\n")).isEqualTo(
                "unknown field 'cont'; known: code, count, knobs, label, levels, on, part, rate, seed, tags");
        assertThat(strictError("part: {name: p, sise: 1}\n")).isEqualTo("unknown field 'part.sise'; known: name, size");
        assertThat(strictError("count: many\n")).isEqualTo("count must be a whole number, was 'many'");
        assertThat(strictError("count: 1.5\n")).isEqualTo("count must be a whole number, was 1.5");
        assertThat(strictError("count: [1]\n")).isEqualTo("count must be a whole number, was a list");
        assertThat(strictError("count: {a: 1}\n")).isEqualTo("count must be a whole number, was a mapping");
        assertThat(strictError("rate: fast\n")).isEqualTo("rate must be a number, was 'fast'");
        assertThat(strictError("on: 'yes'\n")).isEqualTo("on must be true or false, was 'yes'");
        assertThat(strictError("on: 1\n")).isEqualTo("on must be true or false, was 1");
        assertThat(strictError("label: [a]\n")).isEqualTo("label must be text, was a list");
        assertThat(strictError("part: 5\n")).isEqualTo("part must be a mapping, was 5");
        assertThat(strictError("part: {size: x}\n")).isEqualTo("part.size must be a whole number, was 'x'");
        assertThat(strictError("levels: [1, two]\n")).isEqualTo("levels[1] must be a whole number, was 'two'");
        assertThat(strictError("levels: {a: 1}\n")).isEqualTo("levels must be a list, like [1, 2, 4], was a mapping");
        assertThat(strictError("levels: [1, null]\n")).isEqualTo("levels[1]: an item is empty");
        assertThat(strictError("knobs: {a: [1, x]}\n")).isEqualTo("knobs.a[1] must be a number, was 'x'");
        assertThat(strictError("code: abc\n")).isEqualTo("code: 'abc' is not a code; write three capitals, like ABC");
        assertThat(strictError("code: [ABC]\n")).isEqualTo("code must be a code, like ABC, was a list");
        assertThat(catchMessage(() -> SpecMapping.strict().must("part", "must name a part, like {name: p}")
                .read(SpecMapping.tree("part: [p]\n"), Spec.class)))
                .isEqualTo("part must name a part, like {name: p}, was a list");
        assertThat(catchMessage(() -> SpecMapping.strict().unknownCalled("key").read(SpecMapping.tree("x: 1\n"), Part.class)))
                .isEqualTo("unknown key 'x'; known: name, size");
        assertThat(catchMessage(() -> SpecMapping.tree("a: [1\n"))).startsWith("not valid YAML: ");
        for (String bad : List.of("count: many\n", "levels: [1, two]\n", "part: {size: x}\n", "code: [ABC]\n")) {
            assertThat(strictError(bad)).as("no Jackson internals in '%s'", bad)
                    .doesNotContain("`", "java.", "Feature", "\n", "Cannot ");
        }
    }

    @Test
    void aLenientMappingTakesTextForNumbersAndFlags() {
        Spec s = LENIENT.read(SpecMapping.tree("count: '3'\non: 'true'\nrate: '2.5'\nlevels: '1, 2'\n"), Spec.class);
        assertThat(s.count()).isEqualTo(3);
        assertThat(s.on()).isTrue();
        assertThat(s.rate()).isEqualTo(2.5);
        assertThat(s.levels()).containsExactly(1, 2);
        assertThat(catchMessage(() -> LENIENT.read(SpecMapping.tree("count: 'x'\n"), Spec.class)))
                .isEqualTo("count must be a whole number, was 'x'");
        assertThat(catchMessage(() -> LENIENT.read(SpecMapping.tree("on: sometimes\n"), Spec.class)))
                .isEqualTo("on must be true or false, was 'sometimes'");
        assertThat(catchMessage(() -> strict("count: '3'\n"))).as("the strict mapping refuses it")
                .isEqualTo("count must be a whole number, was '3'");
    }

    private static String catchMessage(Runnable r) {
        try {
            r.run();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        return "(no error)";
    }
}
