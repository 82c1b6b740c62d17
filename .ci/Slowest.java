import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Prints the slowest test classes of the last build, read from the surefire and failsafe XML reports under the
 * given root: {@code java .ci/Slowest.java [ROOT] [N] [--since EPOCH_SECONDS] [--fail-on-skip]}. Run by
 * {@code .ci/run} after the tests, pass or fail. With {@code --since}, only reports written at or after that instant
 * count (this run's: a report left by an earlier build in the same tree is neither timed nor judged). With
 * {@code --fail-on-skip} (CI), it exits 1 if any suite counts a skipped test ({@code skipped=} in its report), and
 * names each with its reason: in CI a test that did not run is a test that did not pass.
 */
public class Slowest {

    private static final Pattern SUITE = Pattern.compile("<testsuite\\b([^>]*)>");
    /** A test case that was skipped, and the message of its {@code <skipped>} element. */
    private static final Pattern SKIPPED = Pattern.compile(
            "<testcase\\b([^>]*?)>\\s*<skipped(?:\\s+message=\"([^\"]*)\")?", Pattern.DOTALL);

    record Suite(String module, String phase, String name, double seconds, int tests, int failed, int skipped) {
    }

    public static void main(String[] args) throws IOException {
        List<String> positional = new ArrayList<>(List.of(args));
        boolean failOnSkip = positional.remove("--fail-on-skip");
        long sinceMillis = Long.MIN_VALUE;
        int since = positional.indexOf("--since");
        if (since >= 0) {
            if (since + 1 >= positional.size()) {
                System.err.println("slowest: --since needs an instant in seconds since the epoch");
                System.exit(2);
            }
            sinceMillis = Long.parseLong(positional.get(since + 1)) * 1000;
            positional.remove(since + 1);
            positional.remove(since);
        }
        Path root = Path.of(positional.size() > 0 ? positional.get(0) : ".");
        int n = positional.size() > 1 ? Integer.parseInt(positional.get(1)) : 15;
        List<Suite> suites = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        int older = 0;
        int counted = 0;
        try (Stream<Path> files = Files.walk(root, 4)) {
            for (Path file : files.filter(Slowest::isReport).toList()) {
                if (Files.getLastModifiedTime(file).toMillis() < sinceMillis) {
                    older++;
                    continue;
                }
                String head = Files.readString(file);
                Matcher m = SUITE.matcher(head);
                if (!m.find()) {
                    continue;
                }
                String attrs = m.group(1);
                String phase = file.getParent().getFileName().toString().replace("-reports", "").replace("failsafe-", "failsafe ");
                String module = file.getParent().getParent().getParent().getFileName().toString();
                Suite suite = new Suite(module, phase, simple(attr(attrs, "name")), parse(attr(attrs, "time")),
                        (int) parse(attr(attrs, "tests")), (int) (parse(attr(attrs, "failures")) + parse(attr(attrs, "errors"))),
                        (int) parse(attr(attrs, "skipped")));
                suites.add(suite);
                // the suite's own count decides; the named cases give the reasons (a class skipped whole, by an
                // assumption in @BeforeAll, may name fewer cases than it counts)
                int named = 0;
                Matcher skip = SKIPPED.matcher(head);
                while (skip.find()) {
                    named++;
                    skipped.add(simple(attr(skip.group(1), "classname")) + "." + attr(skip.group(1), "name") + " (" + module
                            + ", " + phase + "): " + (skip.group(2) == null ? "no reason given" : skip.group(2)));
                }
                if (suite.skipped() > named) {
                    skipped.add(suite.name() + " (" + module + ", " + phase + "): " + (suite.skipped() - named)
                            + " skipped test" + (suite.skipped() - named == 1 ? "" : "s") + " its report does not name");
                }
                counted += suite.skipped();
            }
        }
        if (older > 0) {
            System.out.printf(Locale.ROOT, "slowest: %d report%s older than --since left out (an earlier build's)%n", older,
                    older == 1 ? "" : "s");
        }
        if (suites.isEmpty()) {
            System.out.println("slowest: no test reports under " + root.toAbsolutePath()
                    + (sinceMillis == Long.MIN_VALUE ? "" : " from this run"));
            if (failOnSkip) {
                System.out.println("ci: FAILED: no test ran");
                System.exit(1);
            }
            return;
        }
        double total = suites.stream().mapToDouble(Suite::seconds).sum();
        suites.sort(Comparator.comparingDouble(Suite::seconds).reversed());
        System.out.printf(Locale.ROOT, "%nThe %d slowest test classes (of %d; %.0f s in all test classes):%n%n",
                Math.min(n, suites.size()), suites.size(), total);
        System.out.println("| # | class | module | phase | s | tests | failed | skipped |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (int i = 0; i < Math.min(n, suites.size()); i++) {
            Suite s = suites.get(i);
            System.out.printf(Locale.ROOT, "| %d | %s | %s | %s | %.1f | %d | %d | %d |%n", i + 1, s.name(), s.module(), s.phase(),
                    s.seconds(), s.tests(), s.failed(), s.skipped());
        }
        if (counted > 0) {
            System.out.printf(Locale.ROOT, "%n%d skipped test%s:%n", counted, counted == 1 ? "" : "s");
            skipped.forEach(line -> System.out.println("  " + line));
            if (failOnSkip) {
                System.out.println("ci: FAILED: " + counted + " test" + (counted == 1 ? " was" : "s were")
                        + " skipped; in CI every test must run");
                System.exit(1);
            }
        }
    }

    private static boolean isReport(Path file) {
        String dir = file.getParent() == null ? "" : file.getParent().getFileName().toString();
        String name = file.getFileName().toString();
        // failsafe-reports-hazelcast-5.3.8: the long group's second run of the balancers' tests, on that release
        return (dir.equals("surefire-reports") || dir.startsWith("failsafe-reports")) && name.startsWith("TEST-") && name.endsWith(".xml");
    }

    private static String attr(String attrs, String name) {
        Matcher m = Pattern.compile("\\b" + name + "=\"([^\"]*)\"").matcher(attrs);
        return m.find() ? m.group(1) : "0";
    }

    private static double parse(String value) {
        try {
            return Double.parseDouble(value.replace(",", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String simple(String name) {
        return name.substring(name.lastIndexOf('.') + 1);
    }
}
