package io.cpbench.bench.cli;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/** docs/cli-reference.md is what the command model generates, so an option added, renamed or redescribed shows there. */
class CliReferenceTest {

    static final Path COMMITTED = DocsTest.ROOT.resolve("docs/cli-reference.md");

    @Test
    void theCommittedReferenceIsWhatTheCommandsGenerate() throws Exception {
        String generated = CliReference.markdown();
        String committed = Files.exists(COMMITTED) ? Files.readString(COMMITTED, StandardCharsets.UTF_8) : "";
        if (!generated.equals(committed)) {
            Path fresh = Path.of("target", "cli-reference.md");
            Files.writeString(fresh, generated, StandardCharsets.UTF_8);
            List<String> want = generated.lines().toList();
            List<String> have = committed.lines().toList();
            int line = 0;
            while (line < Math.min(want.size(), have.size()) && want.get(line).equals(have.get(line))) {
                line++;
            }
            fail("docs/cli-reference.md differs from the command model from line " + (line + 1) + ":\n  committed: "
                    + (line < have.size() ? have.get(line) : "<end of file>") + "\n  generated: "
                    + (line < want.size() ? want.get(line) : "<end of file>") + "\nRegenerate it: cp benchmarks/"
                    + fresh + " docs/cli-reference.md");
        }
    }

    @Test
    void everyVisibleCommandHasASectionAndAContentsLine() {
        String page = CliReference.markdown();
        CpBench.commandLine().getSubcommands().forEach((name, command) -> {
            if (!command.getCommandSpec().usageMessage().hidden() && name.equals(command.getCommandName())) {
                assertThat(page).contains("\n## cpbench " + name + "\n")
                        .contains("- [cpbench " + name + "](#cpbench-" + CliReference.anchor(name) + ")");
            }
        });
    }

    @Test
    void anchorsFollowGitHubsRule() {
        assertThat(CliReference.anchor("cpbench lab hosts")).isEqualTo("cpbench-lab-hosts");
        assertThat(CliReference.anchor("cpbench generate-completion")).isEqualTo("cpbench-generate-completion");
    }
}
