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

    /** {@code doc}'s run verdict and how its pairs were measured. */
    static void reads(AbDocument doc, Status verdict, Status measured) {
        assertThat(doc.verdict()).as("verdict of " + doc.status() + ", " + doc.reason()).isEqualTo(verdict);
        assertThat(doc.measured()).as("measured of " + doc.status() + ", " + doc.reason()).isEqualTo(measured);
    }

    @Test
    void aRegressionIsTheRunsFailureNotItsNumbers() {
        reads(doc(Status.FAIL, "REGRESSION: 1 of 1 rows slower", result(Comparison.Verdict.SLOWER)), Status.FAIL, Status.OK);
        // written before a regression was FAIL: the verdict is still FAIL
        reads(doc(Status.OK, null, result(Comparison.Verdict.SLOWER)), Status.FAIL, Status.OK);
        // a run that broke is FAIL in both; one that was stopped is INCOMPLETE in both
        reads(doc(Status.FAIL, "a client process exited", null), Status.FAIL, Status.FAIL);
        reads(doc(Status.INCOMPLETE, "interrupted after 3 pairs", result(Comparison.Verdict.SLOWER)), Status.INCOMPLETE,
                Status.INCOMPLETE);
        reads(doc(Status.OK, null, result(Comparison.Verdict.NO_CHANGE)), Status.OK, Status.OK);
    }
}
