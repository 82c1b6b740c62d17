package io.cpbench.core.check;

import io.cpbench.core.history.Event;
import io.cpbench.core.history.History;
import io.cpbench.core.history.HistoryFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static io.cpbench.core.check.Linearizability.Verdict.LINEARIZABLE;
import static io.cpbench.core.check.Linearizability.Verdict.NOT_LINEARIZABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Anomalies planted in a real Hazelcast history: one register of a chaos run (kill-leader, 8 workers, Hazelcast's
 * defaults), as {@code cpbench chaos} wrote it in Jepsen's format. Each plant is placed where nothing else could
 * explain it (no other op that writes the value involved overlaps it), so the planted history is certainly not
 * linearizable, and the checker must say so.
 */
class PlantedAnomaliesTest {

    private static final Linearizability.Budget BUDGET = new Linearizability.Budget(Duration.ofSeconds(30), 1L << 29);
    private static List<Event> real;
    /** Each op of the real history: its invocation and completion indices. */
    private static List<int[]> ops;

    @BeforeAll
    static void read() throws Exception {
        Path file = Path.of(Objects.requireNonNull(PlantedAnomaliesTest.class.getResource(
                "/histories/hazelcast/kill-leader-default.log")).toURI());
        real = HistoryFiles.read(file).events();
        ops = new ArrayList<>();
        Map<Long, Integer> open = new HashMap<>();
        for (int i = 0; i < real.size(); i++) {
            Event e = real.get(i);
            if (e.type() == Event.Type.INVOKE) {
                open.put(e.process(), i);
            } else {
                ops.add(new int[]{open.remove(e.process()), i});
            }
        }
    }

    @Test
    void theRealHistoryIsLinearizable() {
        Linearizability.Result r = check(real);
        assertEquals(LINEARIZABLE, r.verdict());
        assertTrue(r.ops() > 1000, "ops: " + r.ops());
    }

    /** A read that returns the value of a write that a later, completed write had already replaced. */
    @Test
    void aStaleReadIsCaught() {
        for (int[] w2 : ops) {
            Event write2 = real.get(w2[1]);
            if (!write2.f().equals("write") || write2.type() != Event.Type.OK) {
                continue;
            }
            // the ok write before w2 that completed before w2 began
            int[] w1 = lastWriteBefore(w2[0]);
            if (w1 == null || real.get(w1[0]).value().equals(write2.value())) {
                continue;
            }
            long stale = (Long) real.get(w1[0]).value();
            for (int[] r : ops) {
                Event read = real.get(r[1]);
                if (r[0] > w2[1] && read.f().equals("read") && read.type() == Event.Type.OK
                        && !writesOverlap(stale, w1[1] + 1, r[1], w1)) {
                    List<Event> planted = new ArrayList<>(real);
                    planted.set(r[1], new Event(read.process(), Event.Type.OK, "read", read.key(), stale, read.time(), null));
                    Linearizability.Result result = check(planted);
                    assertEquals(NOT_LINEARIZABLE, result.verdict());
                    String detail = result.firstProblem().detail();
                    assertTrue(detail.contains("read -> " + stale), detail);
                    System.out.println("planted stale read, line " + (r[1] + 1) + ":\n" + detail);
                    return;
                }
                if (r[0] > w2[1] + 200) {
                    break;
                }
            }
        }
        throw new AssertionError("no place for a stale read found");
    }

    /** An acknowledged write that a read right after it does not see. */
    @Test
    void aLostWriteIsCaught() {
        for (int[] r : ops) {
            Event read = real.get(r[1]);
            if (!read.f().equals("read") || read.type() != Event.Type.OK || r[0] < 10) {
                continue;
            }
            // the read sees v; plant an acknowledged write of 9 (a value no op writes) that ends before it begins
            List<Event> planted = new ArrayList<>(real);
            Event invoke = Event.invoke(1_000_000, "write", read.key(), 9L, 0);
            Event ok = new Event(1_000_000, Event.Type.OK, "write", read.key(), 9L, 0, null);
            planted.add(r[0], ok);
            planted.add(r[0], invoke);
            Linearizability.Result result = check(retime(planted));
            if (!writesOverlap(read.value() == null ? Long.MIN_VALUE : (Long) read.value(), r[0] - 1, r[1], null)) {
                assertEquals(NOT_LINEARIZABLE, result.verdict());
                System.out.println("planted lost write, before line " + (r[0] + 1) + ":\n" + result.firstProblem().detail());
                return;
            }
        }
        throw new AssertionError("no place for a lost write found");
    }

    /**
     * A cas applied twice, as a client's retry after a lost leader can do: it took effect (later reads see its new
     * value) but the retry found the register changed and reported failure.
     */
    @Test
    void aDuplicatedCasIsCaught() {
        for (int[] c : ops) {
            Event cas = real.get(c[1]);
            if (!cas.f().equals("cas") || cas.type() != Event.Type.OK) {
                continue;
            }
            long to = cas.pair().get(1);
            long from = cas.pair().get(0);
            if (from == to) {
                continue;
            }
            // a read after the cas that sees its value, and no other op that writes that value around
            for (int[] r : ops) {
                Event read = real.get(r[1]);
                if (r[0] > c[1] && read.f().equals("read") && read.type() == Event.Type.OK && Long.valueOf(to).equals(read.value())
                        && !writesOverlap(to, c[0], r[1], c)) {
                    List<Event> planted = new ArrayList<>(real);
                    planted.set(c[1], new Event(cas.process(), Event.Type.FAIL, "cas", cas.key(), cas.value(), cas.time(), null));
                    Linearizability.Result result = check(planted);
                    assertEquals(NOT_LINEARIZABLE, result.verdict());
                    System.out.println("planted duplicated cas, line " + (c[1] + 1) + ":\n" + result.firstProblem().detail());
                    return;
                }
                if (r[0] > c[1] + 50) {
                    break;
                }
            }
        }
        throw new AssertionError("no place for a duplicated cas found");
    }

    private static int[] lastWriteBefore(int index) {
        int[] best = null;
        for (int[] op : ops) {
            Event done = real.get(op[1]);
            if (op[1] < index && done.f().equals("write") && done.type() == Event.Type.OK && (best == null || op[1] > best[1])) {
                best = op;
            }
        }
        return best;
    }

    /** Whether an op other than {@code except} that may write {@code value} overlaps lines {@code from}..{@code to}. */
    private static boolean writesOverlap(long value, int from, int to, int[] except) {
        for (int[] op : ops) {
            if (op == except) {
                continue;
            }
            Event invoke = real.get(op[0]);
            Event done = real.get(op[1]);
            long end = done.type() == Event.Type.INFO ? Long.MAX_VALUE : op[1];
            if (op[0] > to || end < from) {
                continue;
            }
            boolean writes = invoke.f().equals("write") && Long.valueOf(value).equals(invoke.value())
                    || invoke.f().equals("cas") && invoke.pair().get(1) == value;
            if (writes) {
                return true;
            }
        }
        return false;
    }

    private static List<Event> retime(List<Event> events) {
        List<Event> out = new ArrayList<>(events.size());
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            out.add(new Event(e.process(), e.type(), e.f(), e.key(), e.value(), i, e.error()));
        }
        return out;
    }

    private static Linearizability.Result check(List<Event> events) {
        Linearizability.Result r = Linearizability.check(new History(events, true), BUDGET);
        assertNotNull(r);
        return r;
    }
}
