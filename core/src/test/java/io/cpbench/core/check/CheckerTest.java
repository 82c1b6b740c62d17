package io.cpbench.core.check;

import io.cpbench.core.history.Event;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadResultBuilder;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Checkers compose into one verdict; each says what it saw, and one that cannot decide says UNKNOWN with why. */
class CheckerTest {

    static final long MS = 1_000_000;

    static LoadResult load(Status outcome, List<LoadResult.InvariantResult> invariants, List<LoadResult.ThresholdResult> thresholds) {
        return LoadResultBuilder.builder().outcome(outcome).seconds(6.0).invariants(invariants)
                .thresholds(thresholds).build();
    }

    static final Checker ALL = Checker.all(List.of(Checker.loadEnding(), Checker.invariants(), Checker.thresholds(),
            new Checker.AvailabilityCheck()));

    @Test
    void eachCheckerGivesItsVerdictInOrderAndTheWorstIsTheRunsWithItsEvidence() {
        LoadResult l = load(Status.OK, List.of(new LoadResult.InvariantResult("counter", true, "every one counted"),
                new LoadResult.InvariantResult("lock", false, "two holders at 1.2 s")),
                List.of(new LoadResult.ThresholdResult("cas:p99<1ms", false, "3.1ms")));
        List<Checker.Verdict> verdicts = ALL.check(new Checker.Recorded(List.of(), List.of(), l));
        assertThat(verdicts).containsExactly(
                new Checker.Verdict("load", Status.OK, "ran to its end: 0 ops in 6.0 s"),
                new Checker.Verdict("counter", Status.OK, "every one counted"),
                new Checker.Verdict("lock", Status.FAIL, "VIOLATED: two holders at 1.2 s"),
                new Checker.Verdict("thresholds", Status.BREACHED, "crossed: cas:p99<1ms (was 3.1ms)"),
                new Checker.Verdict("availability", Status.OK, "no fault was injected"));
        // FAIL outranks BREACHED: the broken lock is the reason
        assertThat(Checker.overall(verdicts)).isEqualTo(new Checker.Verdict("run", Status.FAIL, "lock: VIOLATED: two holders at 1.2 s"));
        // all OK: OK with no reason; none at all: OK
        assertThat(Checker.overall(verdicts.subList(0, 2))).isEqualTo(new Checker.Verdict("run", Status.OK, null));
        assertThat(Checker.overall(List.of())).isEqualTo(new Checker.Verdict("run", Status.OK, null));
        // of two of the worst status, the first is the reason
        assertThat(Checker.overall(List.of(new Checker.Verdict("a", Status.UNKNOWN, "x"), new Checker.Verdict("b", Status.UNKNOWN, "y")))
                .evidence()).isEqualTo("a: x");
    }

    @Test
    void withoutALoadTheLoadIsIncompleteAndTheInvariantsUnknownNotHeld() {
        List<Checker.Verdict> verdicts = ALL.check(new Checker.Recorded(List.of(), List.of(), null));
        assertThat(verdicts).containsExactly(
                new Checker.Verdict("load", Status.INCOMPLETE, "the load returned nothing"),
                new Checker.Verdict("invariants", Status.UNKNOWN, "not checked: the load returned nothing"),
                new Checker.Verdict("availability", Status.OK, "no fault was injected"));
    }

    @Test
    void linearizabilityGivesItsVerdictAndKeepsItsWholeResult() {
        // a write of 1 acknowledged, then a read that sees 2, which nobody wrote: not linearizable
        List<Event> events = new ArrayList<>();
        events.add(Event.invoke(0, "write", "r", 1L, 0));
        events.add(new Event(0, Event.Type.OK, "write", "r", 1L, 10 * MS, null));
        events.add(Event.invoke(1, "read", "r", null, 20 * MS));
        events.add(new Event(1, Event.Type.OK, "read", "r", 2L, 30 * MS, null));
        Checker.LinearizabilityCheck check = new Checker.LinearizabilityCheck(Linearizability.Budget.DEFAULT);
        assertThat(check.result()).isNull();
        List<Checker.Verdict> verdicts = check.check(new Checker.Recorded(events, List.of(), null));
        assertThat(verdicts).singleElement().satisfies(v -> {
            assertThat(v.name()).isEqualTo("linearizability");
            assertThat(v.status()).isEqualTo(Status.FAIL);
            assertThat(v.evidence()).startsWith(Linearizability.Verdict.NOT_LINEARIZABLE.text() + " (2 register ops on 1 keys); r: ");
        });
        assertThat(check.result().verdict()).isEqualTo(Linearizability.Verdict.NOT_LINEARIZABLE);
        // a key the search could not decide within its budget: UNKNOWN, and why (the key's own detail)
        Linearizability.Result undecided = new Linearizability.Result(Linearizability.Verdict.UNKNOWN, 2, 0, 2.0,
                List.of(new Linearizability.KeyResult("r", Linearizability.Verdict.UNKNOWN, 2, 1_000, 2.0,
                        "over its share of the time budget (2s)")));
        assertThat(Checker.LinearizabilityCheck.of(undecided)).isEqualTo(new Checker.Verdict("linearizability", Status.UNKNOWN,
                Linearizability.Verdict.UNKNOWN.text() + " (2 register ops on 1 keys); r: over its share of the time budget (2s)"));
    }

    @Test
    void availabilityIsEvidenceNeverAFailure() {
        List<Event> events = new ArrayList<>();
        events.add(Event.invoke(0, "read", "r", null, 0));
        events.add(new Event(0, Event.Type.OK, "read", "r", 1L, 100 * MS, null));
        events.add(Event.invoke(0, "read", "r", null, 300 * MS));
        events.add(new Event(0, Event.Type.OK, "read", "r", 1L, 900 * MS, null));
        List<Checker.Verdict> verdicts = new Checker.AvailabilityCheck().check(new Checker.Recorded(events,
                List.of(new Availability.Window("kill", "member 0", 200 * MS, 400 * MS, 1_000 * MS)), null));
        assertThat(verdicts).containsExactly(new Checker.Verdict("availability", Status.OK,
                "1 fault: first ok after at most 700 ms, longest gap 800 ms"));
    }
}
