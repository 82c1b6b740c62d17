package io.cpbench.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmarks module's packages are layered, so they form no cycle: each names only packages of a lower layer.
 * {@code scenario} (the client topologies) ← {@code suite} (sessions, the scenario runner) ← {@code cluster} (the
 * cluster a run starts or reaches) ← {@code agents}, {@code jmh}, {@code report} (what a run writes and shows) ←
 * {@code history} (the results history) ← {@code service} (the run lifecycle) ← {@code run} (the run kinds) ←
 * {@code cli} (options, then one call).
 */
class BenchPackageRulesTest {

    private static final Path SOURCES = Path.of("src/main/java/io/cpbench/bench");
    private static final Pattern NAMED = Pattern.compile("\\bio\\.cpbench\\.bench\\.([a-z]+)\\.[A-Z]");
    static final Map<String, Integer> LAYERS = Map.ofEntries(Map.entry("scenario", 0), Map.entry("suite", 1),
            Map.entry("cluster", 2), Map.entry("agents", 3), Map.entry("jmh", 3), Map.entry("report", 3),
            Map.entry("history", 4), Map.entry("service", 5), Map.entry("run", 6), Map.entry("cli", 7));

    /** Every reference from a package to one of the same or a higher layer, as "file names package". */
    static List<String> upward(Map<String, Integer> layers) throws IOException {
        List<String> found = new ArrayList<>();
        for (Map.Entry<String, Integer> from : layers.entrySet()) {
            try (Stream<Path> files = Files.list(SOURCES.resolve(from.getKey()))) {
                for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    Matcher m = NAMED.matcher(Files.readString(file));
                    while (m.find()) {
                        String to = m.group(1);
                        if (!to.equals(from.getKey()) && layers.getOrDefault(to, Integer.MAX_VALUE) >= from.getValue()) {
                            found.add(from.getKey() + "/" + file.getFileName() + " names " + to);
                        }
                    }
                }
            }
        }
        return found;
    }

    @Test
    void everyPackageIsInALayer() throws IOException {
        try (Stream<Path> dirs = Files.list(SOURCES)) {
            assertThat(dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).toList())
                    .containsExactlyInAnyOrderElementsOf(LAYERS.keySet());
        }
    }

    @Test
    void eachPackageNamesOnlyLowerLayers() throws IOException {
        assertThat(upward(LAYERS)).isEmpty();
    }

    @Test
    void theRuleCanFail() throws IOException {
        assertThat(upward(Map.of("run", 0, "service", 1))).as("run implements the service's RunKind").isNotEmpty();
    }
}
