package io.cpbench.bench.agents;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The coordinator's one live line: each agent's latest interval, summed (op/s, errors, ops done) or, for latency,
 * the worst agent's (percentiles do not add; the exact merge is the result's). On stderr, once a second.
 */
final class LiveLine {

    private final String run;
    private final int agents;
    private final boolean quiet;
    private final Map<String, AgentTask.Interval> latest = new ConcurrentHashMap<>();
    private long printedAt = System.nanoTime();

    LiveLine(String run, int agents, boolean quiet) {
        this.run = run;
        this.agents = agents;
        this.quiet = quiet;
    }

    void add(String json) {
        try {
            AgentTask.Interval i = AgentTask.JSON.readValue(json, AgentTask.Interval.class);
            if (i.run().equals(run)) {
                latest.put(i.agent(), i);
            }
        } catch (Exception e) {
            // not one of ours: left out of the line
        }
    }

    void print() {
        if (quiet || System.nanoTime() - printedAt < 1_000_000_000L || latest.isEmpty()) {
            return;
        }
        printedAt = System.nanoTime();
        double ops = 0;
        long errors = 0;
        long done = 0;
        long p50 = 0;
        long p99 = 0;
        double elapsed = 0;
        for (AgentTask.Interval i : latest.values()) {
            ops += i.opsPerSecond();
            errors += i.errors();
            done += i.done();
            p50 = Math.max(p50, i.p50());
            p99 = Math.max(p99, i.p99());
            elapsed = Math.max(elapsed, i.elapsed());
        }
        System.err.printf(Locale.ROOT, "    [%d/%d agents] %5.0fs  %,8.0f op/s  worst agent p50 %,d µs p99 %,d µs  errors %d"
                + "  done %,d%n", latest.size(), agents, elapsed, ops, p50, p99, errors, done);
    }
}
