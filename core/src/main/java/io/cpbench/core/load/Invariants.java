package io.cpbench.core.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * The checks a load run makes at the end. Each reads what the run recorded (and, for counters, the final value),
 * never the cluster's internals. An op whose outcome is unknown (it failed, or was still in flight) widens what is
 * allowed; it is never counted as lost.
 */
final class Invariants {

    private static final int MAX_EVIDENCE = 5;

    private Invariants() {
    }

    /** What a counter's check found: lost increments are a violation; duplicates may be allowed (see {@link #counter}). */
    record CounterCheck(String lost, long duplicates, String excess) {

        static final CounterCheck HOLDS = new CounterCheck(null, 0, null);
    }

    /**
     * A counter that only this run increments must have risen by at least the acknowledged increments (else some were
     * lost: always a violation), and by at most those plus the ones with unknown outcome. A rise beyond that is
     * increments applied more often than they were made: duplicates. Hazelcast's default is at-least-once (a member
     * retries a Raft call whose outcome a leader change left unknown, so it can be applied twice and acknowledged
     * once), which allows them; with at most once (the members' fail-on-indeterminate-operation-state true) they are
     * a violation ({@link #counters}).
     */
    static CounterCheck counter(String name, long start, long end, long acked, long unknown) {
        long delta = end - start;
        if (delta < acked) {
            return new CounterCheck(String.format(Locale.ROOT, "%s lost acknowledged increments: it went from %,d to %,d"
                    + " (+%,d), but %,d increments were acknowledged (%,d more with unknown outcome)", name, start, end,
                    delta, acked, unknown), 0, null);
        }
        if (delta > acked + unknown) {
            long duplicates = delta - acked - unknown;
            return new CounterCheck(null, duplicates, String.format(Locale.ROOT, "%s rose by %,d (from %,d to %,d), %,d"
                    + " more than the %,d acknowledged plus %,d unknown increments could make", name, delta, start, end,
                    duplicates, acked, unknown));
        }
        return CounterCheck.HOLDS;
    }

    /**
     * The counter invariant over every counter of a run: violated by a lost increment, and by a duplicate when the
     * members apply ops {@code atMostOnce}; otherwise it holds, and names the duplicates Hazelcast's at-least-once
     * default allowed.
     */
    static LoadResult.InvariantResult counters(List<CounterCheck> checks, long acked, long unknown, boolean atMostOnce) {
        List<String> violations = new ArrayList<>();
        List<String> excess = new ArrayList<>();
        long duplicates = 0;
        for (CounterCheck check : checks) {
            if (check.lost() != null) {
                violations.add(check.lost());
            }
            if (check.excess() != null) {
                duplicates += check.duplicates();
                excess.add(check.excess());
            }
        }
        if (atMostOnce) {
            excess.forEach(e -> violations.add(e + ": applied more than once, though the members fail an op whose outcome"
                    + " is unknown (fail-on-indeterminate-operation-state true: at most once)"));
        }
        if (!violations.isEmpty()) {
            return new LoadResult.InvariantResult("counter", false, String.join("; ", violations));
        }
        String counted = String.format(Locale.ROOT, "%d counter%s: every acknowledged increment counted (%,d acknowledged,"
                + " %,d with unknown outcome)", checks.size(), checks.size() == 1 ? "" : "s", acked, unknown);
        if (duplicates == 0) {
            return new LoadResult.InvariantResult("counter", true, counted);
        }
        return new LoadResult.InvariantResult("counter", true, String.format(Locale.ROOT, "%s; %,d duplicate"
                        + " increment%s, which Hazelcast's at-least-once retry allows (the members'"
                        + " fail-on-indeterminate-operation-state is false, its default: a call whose outcome a leader"
                        + " change left unknown is retried on the next leader and can apply twice; true fails it instead):"
                        + " %s", counted, duplicates, duplicates == 1 ? "" : "s", String.join("; ", excess)));
    }

