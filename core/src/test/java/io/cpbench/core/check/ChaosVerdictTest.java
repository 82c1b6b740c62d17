package io.cpbench.core.check;

import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadResultBuilder;
import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cpbench.core.check.Linearizability.Verdict.LINEARIZABLE;
import static io.cpbench.core.check.Linearizability.Verdict.NOT_LINEARIZABLE;
import static io.cpbench.core.check.Linearizability.Verdict.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

/** A chaos run's one verdict: the worst of its load's ending, its invariants and its linearizability check. */
class ChaosVerdictTest {

    static final LoadResult.InvariantResult HOLDS = new LoadResult.InvariantResult("counter", true, "every one counted");
    static final LoadResult.InvariantResult BROKEN = new LoadResult.InvariantResult("counter", false, "1 acknowledged increment lost");

    static LoadResult load(Status outcome, String reason, LoadResult.InvariantResult... invariants) {
        return LoadResultBuilder.builder().outcome(outcome).reason(reason).invariants(List.of(invariants)).build();
    }

    static ChaosDocument.Check check(Linearizability.Verdict verdict) {
        return new ChaosDocument.Check(verdict, null, 10, 0.1, List.of());
    }

    @Test
    void eachPartCanDecideTheVerdict() {
        assertThat(ChaosDocument.verdictOf(load(Status.OK, null, HOLDS), check(LINEARIZABLE)))
                .isEqualTo(new ChaosDocument.Verdict(Status.OK, null));
        // the invariant alone: the bug the history once hid (linearizable, load OK, counter broken)
        assertThat(ChaosDocument.verdictOf(load(Status.OK, null, HOLDS, BROKEN), check(LINEARIZABLE)))
                .isEqualTo(new ChaosDocument.Verdict(Status.FAIL, "counter: VIOLATED: 1 acknowledged increment lost"));
        assertThat(ChaosDocument.verdictOf(load(Status.OK, null, HOLDS), check(NOT_LINEARIZABLE)))
                .isEqualTo(new ChaosDocument.Verdict(Status.FAIL, "linearizability: " + NOT_LINEARIZABLE.text()));
        assertThat(ChaosDocument.verdictOf(load(Status.OK, null, HOLDS), check(UNKNOWN)).status()).isEqualTo(Status.UNKNOWN);
        assertThat(ChaosDocument.verdictOf(load(Status.INCOMPLETE, "agent-2 lost", HOLDS), check(LINEARIZABLE)))
                .isEqualTo(new ChaosDocument.Verdict(Status.INCOMPLETE, "load: agent-2 lost"));
        assertThat(ChaosDocument.verdictOf(load(Status.FAIL, "ops kept failing", HOLDS), check(UNKNOWN)))
                .isEqualTo(new ChaosDocument.Verdict(Status.FAIL, "load: ops kept failing"));
        assertThat(ChaosDocument.verdictOf(null, null))
                .isEqualTo(new ChaosDocument.Verdict(Status.INCOMPLETE, "load: the load returned nothing"));
        assertThat(ChaosDocument.verdictOf(load(Status.OK, null), null))
                .isEqualTo(new ChaosDocument.Verdict(Status.UNKNOWN, "linearizability: not checked"));
    }

    @Test
    void aWorsePartWinsWhateverItsOrder() {
        // a broken invariant outranks an unknown check; a failed load keeps its own reason over a broken invariant
        assertThat(ChaosDocument.verdictOf(load(Status.OK, null, BROKEN), check(UNKNOWN)).status()).isEqualTo(Status.FAIL);
        assertThat(ChaosDocument.verdictOf(load(Status.INCOMPLETE, "stopped", BROKEN), check(LINEARIZABLE)).status())
                .isEqualTo(Status.FAIL);
        assertThat(ChaosDocument.verdictOf(load(Status.FAIL, "ops kept failing", BROKEN), check(LINEARIZABLE)).reason())
                .isEqualTo("load: ops kept failing");
    }

    @Test
    void aFileWrittenBeforeTheStatusWasKeptWorksItOut() {
        ChaosDocument old = ChaosDocumentBuilder.builder().load(load(Status.OK, null, BROKEN)).linearizability(check(LINEARIZABLE))
                .build();
        assertThat(old.verdict().status()).isEqualTo(Status.FAIL);
        ChaosDocument written = ChaosDocumentBuilder.builder().load(load(Status.OK, null, BROKEN))
                .linearizability(check(LINEARIZABLE)).status(Status.INCOMPLETE).reason("as written").build();
        assertThat(written.verdict()).isEqualTo(new ChaosDocument.Verdict(Status.INCOMPLETE, "as written"));
    }
}
