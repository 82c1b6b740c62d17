package io.cpbench.bench.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

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
 * The docs cannot rot: every {@code cpbench ...} command line in README.md, docs/ and results/ parses with the real
 * command model (an unknown command or option fails here), and every relative link in them points at a file that
 * exists.
 */
class DocsTest {

    static final Path ROOT = Path.of("..");
    /** A command line: in a code block or a code span, starting with ./cpbench or cpbench. */
    private static final Pattern SPAN = Pattern.compile("`(?:\\./)?cpbench ([^`]+)`");
    private static final Pattern LINE = Pattern.compile("^\\s*(?:\\$ )?(?:time )?(?:\\./)?cpbench ([^#]*)");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    static List<Path> markdown() throws IOException {
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        for (String dir : List.of("docs", "results")) {
            try (Stream<Path> walk = Files.walk(ROOT.resolve(dir))) {
                walk.filter(p -> p.toString().endsWith(".md") && !p.toString().contains("/runs/")).sorted().forEach(files::add);
            }
        }
        return files;
    }

    /** The command lines a file shows, as argument lists. */
    static List<List<String>> commandLines(Path file) throws IOException {
        List<List<String>> lines = new ArrayList<>();
        boolean inCode = false;
        for (String line : Files.readAllLines(file)) {
            if (line.strip().startsWith("```")) {
                inCode = !inCode;
                continue;
            }
            if (inCode) {
                Matcher m = LINE.matcher(line);
                if (m.find()) {
                    lines.add(words(m.group(1)));
                }
            } else {
                Matcher m = SPAN.matcher(line);
                while (m.find()) {
                    lines.add(words(m.group(1)));
                }
            }
        }
        return lines;
    }

    /** Shell words up to the first pipe, redirection, command separator or remark; {@code <X>} placeholders become X. */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        Matcher m = Pattern.compile("\"([^\"]*)\"|'([^']*)'|(\\S+)").matcher(text.replaceAll("<([^>]*)>", "$1"));
        while (m.find()) {
            String w = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
            // (a parenthesis opens a remark, as in the help's examples)
            if (m.group(3) != null && (w.equals("|") || w.equals("||") || w.equals("&&") || w.equals(";") || w.equals("\\")
                    || w.startsWith(">") || w.startsWith("2>") || w.equals("...") || w.startsWith("("))) {
                break;
            }
            words.add(w);
        }
        return words;
    }

    @Test
    void everyCommandLineInTheDocsParses() throws IOException {
        List<String> broken = new ArrayList<>();
        int parsed = 0;
        for (Path file : markdown()) {
            for (List<String> args : commandLines(file)) {
                if (args.isEmpty() || args.stream().anyMatch(a -> a.contains("⇥"))) { // ⇥: a completion demo
                    continue;
                }
                try {
                    CpBench.commandLine().parseArgs(args.toArray(String[]::new));
                    parsed++;
                } catch (CommandLine.MissingParameterException e) {
                    parsed++; // the text names a command (and options) without its required values: still real ones
                } catch (CommandLine.ParameterException e) {
                    broken.add(ROOT.relativize(file) + ": cpbench " + String.join(" ", args) + "\n    " + e.getMessage());
                }
            }
        }
        assertThat(broken).as("command lines that do not parse").isEmpty();
        assertThat(parsed).as("command lines found (README alone shows more than 10)").isGreaterThan(10);
    }

    @Test
    void everyRelativeLinkResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path file : markdown()) {
            Matcher m = LINK.matcher(Files.readString(file));
            while (m.find()) {
                String target = m.group(1);
                if (target.startsWith("http://") || target.startsWith("https://") || target.startsWith("#")) {
                    continue;
                }
                Path resolved = file.getParent().resolve(target.replaceAll("#.*$", "")).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(ROOT.relativize(file) + " -> " + target);
                }
            }
        }
        assertThat(broken).as("relative links to nothing").isEmpty();
    }
}