    /**
     * Fenced-lock holds: per lock, in the order they were taken, fence tokens strictly grow, and no hold starts before
     * the previous one was released. Spans run from {@code lockAndGetFence} returning to {@code unlock} being called,
     * inside the true hold, so an overlap proves two holders at once.
     *
     * @param names  lock names by index
     * @param origin nanoTime of the run's start, for readable times in the evidence
     */
    static LoadResult.InvariantResult locks(List<LockLog> logs, IntFunction<String> names, int lockCount, long origin) {
        // Each log's size is read once: a worker abandoned in an op may still append, and what it adds later is
        // left out rather than read half-written.
        int[] sizes = new int[logs.size()];
        long total = 0;
        long dropped = 0;
        int[] perLock = new int[lockCount];
        for (int g = 0; g < logs.size(); g++) {
            LockLog log = logs.get(g);
            sizes[g] = log.size();
            total += sizes[g];
            dropped += log.dropped();
            for (int i = 0; i < sizes[g]; i++) {
                perLock[log.lock(i)]++;
            }
        }
        long[][] holds = holds(logs, sizes, perLock);
        LockCheck check = new LockCheck(names, origin);
        for (int l = 0; l < lockCount; l++) {
            check.lock(l, holds[l], perLock[l]);
        }
        long violations = check.violations;
        long unknownRelease = check.unknownRelease;
        List<String> evidence = check.evidence;
        String note = (unknownRelease > 0 ? String.format(Locale.ROOT, "; %,d hold%s whose unlock failed not checked against"
                + " the next", unknownRelease, unknownRelease == 1 ? "" : "s") : "")
                + (dropped > 0 ? String.format(Locale.ROOT, "; %,d later holds not recorded (log full)", dropped) : "");
        if (violations == 0) {
            return new LoadResult.InvariantResult("lock", true, String.format(Locale.ROOT,
                    "%,d holds of %d lock%s: fences grew and no two holders overlapped%s", total, lockCount,
                    lockCount == 1 ? "" : "s", note));
        }
        return new LoadResult.InvariantResult("lock", false, String.format(Locale.ROOT, "%,d violation%s in %,d holds: %s%s",
                violations, violations == 1 ? "" : "s", total, String.join("; ", evidence), note));
    }

    /** Per lock, its holds as {held, released, fence} triples, in the logs' order. */
    private static long[][] holds(List<LockLog> logs, int[] sizes, int[] perLock) {
        long[][] holds = new long[perLock.length][];
        for (int l = 0; l < perLock.length; l++) {
            holds[l] = new long[perLock[l] * 3];
        }
        int[] fill = new int[perLock.length];
        for (int g = 0; g < logs.size(); g++) {
            LockLog log = logs.get(g);
            for (int i = 0; i < sizes[g]; i++) {
                int l = log.lock(i);
                int k = fill[l]++;
                holds[l][3 * k] = log.held(i);
                holds[l][3 * k + 1] = log.released(i);
                holds[l][3 * k + 2] = log.fence(i);
            }
        }
        return holds;
    }

    /** One lock's holds in the order they were taken: each must start after the previous release, with a higher fence. */
    private static final class LockCheck {
        private final IntFunction<String> names;
        private final long origin;
        private final List<String> evidence = new ArrayList<>();
        private long violations;
        private long unknownRelease;

        LockCheck(IntFunction<String> names, long origin) {
            this.names = names;
            this.origin = origin;
        }

        void lock(int l, long[] h, int n) {
            Integer[] order = new Integer[n];
            for (int k = 0; k < n; k++) {
                order[k] = k;
            }
            Arrays.sort(order, (a, b) -> Long.compare(h[3 * a], h[3 * b]));
            for (int k = 1; k < n; k++) {
                int prev = order[k - 1];
                int cur = order[k];
                long prevReleased = h[3 * prev + 1];
                if (prevReleased == Long.MAX_VALUE) {
                    unknownRelease++;
                } else if (h[3 * cur] < prevReleased) {
                    found(() -> String.format(Locale.ROOT, "%s: hold with fence %d (%.6f-%.6f s) overlaps hold with"
                                    + " fence %d (from %.6f s)", names.apply(l), h[3 * prev + 2], (h[3 * prev] - origin) / 1e9,
                            (prevReleased - origin) / 1e9, h[3 * cur + 2], (h[3 * cur] - origin) / 1e9));
                }
                if (h[3 * cur + 2] <= h[3 * prev + 2]) {
                    found(() -> String.format(Locale.ROOT, "%s: fence went from %d to %d (hold at %.6f s, then %.6f s)",
                            names.apply(l), h[3 * prev + 2], h[3 * cur + 2], (h[3 * prev] - origin) / 1e9,
                            (h[3 * cur] - origin) / 1e9));
                }
            }
        }

        /** Counts a violation; its text is made only while the evidence has room for it. */
        private void found(java.util.function.Supplier<String> what) {
            violations++;
            if (evidence.size() < MAX_EVIDENCE) {
                evidence.add(what.get());
            }
        }
    }
}
