package io.cpbench.bench.cli;

import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.check.Linearizability;
import io.cpbench.core.status.Status;
import io.cpbench.core.history.History;
import io.cpbench.core.history.HistoryFiles;
import io.cpbench.core.history.HistoryFormatException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(name = "lincheck", mixinStandardHelpOptions = true,
        description = {"Checks histories of read/write/cas registers for linearizability (Wing-Gong search with Lowe's"
                + " memoisation, each key on its own). Reads JSON-lines histories (history.jsonl of a chaos run) and"
                + " Jepsen logs. Prints one line per file: '<file>: linearizable|not linearizable|unknown', then, for a"
                + " history that is not, the ops around the first point where no order exists."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {" 0:every history is linearizable", " 1:some history is not linearizable",
                " 2:bad input: a file that cannot be read as a history", " 3:some verdict is unknown (over the budget)"},
        footer = {"", "Examples:", "  cpbench lincheck results/runs/*-chaos/history.jsonl",
                "  cpbench lincheck --stats core/src/test/resources/histories/jepsen-etcd/*.log"})
final class LincheckCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "History files: JSON lines or Jepsen logs.")
    List<Path> files;

    @Option(names = "--time-budget", paramLabel = "DURATION", defaultValue = "60s", converter = DurationConverter.class,
            description = "Time each file's check may take, shared out among its keys: each key gets what is left divided by"
                    + " the keys still to check, and a key over its share is unknown, never not linearizable"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration timeBudget;

    @Option(names = "--memory-budget", paramLabel = "MiB", defaultValue = "1024",
            description = "Memory the search's memo may take per key, in MiB; a key over it, or one whose search runs the JVM"
                    + " out of heap, is unknown (default: ${DEFAULT-VALUE}).")
    int memoryBudgetMiB;

    @Option(names = "--stats", description = "After each verdict, the ops checked, keys, configurations explored and time taken.")
    boolean stats;

    @Override
    public Integer call() {
        if (memoryBudgetMiB < 1) {
            throw new IllegalArgumentException("--memory-budget must be at least 1 (MiB), not " + memoryBudgetMiB);
        }
        if (timeBudget.isZero() || timeBudget.isNegative()) {
            throw new IllegalArgumentException("--time-budget must be positive");
        }
        Linearizability.Budget budget = new Linearizability.Budget(timeBudget, (long) memoryBudgetMiB << 20);
        boolean bad = false;
        Status worst = null;
        for (Path file : files) {
            History history;
            Linearizability.Result r;
            try {
                if (!Files.isRegularFile(file)) {
                    throw new HistoryFormatException(file + ": " + (Files.isDirectory(file) ? "a directory, not a history file" : "no such file"));
                }
                history = HistoryFiles.read(file);
                r = Linearizability.check(history, budget);
            } catch (HistoryFormatException e) {
                System.err.println("cpbench: " + e.getMessage());
                bad = true;
                continue;
            } catch (IllegalArgumentException e) {
                System.err.println("cpbench: " + file + ": " + e.getMessage());
                bad = true;
                continue;
            }
            System.out.println(file + ": " + r.verdict().text());
            if (stats) {
                long configurations = r.keys().stream().mapToLong(Linearizability.KeyResult::configurations).sum();
                System.out.printf(Locale.ROOT, "  %,d register ops, %d key%s, %,d configurations, %.3f s%s%n", r.ops(),
                        r.keys().size(), r.keys().size() == 1 ? "" : "s", configurations, r.seconds(),
                        r.skipped() > 0 ? String.format(Locale.ROOT, "; %,d other ops not checked here", r.skipped()) : "");
            }
            Linearizability.KeyResult problem = r.firstProblem();
            if (problem != null) {
                System.out.println(problem.detail().indent(2).stripTrailing());
            }
            worst = Status.worse(worst, r.verdict().status());
        }
        // a history that is not linearizable outranks a file that could not be read; that outranks an unknown verdict
        return worst == Status.FAIL ? ExitCodes.FAILED : bad ? ExitCodes.BAD_INPUT
                : worst == null ? ExitCodes.OK : worst.exitCode(false);
    }
}
