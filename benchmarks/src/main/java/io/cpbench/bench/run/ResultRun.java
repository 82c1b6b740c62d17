package io.cpbench.bench.run;

import io.cpbench.core.result.RunResult;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a run whose scenario runs each give a {@link RunResult} (matrix, run, load) has in common: the console it
 * prints to, the results so far, and what {@link #stop()} stops ({@link StoppableRun}).
 */
abstract class ResultRun extends StoppableRun {

    private final List<RunResult> results = new CopyOnWriteArrayList<>();

    ResultRun(PrintStream console) {
        super(console);
    }

    /** The results so far, in the order they ran; all of them once the run returned. */
    public List<RunResult> results() {
        return List.copyOf(results);
    }

    /** Keeps {@code result} as the next one, and returns it. */
    RunResult add(RunResult result) {
        results.add(result);
        return result;
    }

    int count() {
        return results.size();
    }

    /** A run's one verdict from its results: the worst of their statuses, OK when there are none. */
    static io.cpbench.core.status.Status worstOrOk(List<RunResult> results) {
        io.cpbench.core.status.Status worst = io.cpbench.core.status.Status.worst(results.stream().map(RunResult::status).toList());
        return worst == null ? io.cpbench.core.status.Status.OK : worst;
    }
}
