package io.cpbench.core.check;

import io.cpbench.core.history.Event;
import io.cpbench.core.history.History;
import io.cpbench.core.history.HistoryFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Objects;

import static io.cpbench.core.check.Linearizability.Verdict.LINEARIZABLE;
import static io.cpbench.core.check.Linearizability.Verdict.NOT_LINEARIZABLE;
import static io.cpbench.core.check.Linearizability.Verdict.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LinearizabilityTest {

    private static final Linearizability.Budget BUDGET = new Linearizability.Budget(Duration.ofSeconds(30), 1L << 29);

    static Path etcd() throws URISyntaxException {
        return Path.of(Objects.requireNonNull(LinearizabilityTest.class.getResource("/histories/jepsen-etcd/verdicts.tsv"))
                .toURI()).getParent();
    }

    @Test
    void everyEtcdVerdictMatchesPorcupines() throws Exception {
        List<String> lines = Files.readAllLines(etcd().resolve("verdicts.tsv"));
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        int linearizable = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            boolean expected = Boolean.parseBoolean(f[1]);
            Linearizability.Result r = Linearizability.check(HistoryFiles.read(etcd().resolve(f[0])), BUDGET);
            checked++;
            if (expected) {
                linearizable++;
            }
            if (r.verdict() != (expected ? LINEARIZABLE : NOT_LINEARIZABLE)) {
                wrong.add(f[0] + ": expected " + (expected ? "linearizable" : "not linearizable") + ", got "
                        + r.verdict().text());
            }
        }
        assertEquals(52, checked);
        assertEquals(11, linearizable);
        assertEquals(List.of(), wrong);
    }

    @Test
    void aStaleReadIsCaughtAndShownWithTheOpsAroundIt() {
        // write 1 completes, then write 2 completes, then a read returns 1
        History h = new History(List.of(
                Event.invoke(0, "write", null, 1L, 0), ok(0, "write", 1L, 1),
                Event.invoke(1, "write", null, 2L, 2), ok(1, "write", 2L, 3),
                Event.invoke(2, "read", null, null, 4), ok(2, "read", 1L, 5)), true);
        Linearizability.Result r = Linearizability.check(h, BUDGET);
        assertEquals(NOT_LINEARIZABLE, r.verdict());
        String detail = r.firstProblem().detail();
        assertTrue(detail.contains("2 of 3 ops linearize"), detail);
        assertTrue(detail.contains("register then holds 2"), detail);
        assertTrue(detail.contains("> p2    read -> 1"), detail);
    }

    @Test
    void concurrentOpsMayTakeEitherOrder() {
        // the read overlaps write 2, so it may see 1 or 2
        History h = new History(List.of(
                Event.invoke(0, "write", null, 1L, 0), ok(0, "write", 1L, 1),
                Event.invoke(1, "write", null, 2L, 2), Event.invoke(2, "read", null, null, 3),
                ok(2, "read", 1L, 4), ok(1, "write", 2L, 5)), true);
        assertEquals(LINEARIZABLE, Linearizability.check(h, BUDGET).verdict());
    }

    @Test
    void anUnknownWriteMayHaveHappenedOrNot() {
        List<Event> base = List.of(Event.invoke(0, "write", null, 1L, 0), ok(0, "write", 1L, 1),
                Event.invoke(1, "write", null, 2L, 2), new Event(1, Event.Type.INFO, "write", null, 2L, 3, "timed-out"));
        List<Event> seen = new ArrayList<>(base);
        seen.addAll(List.of(Event.invoke(2, "read", null, null, 10), ok(2, "read", 2L, 11)));
        List<Event> notSeen = new ArrayList<>(base);
        notSeen.addAll(List.of(Event.invoke(2, "read", null, null, 10), ok(2, "read", 1L, 11)));
        assertEquals(LINEARIZABLE, Linearizability.check(new History(seen, true), BUDGET).verdict());
        assertEquals(LINEARIZABLE, Linearizability.check(new History(notSeen, true), BUDGET).verdict());
        // but it cannot take effect twice: 1, 2, 1 read back would need write 1 again
        List<Event> twice = new ArrayList<>(seen);
        twice.addAll(List.of(Event.invoke(3, "read", null, null, 12), ok(3, "read", 1L, 13)));
        assertEquals(NOT_LINEARIZABLE, Linearizability.check(new History(twice, true), BUDGET).verdict());
    }

    @Test
    void aFailedCasSaysTheRegisterHeldSomethingElse() {
        List<Event> events = List.of(Event.invoke(0, "write", null, 1L, 0), ok(0, "write", 1L, 1),
                Event.invoke(1, "cas", null, List.of(1L, 3L), 2),
                new Event(1, Event.Type.FAIL, "cas", null, List.of(1L, 3L), 3, null));
        assertEquals(NOT_LINEARIZABLE, Linearizability.check(new History(events, true), BUDGET).verdict());
        // a fail with an error did not take effect, and says nothing about the value
        List<Event> errored = List.of(events.get(0), events.get(1), events.get(2),
                new Event(1, Event.Type.FAIL, "cas", null, List.of(1L, 3L), 3, "offline"));
        assertEquals(LINEARIZABLE, Linearizability.check(new History(errored, true), BUDGET).verdict());
    }

    @Test
    void keysAreCheckedApartAndTheWorstVerdictWins() {
        List<Event> events = List.of(
                Event.invoke(0, "write", "a", 1L, 0), ok(0, "write", "a", 1L, 1),
                Event.invoke(1, "read", "b", null, 2), ok(1, "read", "b", 1L, 3), // b was never written
                Event.invoke(2, "read", "a", null, 4), ok(2, "read", "a", 1L, 5));
        Linearizability.Result r = Linearizability.check(new History(events, false), BUDGET);
        assertEquals(NOT_LINEARIZABLE, r.verdict());
        assertEquals(List.of("a", "b"), r.keys().stream().map(Linearizability.KeyResult::key).toList());
        assertEquals(LINEARIZABLE, r.keys().get(0).verdict());
        assertEquals("b", r.firstProblem().key());
    }

    @Test
    void overTheBudgetIsUnknownAndSaysWhichBudget() throws Exception {
        Path hardest = etcd().resolve("etcd_002.log");
        Linearizability.Result r = Linearizability.check(HistoryFiles.read(hardest),
                new Linearizability.Budget(Duration.ofSeconds(30), 1024));
        assertEquals(UNKNOWN, r.verdict());
        assertTrue(r.firstProblem().detail().contains("memo full"), r.firstProblem().detail());
    }

    /**
     * A key the search cannot decide in any sensible time: {@code writers} writes of distinct values, all concurrent,
     * then a read of a value none wrote. Every order of the writes must be tried before "not linearizable", and the
     * memo holds a configuration per set of writes linearized and last value.
     */
    static List<Event> undecidable(String key, int writers, long from) {
        List<Event> events = new ArrayList<>();
        for (int p = 0; p < writers; p++) {
            events.add(Event.invoke(p, "write", key, (long) p + 1, from + p));
        }
        for (int p = 0; p < writers; p++) {
            events.add(ok(p, "write", key, (long) p + 1, from + writers + p));
        }
        events.add(Event.invoke(writers, "read", key, null, from + 2L * writers));
        events.add(ok(writers, "read", key, -1L, from + 2L * writers + 1));
        return events;
    }

    /** A key with a stale read after {@code steps} sequential writes and reads: clearly not linearizable, but only
     * after more search steps than the search takes between looks at the clock. */
    static List<Event> longThenStale(String key, int steps, long process, long from) {
        List<Event> events = new ArrayList<>();
        long t = from;
        for (int i = 1; i <= steps; i++) {
            events.add(Event.invoke(process, "write", key, (long) i, t++));
            events.add(ok(process, "write", key, (long) i, t++));
            events.add(Event.invoke(process, "read", key, null, t++));
            events.add(ok(process, "read", key, (long) i, t++));
        }
        events.add(Event.invoke(process, "read", key, null, t++));
        events.add(ok(process, "read", key, 1L, t)); // stale: the register holds the last write
        return events;
    }

    @Test
    void aKeyThatCannotBeDecidedInTimeLeavesTheOthersTheirShare() {
        List<Event> events = new ArrayList<>(undecidable("hard", 40, 0));
        events.addAll(longThenStale("clear", 5_000, 100, 1_000));
        // the budget's clock is the search's own steps: a look at it every 4,096 steps advances it 4 ms, so each of
        // the two keys' 1 s share is 250 looks (about a million steps), on a fast machine or a busy one alike
        AtomicLong ticks = new AtomicLong();
        Linearizability.Result r = Linearizability.check(new History(events, false),
                new Linearizability.Budget(Duration.ofSeconds(2), 1L << 30), () -> ticks.getAndAdd(4_000_000L));
        assertEquals(List.of("hard", "clear"), r.keys().stream().map(Linearizability.KeyResult::key).toList());
        assertEquals(UNKNOWN, r.keys().get(0).verdict(), r.keys().get(0).detail());
        assertTrue(r.keys().get(0).detail().contains("out of time (this key's share"), r.keys().get(0).detail());
        assertEquals(NOT_LINEARIZABLE, r.keys().get(1).verdict(), String.valueOf(r.keys().get(1).detail()));
        assertEquals(NOT_LINEARIZABLE, r.verdict());
    }

    @Test
    void runningTheJvmOutOfHeapIsUnknownNeverNotLinearizable() throws Exception {
        // in a JVM of 64 MiB, with a memo budget far over it: the search fills the heap before its own budget stops
        // it. The first key is unknown (out of heap); the second is still decided, once the first's memo is gone.
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), OutOfHeap.class.getName())
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "the check in a small heap did not end");
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("hard: unknown: the JVM ran out of heap"), out);
        assertTrue(out.contains("clear: not linearizable"), out);
        assertTrue(out.contains("verdict: not linearizable"), out);
    }

    /** What {@link #runningTheJvmOutOfHeapIsUnknownNeverNotLinearizable} runs in a small heap. */
    public static final class OutOfHeap {
        public static void main(String[] args) {
            List<Event> events = new ArrayList<>(undecidable("hard", 60, 0));
            events.addAll(longThenStale("clear", 100, 100, 1_000));
            Linearizability.Result r = Linearizability.check(new History(events, false),
                    new Linearizability.Budget(Duration.ofMinutes(1), 1L << 40));
            for (Linearizability.KeyResult k : r.keys()) {
                System.out.println(k.key() + ": " + k.verdict().text() + ": " + k.detail());
            }
            System.out.println("verdict: " + r.verdict().text());
        }
    }

    /**
     * The memo is what keeps this quick: 12 concurrent writes then an impossible read has 2^12 configurations to
     * try with it and 12! orders without. With the budget's clock advanced 4 ms a look (a look every 4,096 steps),
     * 2 s are 2 million steps: enough with the memo, far too few without.
     */
    @Test
    void theMemoKeepsASearchOfManyConcurrentWritesWithinItsSteps() {
        AtomicLong ticks = new AtomicLong();
        Linearizability.Result r = Linearizability.check(new History(undecidable("k", 12, 0), false),
                new Linearizability.Budget(Duration.ofSeconds(2), 1L << 30), () -> ticks.getAndAdd(4_000_000L));
        assertEquals(NOT_LINEARIZABLE, r.verdict(), String.valueOf(r.firstProblem() == null ? null : r.firstProblem().detail()));
        // each subset of the writes, with the register holding one of its values: at most 12 x 2^12
        assertTrue(r.keys().get(0).configurations() <= 12 * (1 << 12), "configurations: " + r.keys().get(0).configurations());
    }

    /** The counterexample, whole: which ops linearized (the last four of more), what the register held, who was stuck. */
    @Test
    void theCounterexampleNamesTheLastOpsAndTheStuckOne() {
        List<Event> events = new ArrayList<>();
        long t = 0;
        for (long v = 1; v <= 5; v++) {
            events.add(Event.invoke(0, "write", null, v, t++));
            events.add(ok(0, "write", v, t++));
        }
        events.add(Event.invoke(1, "read", null, null, t++));
        events.add(ok(1, "read", 2L, t));
        Linearizability.Result r = Linearizability.check(new History(events, true), BUDGET);
        assertEquals(NOT_LINEARIZABLE, r.verdict());
        String detail = r.firstProblem().detail();
        assertTrue(detail.startsWith("key (the register): 5 of 6 ops linearize; no order exists before "), detail);
        assertTrue(detail.contains("(the return of p1's read)\n  last linearized, in order:\n"), detail);
        assertEquals(4, detail.lines().filter(l -> l.startsWith("    p0    write ")).count(), detail);
        assertTrue(detail.contains("  register then holds 5\n  ops called by then, none of which can go next:\n  > p1    read -> 2"), detail);
        assertEquals(6, r.keys().get(0).ops());

        Linearizability.Result none = Linearizability.check(new History(List.of(Event.invoke(0, "read", null, null, 0),
                ok(0, "read", 7L, 1)), true), BUDGET);
        String nothing = none.firstProblem().detail();
        assertTrue(nothing.contains("0 of 1 ops linearize") && nothing.contains("  linearized, in order:\n    (none: the register is still nil)"), nothing);
    }

    private static Event ok(long process, String f, Object value, long time) {
        return new Event(process, Event.Type.OK, f, null, value, time, null);
    }

    private static Event ok(long process, String f, String key, Object value, long time) {
        return new Event(process, Event.Type.OK, f, key, value, time, null);
    }
}
