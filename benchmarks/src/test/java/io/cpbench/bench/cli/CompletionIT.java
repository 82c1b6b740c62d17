package io.cpbench.bench.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The completion script the CLI prints, sourced into a real bash, completes commands, options and scenario names. */
class CompletionIT {

    @TempDir
    static Path work;

    static Path script;

    @BeforeAll
    static void generate() throws Exception {
        CliProcess.Finished finished = CliProcess.run(work, 60, "generate-completion");
        assertThat(finished.exitCode()).as(finished.stderr()).isZero();
        script = Files.writeString(work.resolve("cpbench_completion.sh"), finished.stdout());
    }

    /** What bash offers for the last word of {@code line}, as after pressing Tab. */
    static List<String> complete(String... words) throws Exception {
        String array = String.join(" ", java.util.Arrays.stream(words).map(w -> "'" + w + "'").toList());
        String program = "source '" + script + "' 2>/dev/null; COMP_WORDS=(" + array + "); COMP_CWORD=" + (words.length - 1)
                + "; COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}; _complete_cpbench 2>/dev/null;"
                + " printf '%s\\n' \"${COMPREPLY[@]}\"";
        Process bash = new ProcessBuilder("bash", "-c", program).redirectErrorStream(true).start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out.lines().filter(l -> !l.isBlank()).toList();
    }

    @Test
    void completesCommandsOptionsAndScenarioNames() throws Exception {
        assertThat(complete("cpbench", "ma")).containsExactly("matrix");
        assertThat(complete("cpbench", "lab", "h")).containsExactly("hosts");
        assertThat(complete("cpbench", "matrix", "--str")).containsExactly("--strict");
        assertThat(complete("cpbench", "run", "--scenario", "client-smart")).containsExactlyInAnyOrder("client-smart",
                "client-smart-10ms");
        assertThat(complete("cpbench", "run", "--topology", "")).containsExactlyInAnyOrder("local", "embedded", "containers", "attach", "remote");
    }
}
