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
 * command model (an unknown command or option fails here), every option written next to a command in a code span
 * ({@code `load --agents`}) is one of that command's, every relative link points at a file that exists and every
 * {@code #anchor} at a heading there, and no {@code --help} text points at a README section or doc that is not there.
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

    @Test
    void everyAnchorInALinkIsAHeadingOfItsFile() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : markdown()) {
            Matcher m = LINK.matcher(Files.readString(file));
            while (m.find()) {
                String target = m.group(1);
                int hash = target.indexOf('#');
                if (target.startsWith("http://") || target.startsWith("https://") || hash < 0) {
                    continue;
                }
                Path in = hash == 0 ? file : file.getParent().resolve(target.substring(0, hash)).normalize();
                if (!in.toString().endsWith(".md") || !Files.exists(in)) {
                    continue; // a missing file is everyRelativeLinkResolves's to report
                }
                checked++;
                if (!anchors(in).contains(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(file) + " -> " + target);
                }
            }
        }
        assertThat(broken).as("links whose #anchor is no heading of the file they point at").isEmpty();
        assertThat(checked).as("links with an anchor found (docs/cli-reference.md alone has 20)").isGreaterThan(20);
    }

    /** The anchors GitHub makes of a Markdown file's headings: lower case, punctuation dropped, spaces to hyphens. */
    static java.util.Set<String> anchors(Path file) throws IOException {
        java.util.Set<String> anchors = new java.util.HashSet<>();
        java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        boolean inCode = false;
        for (String line : Files.readAllLines(file)) {
            if (line.strip().startsWith("```")) {
                inCode = !inCode;
            }
            Matcher h = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$").matcher(line);
            if (inCode || !h.matches()) {
                continue;
            }
            String slug = slug(h.group(1));
            int n = seen.merge(slug, 1, Integer::sum);
            anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return anchors;
    }

    static String slug(String heading) {
        return heading.toLowerCase(java.util.Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    @Test
    void slugsAreGitHubs() {
        assertThat(slug("Failover: Hazelcast's defaults against `--failover fast`, kills and pauses of the leader"))
                .isEqualTo("failover-hazelcasts-defaults-against---failover-fast-kills-and-pauses-of-the-leader");
        assertThat(slug("cpbench lab member-commands")).isEqualTo("cpbench-lab-member-commands");
    }

    /** A code span that starts with a command's name: {@code `load --agents N`}, {@code `sweep --fresh-clusters`}. */
    private static final Pattern COMMAND_SPAN = Pattern.compile("`(?:\\./)?(?:cpbench )?([a-z][a-z-]*) (--[^`]*)`");

    @Test
    void everyOptionWrittenNextToACommandIsOneOfItsOptions() throws IOException {
        CommandLine root = CpBench.commandLine();
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : markdown()) {
            Matcher m = COMMAND_SPAN.matcher(Files.readString(file));
            while (m.find()) {
                CommandLine command = root.getSubcommands().get(m.group(1));
                if (command == null) {
                    continue; // not a command of ours (mvn, java, docker ...)
                }
                Matcher opt = Pattern.compile("(?<![\\w-])(--[a-z][a-z0-9-]*)").matcher(m.group(2));
                while (opt.find()) {
                    checked++;
                    if (command.getCommandSpec().findOption(opt.group(1)) == null) {
                        broken.add(ROOT.relativize(file) + ": `" + m.group(1) + " " + m.group(2) + "`: "
                                + m.group(1) + " has no " + opt.group(1));
                    }
                }
            }
        }
        assertThat(broken).as("options written next to a command that has none such").isEmpty();
        assertThat(checked).as("options next to a command found").isGreaterThan(20);
    }

    /**
     * A command a reader copies must be today's spelling: no hidden option (the old ones, as {@code --scenarios}, are
     * kept hidden so they still work) and no bare number for a warm-up, which was an op count and is a time now.
     * Reference folders record how a result was made: there, the old command is told in words, not as a command.
     */
    @Test
    void noCommandLineShowsADeprecatedSpelling() throws IOException {
        List<String> old = new ArrayList<>();
        for (Path file : markdown()) {
            for (List<String> args : commandLines(file)) {
                if (args.isEmpty() || args.stream().anyMatch(a -> a.contains("⇥"))) {
                    continue;
                }
                CommandLine.ParseResult parsed;
                try {
                    parsed = CpBench.commandLine().parseArgs(args.toArray(String[]::new));
                } catch (CommandLine.ParameterException e) {
                    continue; // everyCommandLineInTheDocsParses says so
                }
                for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
                    for (CommandLine.Model.OptionSpec option : p.matchedOptions()) {
                        boolean warmup = option.longestName().equals("--warmup") || option.longestName().equals("--cluster-warmup");
                        boolean bareNumber = warmup && option.stringValues().stream().anyMatch(v -> v.matches("[1-9][0-9]*"));
                        if (option.hidden() || bareNumber) {
                            old.add(ROOT.relativize(file) + ": cpbench " + String.join(" ", args) + "\n    "
                                    + option.longestName() + (bareNumber ? " with a bare number (an op count)" : " (hidden: an old spelling)"));
                        }
                    }
                }
            }
        }
        assertThat(old).as("command lines with an old spelling").isEmpty();
    }

    /** "README, Load runs" (a section), "docs/load.md": what help texts point at must be there. */
    @Test
    void noHelpTextPointsAtASectionOrDocThatIsNotThere() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        List<String> broken = new ArrayList<>();
        java.util.Deque<CommandLine> todo = new java.util.ArrayDeque<>(List.of(CpBench.commandLine()));
        int commands = 0;
        while (!todo.isEmpty()) {
            CommandLine command = todo.pop();
            todo.addAll(command.getSubcommands().values());
            commands++;
            String help = command.getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("\\s+", " ");
            Matcher section = Pattern.compile("README, ([A-Z][\\w -]*[\\w])").matcher(help);
            while (section.find()) {
                if (!Pattern.compile("(?m)^#+ " + Pattern.quote(section.group(1)) + "\\s*$").matcher(readme).find()) {
                    broken.add(command.getCommandName() + ": \"README, " + section.group(1) + "\": no such README section");
                }
            }
            Matcher doc = Pattern.compile("docs/([\\w-]+\\.md)").matcher(help);
            while (doc.find()) {
                if (!Files.exists(ROOT.resolve("docs").resolve(doc.group(1)))) {
                    broken.add(command.getCommandName() + ": docs/" + doc.group(1) + " does not exist");
                }
            }
        }
        assertThat(broken).as("help texts pointing at nothing").isEmpty();
        assertThat(commands).as("commands whose help was read").isGreaterThan(15);
    }
    /**
     * docs/cli.md's table of {@code run} and {@code matrix} options: each default it quotes is the command model's
     * (its declared default, or the "default: X" its help states), compared without thousands separators.
     */
    @Test
    void theDefaultsDocsQuoteAreTheCommandModels() throws IOException {
        CommandLine.Model.CommandSpec matrix = CpBench.commandLine().getSubcommands().get("matrix").getCommandSpec();
        List<String> broken = new ArrayList<>();
        int checked = 0;
        Pattern row = Pattern.compile("^\\| `(--[a-z-]+)[^`]*` \\| ([^|]+?) \\|");
        for (String line : Files.readAllLines(ROOT.resolve("docs/cli.md"))) {
            Matcher m = row.matcher(line);
            if (!m.find()) {
                continue;
            }
            CommandLine.Model.OptionSpec option = matrix.findOption(m.group(1));
            if (option == null) {
                broken.add("docs/cli.md: matrix has no " + m.group(1));
                continue;
            }
            String quoted = m.group(2).replaceAll(" \\(.*\\)$", "").replace("`", "").strip();
            String model = modelDefault(option);
            if (model == null || option.arity().max() == 0 || !quoted.matches("[0-9][0-9,.]*[a-z]*|[a-z/]+")) {
                continue; // a default in words ("last member", "Hazelcast's"), or none in the model to compare
            }
            checked++;
            if (!normal(quoted).equals(normal(model))) {
                broken.add("docs/cli.md: " + m.group(1) + " quotes default " + quoted + "; the model's is " + model);
            }
        }
        assertThat(broken).as("defaults the docs quote that the model does not have").isEmpty();
        assertThat(checked).as("defaults compared").isGreaterThan(8);
    }

    /**
     * A default stated in prose next to an option ({@code `--tolerance` (default 5 %)}, {@code `--cluster-warmup`, 60 s
     * by default}) is the default of that option in some command that has it (the docs name the command around it, in
     * words). Values in words ("the seed's cas") are not compared.
     */
    private static final Pattern PROSE_DEFAULT = Pattern.compile(
            "`(--[a-z][a-z0-9-]*)[^`]*`(?:,| \\()? ?(?:default:? ([0-9][0-9.,]*(?: ?[a-z%]+)?)|([0-9][0-9.,]*(?: ?[a-z%]+)?) by default)");

    @Test
    void everyDefaultStatedInProseIsTheOptionsDefault() throws IOException {
        List<CommandLine.Model.CommandSpec> commands = new ArrayList<>();
        java.util.Deque<CommandLine> todo = new java.util.ArrayDeque<>(List.of(CpBench.commandLine()));
        while (!todo.isEmpty()) {
            CommandLine command = todo.pop();
            todo.addAll(command.getSubcommands().values());
            commands.add(command.getCommandSpec());
        }
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : markdown()) {
            if (file.getFileName().toString().equals("cli-reference.md")) {
                continue; // generated from the models
            }
            Matcher m = PROSE_DEFAULT.matcher(Files.readString(file).replaceAll("\\s+", " "));
            while (m.find()) {
                String option = m.group(1);
                String quoted = (m.group(2) != null ? m.group(2) : m.group(3)).replaceAll("[.,]$", "");
                List<String> models = commands.stream().map(c -> c.findOption(option)).filter(java.util.Objects::nonNull)
                        .map(DocsTest::modelDefault).filter(java.util.Objects::nonNull).distinct().toList();
                checked++;
                if (models.stream().noneMatch(d -> sameValue(quoted, d))) {
                    broken.add(ROOT.relativize(file) + ": " + m.group() + " -- the defaults of " + option + " are " + models);
                }
            }
        }
        assertThat(broken).as("defaults stated in prose that no command has").isEmpty();
        assertThat(checked).as("defaults in prose found").isGreaterThanOrEqualTo(4);
    }

    /** Whether two ways of writing a value are the same: "60 s" and "1m", "5 %" and "5%", "1,4,16" and "1, 4, 16". */
    static boolean sameValue(String a, String b) {
        Double x = seconds(a);
        Double y = seconds(b);
        if (x != null && y != null) {
            return Math.abs(x - y) < 1e-9;
        }
        return a.replace(" ", "").equalsIgnoreCase(b.replace(" ", ""));
    }

    /** A duration in seconds ("60 s", "1m", "500ms", "10 min"); null if it is not one. */
    private static Double seconds(String value) {
        Matcher d = Pattern.compile("([0-9]+(?:\\.[0-9]+)?) ?(ms|s|m|min|h)").matcher(value.strip());
        if (!d.matches()) {
            return null;
        }
        double n = Double.parseDouble(d.group(1));
        return switch (d.group(2)) {
            case "ms" -> n / 1000;
            case "s" -> n;
            case "m", "min" -> n * 60;
            default -> n * 3600;
        };
    }

    @Test
    void valuesAreComparedAsAReaderReadsThem() {
        assertThat(sameValue("60 s", "1m")).isTrue();
        assertThat(sameValue("10 min", "60s")).isFalse();
        assertThat(sameValue("5 %", "5%")).isTrue();
        assertThat(sameValue("1,4,16", "1, 4, 16")).isTrue();
        assertThat(sameValue("2", "3")).isFalse();
        Matcher m = PROSE_DEFAULT.matcher("the box (`--cluster-warmup`, 10 min by default) and `--tolerance` (default 5 %): x");
        assertThat(m.find()).isTrue();
        assertThat(m.group(1) + "=" + m.group(3)).isEqualTo("--cluster-warmup=10 min");
        assertThat(m.find()).isTrue();
        assertThat(m.group(1) + "=" + m.group(2)).isEqualTo("--tolerance=5 %");
    }

    /** The option's declared default, else the "default: X" / "default X" its description states; null if neither. */
    private static String modelDefault(CommandLine.Model.OptionSpec option) {
        if (option.defaultValue() != null) {
            return option.defaultValue();
        }
        Matcher d = Pattern.compile("\\(default:? ([^;)]+)").matcher(String.join(" ", option.description()));
        return d.find() ? d.group(1).strip() : null;
    }

    private static String normal(String value) {
        return value.replace(",", "").replace("_", "").toLowerCase(java.util.Locale.ROOT);
    }
}
