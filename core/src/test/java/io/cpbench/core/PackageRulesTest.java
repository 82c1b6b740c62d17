package io.cpbench.core;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The load engine stands alone: {@code core/load} names nothing of {@code core/run} (the scenario-shaped front door,
 * which drives the engine) nor of {@code core/result} (the result files, which hold the engine's results), so the
 * packages of core form no cycle; {@code core/stats} and {@code core/status} name none of core's other packages.
 */
class PackageRulesTest {

    private static final Path SOURCES = Path.of("src/main/java/io/cpbench/core");
    private static final Pattern NAMED = Pattern.compile("\\bio\\.cpbench\\.core\\.([a-z]+)\\.[A-Z]");

    private static List<String> references(String from, List<String> forbidden) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES.resolve(from))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                Matcher m = NAMED.matcher(Files.readString(file));
                while (m.find()) {
                    if (forbidden.contains(m.group(1))) {
                        found.add(file.getFileName() + " names core/" + m.group(1));
                    }
                }
            }
        }
        return found;
    }

    @Test
    void theLoadEngineNamesNeitherTheRunFrontDoorNorTheResultFiles() throws IOException {
        assertThat(references("load", List.of("run", "result"))).isEmpty();
    }

    @Test
    void statsNamesNoOtherPackageOfCore() throws IOException {
        assertThat(references("stats", List.of("run", "result", "load", "sweep", "history", "check", "workload")))
                .isEmpty();
    }

    @Test
    void theStatusVocabularyNamesNoOtherPackageOfCore() throws IOException {
        assertThat(references("status", List.of("run", "result", "load", "sweep", "history", "check", "workload", "stats")))
                .isEmpty();
    }

    @Test
    void theRuleCanFail() throws IOException {
        assertThat(references("run", List.of("load"))).as("core/run drives the engine").isNotEmpty();
    }
}
