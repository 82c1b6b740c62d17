package io.cpbench.bench.cli;

import picocli.CommandLine;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * docs/cli-reference.md, written from the command model itself: one section per command with the help text that
 * {@code cpbench help COMMAND} prints, at a fixed width and without colour, so the page changes only when a command
 * does. {@code CliReferenceTest} fails when the committed page differs from what this writes.
 *
 * <p>Regenerate with {@code java -cp benchmarks/target/cpbench.jar io.cpbench.bench.cli.CliReference >
 * docs/cli-reference.md}.
 */
public final class CliReference {

    /** Wide enough for the option tables, narrow enough to read in a browser without scrolling. */
    static final int WIDTH = 110;

    private CliReference() {
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        out.print(markdown());
        out.flush();
    }

    /** The whole page. */
    public static String markdown() {
        CommandLine root = CpBench.commandLine();
        List<CommandLine> commands = new ArrayList<>();
        collect(root, commands);

        StringBuilder page = new StringBuilder();
        page.append("# CLI reference\n\n")
                .append("Generated from the command model by `io.cpbench.bench.cli.CliReference`; do not edit by hand.\n")
                .append("`CliReferenceTest` fails when this page and the commands disagree. The same text is what\n")
                .append("`./cpbench help COMMAND` prints. The guides in this folder explain when to use which option.\n\n");
        for (CommandLine command : commands) {
            if (command != root) {
                String name = qualifiedName(command);
                page.append("- [").append(name).append("](#").append(anchor(name)).append(")\n");
            }
        }
        for (CommandLine command : commands) {
            String name = qualifiedName(command);
            page.append("\n## ").append(name).append("\n\n```text\n")
                    .append(usage(command))
                    .append("```\n");
        }
        return page.toString();
    }

    private static void collect(CommandLine command, List<CommandLine> into) {
        if (command.getCommandSpec().usageMessage().hidden()) {
            return;
        }
        into.add(command);
        for (Map.Entry<String, CommandLine> sub : command.getSubcommands().entrySet()) {
            // aliases map to the same CommandLine under another key; list each command once, under its own name
            if (sub.getKey().equals(sub.getValue().getCommandName())) {
                collect(sub.getValue(), into);
            }
        }
    }

    private static String usage(CommandLine command) {
        command.setUsageHelpAutoWidth(false);
        command.setUsageHelpWidth(WIDTH);
        String text = command.getUsageMessage(CommandLine.Help.Ansi.OFF);
        StringBuilder trimmed = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            trimmed.append(line.stripTrailing()).append('\n');
        }
        return trimmed.toString().stripTrailing() + "\n";
    }

    private static String qualifiedName(CommandLine command) {
        return command.getCommandSpec().qualifiedName(" ");
    }

    /** GitHub's heading anchor: lower case, spaces to hyphens, other punctuation dropped. */
    static String anchor(String heading) {
        return heading.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9 -]", "").replace(' ', '-');
    }
}
