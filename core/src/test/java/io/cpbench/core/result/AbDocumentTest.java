package io.cpbench.core.result;

import io.cpbench.core.status.Status;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** An ab run's one verdict: FAIL for a regression, also read from files written when a regression said OK. */
class AbDocumentTest {

    static Comparison.Result result(Comparison.Verdict verdict) {
        return new Comparison.Result(List.of(new Comparison.Row("client-leader", "all", 5, 5, Map.of(), verdict, null, Set.of())),
                0.05, Set.of(Comparison.Metric.OPS));
    }

    static AbDocument doc(Status status, String reason, Comparison.Result result) {
        return new AbDocument(AbDocument.FORMAT, "client-leader", status, reason, 5, 5, false, List.of(), null, result);
    }

    @Test
    void aRegressionIsTheRunsFailureNotItsNumbers() {
        AbDocument regression = doc(Status.FAIL, "REGRESSION: 1 of 1 rows slower", result(Comparison.Verdict.SLOWER));
        assertThat(regression.verdict()).isEqualTo(Status.FAIL);
        assertThat(regression.measured()).isEqualTo(Status.OK);
        // written before a regression was FAIL: the verdict is still FAIL
        AbDocument older = doc(Status.OK, null, result(Comparison.Verdict.SLOWER));
        assertThat(older.verdict()).isEqualTo(Status.FAIL);
        assertThat(older.measured()).isEqualTo(Status.OK);
        // a run that broke is FAIL in both; one that was stopped is INCOMPLETE in both
        AbDocument broke = doc(Status.FAIL, "a client process exited", null);
        assertThat(broke.verdict()).isEqualTo(Status.FAIL);
        assertThat(broke.measured()).isEqualTo(Status.FAIL);
        AbDocument stopped = doc(Status.INCOMPLETE, "interrupted after 3 pairs", result(Comparison.Verdict.SLOWER));
        assertThat(stopped.verdict()).isEqualTo(Status.INCOMPLETE);
        assertThat(stopped.measured()).isEqualTo(Status.INCOMPLETE);
        AbDocument same = doc(Status.OK, null, result(Comparison.Verdict.NO_CHANGE));
        assertThat(same.verdict()).isEqualTo(Status.OK);
        assertThat(same.measured()).isEqualTo(Status.OK);
    }
}
