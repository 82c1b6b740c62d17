package io.cpbench.core.check;

import io.cpbench.core.history.Event;
import io.cpbench.core.history.History;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What a history gives the checker: which ops constrain the register, per key, and how the counterexample names them. */
class RegisterOpTest {

    private static Event done(long p, Event.Type type, String f, String key, Object value, long t, String error) {
        return new Event(p, type, f, key, value, t, error);
    }

    @Test
    void onlyOpsThatConstrainTheRegisterAreKeptAndTheRestAreCounted() {
        List<Event> events = List.of(
                Event.invoke(0, "write", "a", 1L, 0), done(0, Event.Type.OK, "write", "a", 1L, 1, null),
                Event.invoke(1, "incr", "c", 1L, 2), done(1, Event.Type.OK, "incr", "c", 1L, 3, null),   // not a register op
                Event.invoke(2, "read", "a", null, 4), done(2, Event.Type.FAIL, "read", "a", null, 5, "timeout"), // dropped
                Event.invoke(3, "write", "b", 7L, 6), done(3, Event.Type.FAIL, "write", "b", 7L, 7, "no"),    // dropped
                Event.invoke(4, "cas", "a", List.of(1L, 2L), 8), done(4, Event.Type.FAIL, "cas", "a", null, 9, null), // failed on the value: kept
                Event.invoke(5, "cas", "a", List.of(2L, 3L), 10), done(5, Event.Type.FAIL, "cas", "a", null, 11, "err"), // dropped
                done(6, Event.Type.OK, "read", "a", 1L, 12, null),                                         // no invocation: ignored
                Event.invoke(7, "incr", "c", 1L, 13),
                Event.invoke(8, "write", "b", 9L, 14));                                                    // never returned: unknown
        RegisterOp.Split split = RegisterOp.split(events);
        assertThat(split.skipped()).as("two incr invocations").isEqualTo(2);
        assertThat(split.byKey()).containsOnlyKeys("a", "b");
        History h = new History(events, true);
        assertThat(split.byKey().get("a")).extracting(op -> op.describe(h).replaceAll(" +", " ")).containsExactly(
                "p0 write 1 called line 1, returned line 2",
                "p4 cas 1->2 failed called line 9, returned line 10");
        assertThat(split.byKey().get("b")).extracting(op -> op.describe(h).replaceAll(" +", " ")).containsExactly(
                "p8 write 9 (unknown) called line 15, outcome unknown");
        assertThat(split.byKey().get("a")).extracting(RegisterOp::id).containsExactly(0, 1);
    }

    @Test
    void readsAndSucceededCasAreDescribed() {
        List<Event> events = List.of(
                Event.invoke(0, "read", null, null, 0), done(0, Event.Type.OK, "read", null, null, 1, null),
                Event.invoke(1, "cas", null, List.of(5L, 6L), 2), done(1, Event.Type.OK, "cas", null, null, 3_000_000_000L, null),
                Event.invoke(2, "cas", null, List.of(6L, 7L), 4), done(2, Event.Type.INFO, "cas", null, null, 5, "timeout"));
        History h = new History(events, false);
        List<RegisterOp> ops = RegisterOp.split(events).byKey().get("");
        assertThat(ops).extracting(op -> op.describe(h).replaceAll(" +", " ")).containsExactly(
                "p0 read -> nil called 0.000 s, returned 0.000 s",
                "p1 cas 5->6 ok called 0.000 s, returned 3.000 s",
                "p2 cas 6->7 (unknown) called 0.000 s, outcome unknown");
    }
}
