package io.cpbench.core.sweep;

import java.util.Locale;

/**
 * One cell of a sweep's grid: how clients connect (a scenario's name, which fixes the routing), how many client
 * instances with how many threads each, an open-loop rate (or null for a closed loop), and the members' settings
 * (empty for Hazelcast's defaults; each setting runs on its own cluster).
 */
public record SweepCell(String routing, int clients, int threads, Double rate, String members) {

    public SweepCell(String routing, int clients, int threads, Double rate) {
        this(routing, clients, threads, rate, "");
    }

    public SweepCell {
        members = members == null ? "" : members;
        if (clients < 1 || threads < 1) {
            throw new IllegalArgumentException("a cell needs at least 1 client and 1 thread");
        }
        if (rate != null && !(rate > 0)) {
            throw new IllegalArgumentException("a cell's rate must be above 0, was " + rate);
        }
    }

    /** Closed-loop workers: the concurrency N of the USL. */
    public int workers() {
        return clients * threads;
    }

    /** The load level, the same for every routing: {@code 2x8}, or {@code 2x8@4000/s} in an open loop. */
    public String level() {
        return rate == null ? clients + "x" + threads
                : String.format(Locale.ROOT, "%dx%d@%.0f/s", clients, threads, rate);
    }

    /** What the analysis compares at each level: the routing, with the member settings when they were swept. */
    public String series() {
        return members.isEmpty() ? routing : routing + " [" + members + "]";
    }

    @Override
    public String toString() {
        return series() + " " + level();
    }
}
