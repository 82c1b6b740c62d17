package io.cpbench.bench.service;

import io.cpbench.bench.cluster.StartProgress;
import io.cpbench.bench.report.RunDirectory;
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
 * One lifecycle: only the run service installs a Ctrl-C hook or takes a cluster's shutdown over, and commands start
 * no cluster and choose no run directory of their own; they hand a run kind to {@link RunService}.
 */
class LifecycleRulesTest {

    private static final Path SOURCES = Path.of("src/main/java/io/cpbench/bench");

    /** Each {@code pattern} found outside {@code allowed} packages, as "file: text". */
    private static List<String> found(Pattern pattern, List<String> allowed, List<String> allowedFiles) throws IOException {
        List<String> hits = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String pkg = SOURCES.relativize(file.getParent()).toString();
                if (allowed.contains(pkg) || allowedFiles.contains(file.getFileName().toString())) {
                    continue;
                }
                Matcher m = pattern.matcher(Files.readString(file));
                while (m.find()) {
                    hits.add(SOURCES.relativize(file) + ": " + m.group());
                }
            }
        }
        return hits;
    }

    @Test
    void onlyTheServiceTakesShutdownOver() throws IOException {
        assertThat(found(Pattern.compile("new Interruption\\(|\\.takeOverShutdown\\(|::takeOverShutdown"),
                List.of("service"), List.of())).isEmpty();
        // the agent process's own hook (it leaves its control cluster) and the start progress's notice are not a run's
        assertThat(found(Pattern.compile("addShutdownHook\\("), List.of("service"),
                List.of("AgentCommand.java", "StartProgress.java"))).isEmpty();
    }

    @Test
    void commandsStartNoClusterAndChooseNoRunDirectory() throws IOException {
        Pattern lifecycle = Pattern.compile("\\.startAnnounced\\(|RunDirectory\\.choose\\(|printReady\\(");
        assertThat(found(lifecycle, List.of("service", "run", "cluster"), List.of())).isEmpty();
    }

    @Test
    void theRulesCanFail() throws IOException {
        assertThat(found(Pattern.compile("new Interruption\\("), List.of(), List.of()))
                .as("the service itself installs one").hasSize(1);
    }
}
