package io.cpbench.bench.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every command's --help renders cleanly: a stray '%' in a description makes picocli warn and print it raw. */
class HelpTextTest {

    @Test
    void everyCommandsHelpRendersWithoutPicocliWarnings() {
        List<CommandLine> all = new ArrayList<>();
        collect(CpBench.commandLine(), all);
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            for (CommandLine command : all) {
                assertThat(command.getUsageMessage()).as(command.getCommandName()).contains("Usage:");
            }
        } finally {
            System.setErr(original);
        }
        assertThat(all).hasSizeGreaterThan(10);
        assertThat(captured.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
    }

    private static void collect(CommandLine command, List<CommandLine> into) {
        into.add(command);
        command.getSubcommands().values().forEach(sub -> collect(sub, into));
    }
}
