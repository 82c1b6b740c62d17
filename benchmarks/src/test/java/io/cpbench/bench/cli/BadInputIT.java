package io.cpbench.bench.cli;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad input ends the CLI with a non-zero exit and one line saying what was wrong: no stack trace, no hang. */
class BadInputIT {

    @TempDir
    static Path work;

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(2, "unknown scenario 'nope'", new String[]{"run", "--scenario", "nope"}),
                Arguments.of(2, "unknown scenario 'nope'", new String[]{"matrix", "--scenarios", "client-leader,nope"}),
                Arguments.of(2, "ops must be a positive number, was 0", new String[]{"run", "--scenario", "client-leader", "--ops", "0"}),
                Arguments.of(2, "ops must be a positive number, was -5", new String[]{"run", "--scenario", "client-leader", "--ops", "-5"}),
                Arguments.of(2, "is not a duration", new String[]{"run", "--scenario", "client-leader", "--timebox", "banana"}),
                Arguments.of(2, "Unknown options: '--opps'", new String[]{"run", "--scenario", "client-leader", "--opps", "5"}),
                Arguments.of(2, "unknown topology 'cloud'", new String[]{"run", "--scenario", "client-leader", "--topology", "cloud"}),
                Arguments.of(2, "--topology attach needs --connect", new String[]{"run", "--scenario", "client-leader", "--topology", "attach"}),
                Arguments.of(1, "bad member address 'localhost'", new String[]{"run", "--scenario", "client-leader",
                        "--topology", "attach", "--connect", "localhost"}),
                Arguments.of(1, "cannot reach cluster 'dev' at [127.0.0.1:1]", new String[]{"run", "--scenario", "client-leader",
                        "--topology", "attach", "--connect", "127.0.0.1:1", "--connect-timeout", "3s"}),
                Arguments.of(2, "need a local or embedded topology with --network emulated", new String[]{"run",
                        "--scenario", "client-leader-1follower10ms", "--network", "direct"}),
                Arguments.of(2, "unknown network path 'lan'", new String[]{"run", "--scenario", "client-leader", "--network", "lan"}),
                Arguments.of(2, "--lb-property: unknown key 'cpbench.lb.nope'", new String[]{"matrix", "--lb-property",
                        "cpbench.lb.nope=1"}),
                Arguments.of(2, "--lb-property: cpbench.lb.probe-period-ms must be a whole number, got 'fast'",
                        new String[]{"matrix", "--lb-property", "cpbench.lb.probe-period-ms=fast"}),
                Arguments.of(1, "not a cp-bench result", new String[]{"report", "garbage.json"}),
                Arguments.of(2, "unknown scenario 'nope'", new String[]{"jmh", "--scenarios", "nope"}),
                Arguments.of(2, "unknown JMH mode 'avgt'; choose thrpt or sample", new String[]{"jmh", "--modes", "avgt"}),
                Arguments.of(2, "--iteration-time must be 1s-1h", new String[]{"jmh", "--iteration-time", "10ms"}),
                Arguments.of(2, "--fold: no such file", new String[]{"jmh", "--fold", "no-such.json"}),
                Arguments.of(1, "garbage.json: not JMH's JSON", new String[]{"jmh", "--fold", "garbage.json"}),
                Arguments.of(1, "no such file or directory", new String[]{"report", "no-such-run"}));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("cases")
    void exitsNonZeroWithAOneLineMessage(int exitCode, String message, String[] args) throws Exception {
        Files.writeString(work.resolve("garbage.json"), "{\"format\": \"cpbench-result/1\", \"round\": [");

        CliProcess.Finished finished = CliProcess.run(work, 90, args);

        assertThat(finished.exitCode()).isEqualTo(exitCode);
        assertThat(finished.stderr().strip().lines()).hasSize(1);
        assertThat(finished.stderr()).startsWith("cpbench: ").contains(message).doesNotContain("Exception", "\tat ");
    }
}
