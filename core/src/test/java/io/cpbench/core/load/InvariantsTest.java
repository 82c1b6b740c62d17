package io.cpbench.core.load;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InvariantsTest {

    @Test
    void counterAllowsUnknownOutcomesButNotLostIncrementsAndCountsDuplicates() {
        assertThat(Invariants.counter("c", 0, 100, 100, 0)).isEqualTo(Invariants.CounterCheck.HOLDS);
        assertThat(Invariants.counter("c", 0, 103, 100, 5)).isEqualTo(Invariants.CounterCheck.HOLDS); // 3 of 5 unknown applied
        Invariants.CounterCheck lost = Invariants.counter("c", 10, 105, 100, 5);
        assertThat(lost.lost()).contains("c lost acknowledged increments").contains("+95");
        assertThat(lost.duplicates()).isZero();
        Invariants.CounterCheck twice = Invariants.counter("c", 0, 106, 100, 5);
        assertThat(twice.lost()).isNull();
        assertThat(twice.duplicates()).isEqualTo(1);
        assertThat(twice.excess()).contains("1 more than the 100 acknowledged plus 5");
    }

    /**
     * Hazelcast's default is at-least-once: a duplicate is named and allowed; with the members' at-most-once setting it
     * is a violation. A lost increment is a violation either way, and is not hidden by a duplicate on another counter.
     */
    @Test
    void duplicatesAreAllowedAtLeastOnceAndAViolationAtMostOnceWhileALostIncrementAlwaysIs() {
        List<Invariants.CounterCheck> dup = List.of(Invariants.counter("a", 0, 50, 50, 0), Invariants.counter("b", 0, 52, 49, 1));
        LoadResult.InvariantResult atLeast = Invariants.counters(dup, 99, 1, false);
        assertThat(atLeast.holds()).as(atLeast.evidence()).isTrue();
        assertThat(atLeast.evidence()).startsWith("2 counters: every acknowledged increment counted (99 acknowledged, 1 with")
                .contains("; 2 duplicate increments, which Hazelcast's at-least-once retry allows (the members'"
                        + " fail-on-indeterminate-operation-state is false")
                .contains("b rose by 52 (from 0 to 52), 2 more than the 49 acknowledged plus 1 unknown");
        LoadResult.InvariantResult atMost = Invariants.counters(dup, 99, 1, true);
        assertThat(atMost.holds()).isFalse();
        assertThat(atMost.evidence()).contains("b rose by 52").contains("applied more than once, though the members fail");

        List<Invariants.CounterCheck> lostAndDup = List.of(Invariants.counter("a", 0, 48, 50, 0), Invariants.counter("b", 0, 52, 50, 0));
        LoadResult.InvariantResult either = Invariants.counters(lostAndDup, 100, 0, false);
        assertThat(either.holds()).isFalse();
        assertThat(either.evidence()).startsWith("a lost acknowledged increments").doesNotContain("b rose");
        assertThat(Invariants.counters(List.of(Invariants.counter("a", 0, 5, 5, 0)), 5, 0, true).evidence())
                .isEqualTo("1 counter: every acknowledged increment counted (5 acknowledged, 0 with unknown outcome)");
    }

    @Test
    void lockHoldsThatDoNotOverlapPass() {
        LockLog a = new LockLog();
        LockLog b = new LockLog();
        a.add(0, 1, 100, 200);
        b.add(0, 2, 200, 300); // starts exactly when the previous unlock was called: allowed
        a.add(0, 3, 400, 500);
        b.add(1, 1, 150, 450); // another lock, overlapping in time with lock 0: fine
        LoadResult.InvariantResult r = Invariants.locks(List.of(a, b), i -> "lock-" + i, 2, 0);
        assertThat(r.holds()).as(r.evidence()).isTrue();
        assertThat(r.evidence()).contains("4 holds of 2 locks");
    }

    @Test
    void overlappingHoldsAndFencesGoingBackAreCaught() {
        LockLog a = new LockLog();
        LockLog b = new LockLog();
        a.add(0, 1, 100, 300);
        b.add(0, 2, 250, 400); // taken before the first was released
        LoadResult.InvariantResult overlap = Invariants.locks(List.of(a, b), i -> "lock-" + i, 1, 0);
        assertThat(overlap.holds()).isFalse();
        assertThat(overlap.evidence()).contains("fence 1").contains("overlaps hold with fence 2");

        LockLog c = new LockLog();
        c.add(0, 7, 100, 200);
        c.add(0, 5, 300, 400);
        LoadResult.InvariantResult back = Invariants.locks(List.of(c), i -> "lock-" + i, 1, 0);
        assertThat(back.holds()).isFalse();
        assertThat(back.evidence()).contains("fence went from 7 to 5");
    }

    @Test
    void aHoldWhoseUnlockFailedIsNotJudged() {
        LockLog a = new LockLog();
        a.add(0, 1, 100, Long.MAX_VALUE);
        a.add(0, 2, 200, 300);
        LoadResult.InvariantResult r = Invariants.locks(List.of(a), i -> "lock-" + i, 1, 0);
        assertThat(r.holds()).isTrue();
        assertThat(r.evidence()).contains("1 hold whose unlock failed not checked");
    }

    /**
     * The evidence in full, so that its numbers are checked: times in seconds since the run's origin, the fences,
     * the lock's name, the counts; holds taken out of log order are sorted by when they were taken.
     */
    @Test
    void theEvidenceNamesTheHoldsAndTheirTimes() {
        LockLog a = new LockLog();
        LockLog b = new LockLog();
        long origin = 1_000_000_000L;
        b.add(1, 2, origin + 2_500_000_000L, origin + 4_000_000_000L); // taken 2.5 s in, before the first was released
        a.add(1, 1, origin + 1_000_000_000L, origin + 3_000_000_000L);
        a.add(0, 9, origin + 5_000_000_000L, origin + 6_000_000_000L); // lock 0: one hold, nothing to compare
        LoadResult.InvariantResult r = Invariants.locks(List.of(a, b), i -> "lock-" + i, 2, origin);
        assertThat(r.holds()).isFalse();
        assertThat(r.evidence()).isEqualTo("1 violation in 3 holds: lock-1: hold with fence 1 (1.000000-3.000000 s)"
                + " overlaps hold with fence 2 (from 2.500000 s)");

        LockLog c = new LockLog();
        c.add(0, 7, origin + 1_000_000_000L, origin + 2_000_000_000L);
        c.add(0, 7, origin + 3_000_000_000L, origin + 4_000_000_000L); // the same fence twice: it must grow
        LoadResult.InvariantResult same = Invariants.locks(List.of(c), i -> "lock-" + i, 1, origin);
        assertThat(same.evidence()).isEqualTo("1 violation in 2 holds: lock-0: fence went from 7 to 7 (hold at 1.000000 s,"
                + " then 3.000000 s)");
    }

    @Test
    void aHoldTakenTheInstantBeforeTheReleaseOverlaps() {
        LockLog a = new LockLog();
        a.add(0, 1, 100, 200);
        a.add(0, 2, 199, 300);
        LoadResult.InvariantResult r = Invariants.locks(List.of(a), i -> "lock-" + i, 1, 0);
        assertThat(r.holds()).isFalse();
        LockLog b = new LockLog();
        b.add(0, 1, 100, 200);
        b.add(0, 2, 200, 300);
        assertThat(Invariants.locks(List.of(b), i -> "lock-" + i, 1, 0).holds()).as("touching is not overlapping").isTrue();
    }

    @Test
    void everyViolationIsCountedButOnlyFiveAreShown() {
        LockLog a = new LockLog();
        for (int i = 0; i < 8; i++) {
            a.add(0, 100 - i, 100L * i, 100L * i + 150); // each overlaps the next, and each fence goes back
        }
        LoadResult.InvariantResult r = Invariants.locks(List.of(a), i -> "lock-" + i, 1, 0);
        assertThat(r.evidence()).startsWith("14 violations in 8 holds: ");
        assertThat(r.evidence().split("; ")).hasSize(5);
        LoadResult.InvariantResult one = Invariants.locks(List.of(), i -> "lock-" + i, 1, 0);
        assertThat(one.evidence()).isEqualTo("0 holds of 1 lock: fences grew and no two holders overlapped");
    }

    @Test
    void unknownReleasesAreCountedInWords() {
        LockLog a = new LockLog();
        a.add(0, 1, 100, Long.MAX_VALUE);
        a.add(0, 2, 200, Long.MAX_VALUE);
        a.add(0, 3, 300, 400);
        LoadResult.InvariantResult r = Invariants.locks(List.of(a), i -> "lock-" + i, 1, 0);
        assertThat(r.evidence()).isEqualTo("3 holds of 1 lock: fences grew and no two holders overlapped; 2 holds whose"
                + " unlock failed not checked against the next");
    }
}
