package io.cpbench.core.check;

import io.cpbench.core.history.Event;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Availability read from hand-made histories whose gaps are known to the millisecond. */
class AvailabilityTest {

    static final long MS = 1_000_000;

    final List<Event> events = new ArrayList<>();

    /** An op of process p from {@code from} to {@code to} ms that ends with {@code type} (error for fail/info). */
    void op(long p, long from, long to, Event.Type type, String error) {
        events.add(Event.invoke(p, "read", "r", null, from * MS));
        events.add(new Event(p, type, "read", "r", type == Event.Type.OK ? 1L : null, to * MS, error));
    }

    @Test
    void firstOkCountsOnlyOpsInvokedAfterTheInjectionAndTheLongestGapAnyCompletion() {
        op(0, 0, 100, Event.Type.OK, null);
        op(1, 50, 150, Event.Type.OK, null);        // last success before the fault at 200 ms
        op(0, 150, 900, Event.Type.OK, null);       // invoked before the fault, succeeds after it: not "first ok"
        op(1, 160, 400, Event.Type.INFO, "IndeterminateOperationStateException");
        op(1, 400, 1_000, Event.Type.OK, null);     // the first success of an op invoked after the fault
        op(0, 900, 2_500, Event.Type.OK, null);     // the longest gap: 1,000 -> 2,500
        events.sort((a, b) -> Long.compare(a.time(), b.time()));

        Availability.Result r = Availability.of(events,
                List.of(new Availability.Window("kill", "member 0", 200 * MS, 300 * MS, 3_000 * MS))).get(0);

        assertThat(r.firstOkMs()).isEqualTo(800.0);         // 200 -> 1,000
        assertThat(r.longestGapMs()).isEqualTo(1_500.0);
        assertThat(r.gapOpen()).isFalse();
        assertThat(r.okOps()).isEqualTo(3);
        assertThat(r.healedAfterMs()).isEqualTo(100.0);
        assertThat(r.errors()).containsExactlyEntriesOf(java.util.Map.of("info IndeterminateOperationStateException", 1L));
    }

    @Test
    void nothingSucceedingAfterTheFaultLeavesFirstOkUnknownAndTheGapOpen() {
        op(0, 0, 100, Event.Type.OK, null);
        op(0, 100, 5_000, Event.Type.INFO, "OperationTimeoutException");

        Availability.Result r = Availability.of(events,
                List.of(new Availability.Window("pause", "member 1", 1_000 * MS, Long.MAX_VALUE, 6_000 * MS))).get(0);

        assertThat(r.firstOkMs()).isNull();
        assertThat(r.gapOpen()).isTrue();
        assertThat(r.longestGapMs()).isEqualTo(5_900.0);
        assertThat(Double.isNaN(r.healedAfterMs())).isTrue();
    }

    @Test
    void theSummaryGivesMediansAndMaximaAndCountsFaultsNeverRecovered() {
        List<Availability.Result> results = List.of(result(300.0, 400), result(900.0, 950), result(500.0, 8_000),
                result(null, 20_000), result(700.0, 700));

        Availability.Summary s = Availability.Summary.of(results);

        assertThat(s.faults()).isEqualTo(5);
        assertThat(s.firstOkP50Ms()).isEqualTo(600.0);      // of 300, 500, 700, 900
        assertThat(s.firstOkMaxMs()).isEqualTo(900.0);
        assertThat(s.longestGapP50Ms()).isEqualTo(950.0);   // of 400, 700, 950, 8,000, 20,000
        assertThat(s.longestGapMaxMs()).isEqualTo(20_000.0);
        assertThat(s.neverRecovered()).isEqualTo(1);
        assertThat(Availability.Summary.of(List.of(result(null, 1))).firstOkP50Ms()).isNull();
    }

    static Availability.Result result(Double firstOk, double gap) {
        return AvailabilityResultBuilder.builder().fault("kill").target("m").firstOkMs(firstOk).longestGapMs(gap)
                .okOps(1).errors(java.util.Map.of()).build();
    }

    /**
     * Events exactly on the window's edges: an op invoked at the injection counts for "first ok", a completion at the
     * injection opens the window's count, one at its end is outside it, a failure at the injection counts and one at
     * the end does not, and a final gap exactly as long as the longest is not an open one.
     */
    @Test
    void eventsOnTheEdgesOfTheWindow() {
        op(1, 500, 1_000, Event.Type.OK, null);      // completes at the injection
        op(0, 1_000, 1_100, Event.Type.OK, null);    // invoked at the injection: the first ok, 100 ms in
        op(0, 1_100, 2_000, Event.Type.OK, null);
        op(2, 1_000, 2_900, Event.Type.OK, null);    // completes at the window's end: outside it
        op(3, 900, 1_000, Event.Type.FAIL, "X");     // fails at the injection: counted
        op(3, 1_000, 2_900, Event.Type.FAIL, "Y");   // fails at the end: not
        events.sort((a, b) -> Long.compare(a.time(), b.time()));

        Availability.Result r = Availability.of(events,
                List.of(new Availability.Window("kill", "member 0", 1_000 * MS, 1_200 * MS, 2_900 * MS))).get(0);

        assertThat(r.firstOkMs()).isEqualTo(100.0);
        assertThat(r.okOps()).isEqualTo(3);
        assertThat(r.longestGapMs()).isEqualTo(900.0); // 1,100 -> 2,000, and 2,000 -> the end at 2,900
        assertThat(r.gapOpen()).isFalse();
        assertThat(r.errors()).containsExactlyEntriesOf(java.util.Map.of("fail X", 1L));
        assertThat(r.healedAfterMs()).isEqualTo(200.0);
        assertThat(r.injectedAtS()).isEqualTo(1.0);
    }

    /** A fail with no error is an op that completed (a compare-and-set that did not apply), not a failure. */
    @Test
    void aFailWithoutAnErrorIsACompletion() {
        op(0, 0, 1_500, Event.Type.FAIL, null);
        op(1, 0, 1_800, Event.Type.OK, null);
        Availability.Result r = Availability.of(events,
                List.of(new Availability.Window("kill", "member 0", 1_000 * MS, 1_100 * MS, 2_000 * MS))).get(0);
        assertThat(r.okOps()).isEqualTo(2);
        assertThat(r.errors()).isEmpty();
        assertThat(r.longestGapMs()).isEqualTo(500.0); // the injection -> 1,500
        assertThat(r.firstOkMs()).as("both were invoked before the fault").isNull();
    }
}
