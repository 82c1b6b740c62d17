package io.cpbench.bench.cli;

import io.cpbench.bench.history.History;
import io.cpbench.bench.history.HistoryStore;
import io.cpbench.bench.history.Trends;
import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.trend.EDivisive;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code cpbench history}: the results history, its trends and its regressions (docs/history.md). */
@Command(name = "history", mixinStandardHelpOptions = true,
        description = {"The results history: every run, recorded as it ends, in a SQLite file or a PostgreSQL database;",
                "trends across runs, commits and releases, and regressions found by change-point detection",
                "(E-Divisive means with Welch's t-test). See docs/history.md."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:done", " 1:history regressions found one", " 2:bad input, or a store that cannot be opened or read"},
        footer = {"", "Examples:", "  ./cpbench history import results/runs", "  ./cpbench history regressions --fail-on 5%%"},
        subcommands = {HistoryCommand.Import.class, HistoryCommand.ListRuns.class, HistoryCommand.Show.class,
                HistoryCommand.Trend.class, HistoryCommand.Regressions.class, HistoryCommand.Ack.class,
                HistoryCommand.Report.class})
final class HistoryCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** {@code --history}: which store. */
    static final class Store {
        @Option(names = "--history", paramLabel = "PATH|JDBC-URL", defaultValue = "${env:CPBENCH_HISTORY:-results/history.db}",
                description = "The store: a SQLite file or a JDBC URL, its password from PGPASSWORD or ~/.pgpass"
                        + " (default: results/history.db, or CPBENCH_HISTORY when set).")
        String where;

        HistoryStore open() {
            return HistoryStore.open(where);
        }
    }

    /** {@code --metric a,b}: the metrics regressions judges, ack acknowledges and report charts. */
    static final class Metrics {
        @Option(names = "--metric", paramLabel = "NAME", split = ",", defaultValue = "ops,p99",
                description = "ops, p50, p90, p99, p999 or max; several with commas (default: ${DEFAULT-VALUE}).")
        List<String> names;

        List<Trends.Metric> list() {
            return names.stream().map(Trends.Metric::of).toList();
        }
    }

    /** Which series, as trend, regressions and ack select them. */
    static final class Select {
        @Option(names = "--scenario", paramLabel = "NAME", description = "Only this scenario's series.")
        String scenario;

        @Option(names = "--op", paramLabel = "OP", description = "Only this op's series (all: a scenario's op, a load's total).")
        String op;

        @Option(names = "--harness", paramLabel = "NAME", description = "Only this harness: driver, load, jmh-thrpt, jmh-sample.")
        String harness;

        @Option(names = "--topology", paramLabel = "NAME", description = "Only runs on this topology (local, stock, containers, lab).")
        String topology;

        @Option(names = "--release", paramLabel = "VERSION", description = "Only runs whose members ran this Hazelcast release.")
        String release;

        @Option(names = "--label", paramLabel = "KEY=VALUE", description = "Only runs with this label; repeatable.")
        Map<String, String> labels = new LinkedHashMap<>();

        @Option(names = "--by", paramLabel = "time|commit", defaultValue = "time",
                description = "A point per run in time order, or per cp-bench commit (the median of its runs) (default: ${DEFAULT-VALUE}).")
        String by;

        @Option(names = "--window", paramLabel = "N", defaultValue = "30",
                description = "The most runs on either side of a change that its test compares (default: ${DEFAULT-VALUE}).")
        int window;

        @Option(names = "--p-value", paramLabel = "P", defaultValue = "0.01",
                description = "A change is significant at this p-value or below (default: ${DEFAULT-VALUE}).")
        double pValue;

        @Option(names = "--permutations", paramLabel = "N", defaultValue = "999",
                description = "The permutation test's shuffles; 0 judges a change by Welch's t-test, as Apache Otava"
                        + " does, which finds more changes that are not there (default: ${DEFAULT-VALUE}).")
        int permutations;

        History.Query query(Trends.Metric metric, String since) {
            Trends.Order order = switch (by) {
                case "time" -> Trends.Order.TIME;
                case "commit" -> Trends.Order.COMMIT;
                default -> throw new IllegalArgumentException("--by must be time or commit, was '" + by + "'");
            };
            return new History.Query(scenario, op, harness, topology, release, labels, metric, order, History.since(since),
                    new EDivisive.Options(window, pValue, EDivisive.Options.DEFAULT.minSize(), permutations));
        }
    }

    @Command(name = "import", mixinStandardHelpOptions = true,
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {" 0:done", " 2:bad input, or a store that cannot be opened or read (one line)"},
            footer = {"", "Example:", "  ./cpbench history import results/runs results/reference --label env=laptop"},
            description = "Adds the runs in these directories (and below them) to the store: result folders of either"
                    + " format, results/reference/ included. A run already there is not added again.")
    static final class Import implements Callable<Integer> {
        @Mixin
        Store store;

        @Parameters(paramLabel = "DIR", arity = "1..*", description = "Run directories, or directories that hold them.")
        List<Path> dirs;

        @Option(names = "--label", paramLabel = "KEY=VALUE", description = "A label for every run imported; repeatable.")
        Map<String, String> labels = new LinkedHashMap<>();

        @Override
        public Integer call() {
            OutOption.Labels.check(labels);
            try (HistoryStore history = store.open()) {
                History.importRuns(history, dirs, labels, System.out);
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {" 0:done", " 2:bad input, or a store that cannot be opened or read (one line)"},
            footer = {"", "Example:", "  ./cpbench history list --limit 50"}, description = "The newest runs in the store.")
    static final class ListRuns implements Callable<Integer> {
        @Mixin
        Store store;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "20", description = "How many runs (default: ${DEFAULT-VALUE}).")
        int limit;

        @Override
        public Integer call() {
            if (limit < 1) {
                throw new IllegalArgumentException("--limit must be 1 or more, was " + limit);
            }
            try (HistoryStore history = store.open()) {
                History.list(history, limit, System.out);
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {" 0:done", " 2:bad input, or a store that cannot be opened or read (one line)"},
            footer = {"", "Example:", "  ./cpbench history show 3f9a1c"}, description = "One run: where and how it ran, and its rows.")
    static final class Show implements Callable<Integer> {
        @Mixin
        Store store;

        @Parameters(paramLabel = "RUN", description = "The run's id, or its first 6 characters or more.")
        String run;

        @Override
        public Integer call() {
            try (HistoryStore history = store.open()) {
                History.show(history, run, System.out);
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "trend", mixinStandardHelpOptions = true,
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {" 0:done", " 2:bad input, or a store that cannot be opened or read (one line)"},
            footer = {"", "Example:", "  ./cpbench history trend --scenario client-leader --metric p99 --by commit --format csv"},
            description = "Each series of a metric over runs or commits, with its change points.")
    static final class Trend implements Callable<Integer> {
        @Mixin
        Store store;

        @Mixin
        Select select;

        @Option(names = "--metric", paramLabel = "NAME", defaultValue = "ops",
                description = "ops, p50, p90, p99, p999 or max (default: ${DEFAULT-VALUE}).")
        String metric;

        @Option(names = "--since", paramLabel = "DATE", description = "Only runs from this date (2026-10-01) or instant on.")
        String since;

        @Option(names = "--format", paramLabel = "table|csv|json", defaultValue = "table",
                description = "How to print the series (default: ${DEFAULT-VALUE}).")
        String format;

        @Override
        public Integer call() {
            History.Query query = select.query(Trends.Metric.of(metric), since);
            try (HistoryStore history = store.open()) {
                History.trend(history, query, format, System.out);
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "regressions", mixinStandardHelpOptions = true,
            description = {"Significant changes for the worse, newer than the last acknowledged one in their series.",
                    "Exit 1 when there is one: a nightly job gates on it."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {" 0:no regression", " 1:a regression newer than the last acknowledged one in its series",
                    " 2:bad input, or a store that cannot be opened or read (one line)"},
            footer = {"", "Example (a nightly job, after its runs):",
                    "  ./cpbench history regressions --since 2026-10-01 --fail-on 5%% --label env=lab"})
    static final class Regressions implements Callable<Integer> {
        @Mixin
        Store store;

        @Mixin
        Select select;

        @Mixin
        Metrics metrics;

        @Option(names = "--since", paramLabel = "DATE", description = "Only changes from this date (2026-10-01) or instant on.")
        String since;

        @Option(names = "--fail-on", paramLabel = "PERCENT", defaultValue = "0",
                description = "Only changes of at least this size, in percent (5 or 5%%) (default: any significant change).")
        String failOn;

        @Override
        public Integer call() {
            List<Trends.Metric> which = metrics.list();
            History.Query query = select.query(which.get(0), since);
            double percent = percent(failOn);
            try (HistoryStore history = store.open()) {
                List<History.Regression> found = History.regressions(history, query, which, percent);
                return History.printRegressions(found, history, System.out) ? ExitCodes.FAILED : ExitCodes.OK;
            }
        }

        static double percent(String text) {
            try {
                double v = Double.parseDouble(text.endsWith("%") ? text.substring(0, text.length() - 1) : text);
                if (v < 0 || v > 100) {
                    throw new NumberFormatException();
                }
                return v;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--fail-on must be a percentage 0-100, like 5 or 5%, was '" + text + "'");
            }
        }
    }

    @Command(name = "report", mixinStandardHelpOptions = true,
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {" 0:done", " 2:bad input, or a store that cannot be opened or read (one line)"},
            footer = {"", "Example:", "  ./cpbench history report --html history.html --since 2026-10-01"},
            description = "One self-contained HTML page: a trend chart per series, change points marked, each point"
                    + " linking to its run. Works offline.")
    static final class Report implements Callable<Integer> {
        @Mixin
        Store store;

        @Mixin
        Select select;

        @Option(names = "--html", paramLabel = "FILE", required = true, description = "Where to write the page.")
        Path html;

        @Mixin
        Metrics metrics;

        @Option(names = "--since", paramLabel = "DATE", description = "Only runs from this date (2026-10-01) or instant on.")
        String since;

        @Override
        public Integer call() {
            List<Trends.Metric> which = metrics.list();
            try (HistoryStore history = store.open()) {
                int n = io.cpbench.bench.history.HistoryReport.write(history, select.query(which.get(0), since), which, html);
                System.out.printf(java.util.Locale.ROOT, "wrote %s: %d series%n", html, n);
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "ack", mixinStandardHelpOptions = true,
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {" 0:done", " 2:bad input, or a store that cannot be opened or read (one line)"},
            footer = {"", "Example:", "  ./cpbench history ack 7c01d2 --reason \"accepted: a safer default\""},
            description = "Acknowledges the change points that start at a run: history regressions then gates only on newer ones.")
    static final class Ack implements Callable<Integer> {
        @Mixin
        Store store;

        @Mixin
        Select select;

        @Parameters(paramLabel = "RUN", description = "The first run after the change, as history regressions names it.")
        String run;

        @Option(names = "--reason", paramLabel = "TEXT", required = true, description = "Why the change is accepted.")
        String reason;

        @Mixin
        Metrics metrics;

        @Override
        public Integer call() {
            List<Trends.Metric> which = metrics.list();
            try (HistoryStore history = store.open()) {
                History.ack(history, run, reason, select.query(which.get(0), null), which, System.out);
            }
            return ExitCodes.OK;
        }
    }
}
