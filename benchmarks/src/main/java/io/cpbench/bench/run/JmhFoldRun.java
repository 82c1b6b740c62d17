package io.cpbench.bench.run;

import io.cpbench.bench.jmh.JmhResults;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.service.RunContext;
import io.cpbench.bench.service.RunKind;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.status.Status;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code jmh --fold FILE}: a JMH JSON file (from {@code java -jar benchmarks.jar ... -rf json}) folded into cp-bench
 * results, a run like any other: its run directory, its table, its run in the results history. Nothing runs on a
 * cluster; the file was read and checked before (the command's bad-input errors come before any directory is made).
 */
public final class JmhFoldRun implements RunKind {

    private final Path file;
    private final JmhResults.Folded folded;
    private final PrintStream console;
    private final List<RunResult> results = new ArrayList<>();
    private volatile boolean stopped;

    public JmhFoldRun(Path file, JmhResults.Folded folded, PrintStream console) {
        this.file = file;
        this.folded = folded;
        this.console = console;
    }

    @Override
    public String name() {
        return "jmh-fold";
    }

    @Override
    public void announce(PrintStream out, Path runDir) {
        out.println("cp-bench jmh --fold: " + folded.results().size() + " trials" + (folded.harnessCosts().isEmpty() ? ""
                : " and " + folded.harnessCosts().size() + " harness costs") + " from " + file);
        out.println("results -> " + runDir);
    }

    @Override
    public void run(RunContext context) {
        results.addAll(folded.results());
        results.sort(Comparator.comparingInt(RunResult::round));
        results.forEach(r -> ResultFiles.write(context.runDir(), r));
    }

    @Override
    public void write(RunContext context) {
        List<String> notes = new ArrayList<>();
        folded.harnessCosts().forEach(cost -> notes.add(JmhRun.harnessCostLine(cost, results)));
        if (results.isEmpty()) { // harness costs alone: no table to put them under, and nothing for the directory
            notes.forEach(console::println);
            return;
        }
        RunDirectory.writeSummary(console, context.runDir(), name(), results, notes);
    }

    @Override
    public void stop() {
        stopped = true;
    }

    @Override
    public boolean stopped() {
        return stopped;
    }

    /** The worst of the folded trials' statuses (OK when there are only harness costs). */
    @Override
    public Status status() {
        return ResultRun.worstOrOk(results);
    }
}
