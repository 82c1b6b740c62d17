package io.cpbench.core.load;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InvariantsTest {

    @Test
    void counterAllowsUnknownOutcomesButNotLostOrInventedIncrements() {
        assertThat(Invariants.counter("c", 0, 100, 100, 0)).isNull();
        assertThat(Invariants.counter("c", 0, 103, 100, 5)).isNull(); // 3 of the 5 unknown ones were applied
        assertThat(Invariants.counter("c", 10, 105, 100, 5)).contains("c lost acknowledged increments").contains("+95");
        assertThat(Invariants.counter("c", 0, 106, 100, 5)).contains("more than the 100 acknowledged plus 5");
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
}
