package io.cpbench.bench;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.RecordDeclaration;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shape every class of the four modules keeps, read from their sources with JavaParser: no file over
 * {@value #MAX_FILE_LINES} lines, no method or constructor over {@value #MAX_METHOD_LINES} (from its signature to its
 * closing brace), no positional signature over {@value #MAX_PARAMETERS} parameters, no record over
 * {@value #MAX_COMPONENTS} components (records of records, or a builder, where a result has more). The records named
 * in {@link #WIDE_RECORDS} are the exception, each with why and how wide it may be.
 */
class SourceShapeTest {

    static final int MAX_FILE_LINES = 450;
    static final int MAX_METHOD_LINES = 60;
    static final int MAX_PARAMETERS = 8;
    static final int MAX_COMPONENTS = 15;

    /**
     * Records wider than {@value #MAX_COMPONENTS}, and the most components each may have: none. A result document
     * with many fields groups them in records that are {@code @JsonUnwrapped} (CellRun.Latencies,
     * ChaosDocument.Setup, LoadResult.Caveats), so its file keeps its flat fields; Jackson reads such a record since
     * 2.19.
     */
    static final Map<String, Integer> WIDE_RECORDS = Map.of();

    private static final List<Path> MODULES = List.of(Path.of("../core"), Path.of("../client-lb"), Path.of("../topology"),
            Path.of("."));

    @Test
    void everyClassOfTheFourModulesKeepsItsShape() throws IOException {
        Map<String, Integer> wide = new TreeMap<>();
        List<String> broken = new ArrayList<>();
        int files = 0;
        for (Path module : MODULES) {
            Path sources = module.resolve("src/main/java");
            assertThat(sources).as("a module's sources").isDirectory();
            try (Stream<Path> all = Files.walk(sources)) {
                for (Path file : all.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    files++;
                    broken.addAll(shape(file.toString(), Files.readString(file), wide));
                }
            }
        }
        assertThat(files).as("source files read").isGreaterThan(250);
        assertThat(broken).as("the shape rules").isEmpty();
        assertThat(wide).as("records wider than " + MAX_COMPONENTS + " components: only the allowed ones, no wider,"
                + " and an allowance goes once its record is narrow").isEqualTo(WIDE_RECORDS);
    }

    /** The rules read what they claim: a planted source breaks each of them, and its record is seen as wide. */
    @Test
    void aPlantedSourceBreaksEachRule() {
        StringBuilder longMethod = new StringBuilder("    void tooLong() {\n");
        for (int i = 0; i < MAX_METHOD_LINES - 1; i++) {
            longMethod.append("        int x").append(i).append(" = ").append(i).append(";\n");
        }
        longMethod.append("    }\n");
        StringBuilder padding = new StringBuilder();
        for (int i = 0; i < MAX_FILE_LINES; i++) {
            padding.append("    // line ").append(i).append('\n');
        }
        String source = "package p;\n\nclass Planted {\n" + longMethod
                + "    void manyParameters(int a, int b, int c, int d, int e, int f, int g, int h, int i) {\n    }\n"
                + "    record Wide(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k, int l, int m,"
                + " int n, int o, int p) {\n    }\n" + padding + "}\n";
        Map<String, Integer> wide = new TreeMap<>();
        List<String> broken = shape("Planted.java", source, wide);
        assertThat(broken).hasSize(3);
        assertThat(broken.get(0)).contains("Planted.java").contains("lines, over " + MAX_FILE_LINES);
        assertThat(broken).anySatisfy(b -> assertThat(b).contains("tooLong").contains("61 lines"));
        assertThat(broken).anySatisfy(b -> assertThat(b).contains("manyParameters").contains("9 parameters"));
        assertThat(wide).containsExactly(Map.entry("Wide", 16));

        // exactly at each bound: no rule is broken
        String atBounds = "package p;\n\nclass AtBounds {\n" + longMethod.toString().replace("        int x0 = 0;\n", "")
                + "    void eight(int a, int b, int c, int d, int e, int f, int g, int h) {\n    }\n}\n";
        assertThat(shape("AtBounds.java", atBounds, new TreeMap<>())).isEmpty();
    }

    /** What {@code source} breaks, a line each; its records over the bound go into {@code wide} (name, components). */
    static List<String> shape(String file, String source, Map<String, Integer> wide) {
        ParseResult<CompilationUnit> parsed = new JavaParser(new ParserConfiguration()
                .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17)).parse(source);
        assertThat(parsed.isSuccessful()).as(file + ": " + parsed.getProblems()).isTrue();
        CompilationUnit unit = parsed.getResult().orElseThrow();
        List<String> broken = new ArrayList<>();
        long lines = source.lines().count();
        if (lines > MAX_FILE_LINES) {
            broken.add(file + ": " + lines + " lines, over " + MAX_FILE_LINES);
        }
        for (CallableDeclaration<?> callable : unit.findAll(CallableDeclaration.class)) {
            int begin = callable.getBegin().orElseThrow().line;
            int length = callable.getEnd().orElseThrow().line - begin + 1;
            if (length > MAX_METHOD_LINES) {
                broken.add(file + ":" + begin + ": " + callable.getNameAsString() + " is " + length + " lines, over "
                        + MAX_METHOD_LINES);
            }
            if (callable.getParameters().size() > MAX_PARAMETERS) {
                broken.add(file + ":" + begin + ": " + callable.getNameAsString() + " takes "
                        + callable.getParameters().size() + " parameters, over " + MAX_PARAMETERS);
            }
        }
        for (RecordDeclaration record : unit.findAll(RecordDeclaration.class)) {
            if (record.getParameters().size() > MAX_COMPONENTS) {
                wide.put(record.getNameAsString(), record.getParameters().size());
            }
        }
        return broken;
    }
}
