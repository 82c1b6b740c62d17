package io.cpbench.bench.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test's JUnit timeout is longer than any bound it gives a CLI process: a run that is slow on a busy machine ends
 * with the test's own message (and the CLI's thread dump) at its bound, not with JUnit's thread dump of the test JVM
 * first. The bounds are read from every module's test sources ({@code CliProcess.run(dir, SECONDS, ...)} and
 * {@code .finish(SECONDS)}); the timeouts from {@code .mvn/test-resources/junit-platform.properties}.
 */
class TestBoundsTest {

    /** What a test does around its CLI run (a cluster to start, files to read) gets at least this much. */
    private static final long MARGIN_S = 60;
    private static final Pattern RUN = Pattern.compile("CliProcess\\.run\\(\\s*[\\w.()\"]+\\s*,\\s*(\\d[\\d_]*)\\s*,");
    private static final Pattern FINISH = Pattern.compile("\\.finish\\(\\s*(\\d[\\d_]*)\\s*\\)");

    private static long minutes(Properties p, String key) {
        String value = p.getProperty(key);
        assertThat(value).as(key).isNotNull().endsWith(" m");
        return Long.parseLong(value.substring(0, value.length() - 2).trim()) * 60;
    }

    @Test
    void everyCliBoundIsShorterThanTheTestsTimeout() throws IOException {
        Properties junit = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/junit-platform.properties")) {
            assertThat(in).as("junit-platform.properties on the test classpath").isNotNull();
            junit.load(in);
        }
        long method = minutes(junit, "junit.jupiter.execution.timeout.testable.method.default");
        long lifecycle = minutes(junit, "junit.jupiter.execution.timeout.lifecycle.method.default");
        long shortest = Math.min(method, lifecycle);

        List<String> bounds = new ArrayList<>();
        List<String> tooLong = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of(".."), 12)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/test/java/"))
                    .sorted().toList()) {
                String text = Files.readString(file);
                for (Pattern p : List.of(RUN, FINISH)) {
                    Matcher m = p.matcher(text);
                    while (m.find()) {
                        long seconds = Long.parseLong(m.group(1).replace("_", ""));
                        String where = file.getFileName() + ": " + m.group().strip() + " (" + seconds + " s)";
                        bounds.add(where);
                        if (seconds + MARGIN_S > shortest) {
                            tooLong.add(where);
                        }
                    }
                }
            }
        }
        assertThat(bounds).as("the scan finds the CLI bounds it is about").hasSizeGreaterThan(20);
        assertThat(tooLong).as("CLI bounds within %d s of the shortest JUnit timeout (%d s)", MARGIN_S, shortest).isEmpty();
    }
}
