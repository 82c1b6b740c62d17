package io.cpbench.core.workload;

import java.util.Map;

/**
 * One operation against the system under test. The driver times each call; an exception counts as an error.
 * Implementations are shared by all driver threads, so they must be thread-safe, and they should not allocate
 * or log on this path beyond what the operation itself needs.
 */
@FunctionalInterface
public interface Workload {

    void execute() throws Exception;

    /** Counts the workload keeps of its own (retries, for example), as they stand now; recorded with each result. */
    default Map<String, Long> counters() {
        return Map.of();
    }
}
