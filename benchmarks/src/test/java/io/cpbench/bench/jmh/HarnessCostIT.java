package io.cpbench.bench.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The standard JMH uber jar runs the harness-cost benchmark the usual way and writes JMH's JSON. Whether the cost is
 * small enough is the benchmark's to show, not this test's: it checks the machinery (the benchmark itself fails if
 * the driver did not run its 1,000,000 ops per invocation).
 */
class HarnessCostIT {

    static final Path JAR = Path.of("target", "benchmarks.jar");

    @TempDir
    Path work;

    @Test
    void theJmhJarRunsHarnessCostAndWritesJson() throws Exception {
        Path json = work.resolve("harness-cost.json");
        Path out = work.resolve("stdout.txt");
        Process jmh = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toAbsolutePath().toString(), "HarnessCost", "-f", "1", "-wi", "1", "-w", "1s", "-i", "1",
                "-r", "1s", "-rf", "json", "-rff", json.toString()))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!jmh.waitFor(120, TimeUnit.SECONDS)) {
            jmh.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("JMH did not end within 120 s");
        }
        String console = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(jmh.exitValue()).as(console).isZero();

        JsonNode results = new ObjectMapper().readTree(json.toFile());
        assertThat(results).hasSize(1);
        JsonNode result = results.get(0);
        assertThat(result.get("benchmark").asText()).isEqualTo(HarnessCost.class.getName() + ".driverPerOp");
        assertThat(result.get("mode").asText()).isEqualTo("avgt");
        assertThat(result.at("/primaryMetric/scoreUnit").asText()).isEqualTo("ns/op");
        assertThat(result.at("/primaryMetric/rawData/0")).hasSize(1);
        assertThat(console).contains("HarnessCost.driverPerOp").doesNotContain("<failure>");
    }
}
