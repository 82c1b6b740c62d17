package io.cpbench.core.status;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import io.cpbench.core.check.ChaosDocument;
import io.cpbench.core.check.Linearizability;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.sweep.SweepDocument;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One vocabulary, one severity order, one mapping to exit codes; and files written with the old words still read.
 */
class StatusTest {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    @Test
    void theDeclarationOrderIsTheSeverityOrder() {
        assertThat(Status.values()).containsExactly(Status.OK, Status.TIMEBOXED, Status.UNSTABLE, Status.UNKNOWN,
                Status.BREACHED, Status.ABORTED, Status.INCOMPLETE, Status.FAIL);
        assertThat(Status.worse(Status.UNSTABLE, Status.BREACHED)).isEqualTo(Status.BREACHED);
        assertThat(Status.worse(Status.BREACHED, Status.ABORTED)).isEqualTo(Status.ABORTED);
        assertThat(Status.worse(Status.TIMEBOXED, Status.FAIL)).isEqualTo(Status.FAIL);
        assertThat(Status.worse(Status.INCOMPLETE, Status.ABORTED)).isEqualTo(Status.INCOMPLETE);
        assertThat(Status.worse(null, Status.UNSTABLE)).isEqualTo(Status.UNSTABLE);
        assertThat(Status.worst(List.of(Status.OK, Status.UNKNOWN, Status.UNSTABLE))).isEqualTo(Status.UNKNOWN);
        assertThat(Status.worst(List.of())).isNull();
    }

    @Test
    void exitCodesFollowTheSeverityOrder() {
        assertThat(Status.OK.exitCode(true)).isZero();
        assertThat(Status.UNSTABLE.exitCode(false)).isZero();
        assertThat(Status.TIMEBOXED.exitCode(true)).isEqualTo(3);
        assertThat(Status.UNKNOWN.exitCode(false)).isEqualTo(3);
        assertThat(Status.ABORTED.exitCode(false)).isEqualTo(99);
        assertThat(Status.BREACHED.exitCode(false)).isEqualTo(99);
        assertThat(Status.BREACHED.usable()).as("ran to its end: its numbers stand").isTrue();
        assertThat(Status.ABORTED.usable()).isFalse();
        assertThat(Status.INCOMPLETE.exitCode(false)).isEqualTo(1);
        assertThat(Status.FAIL.exitCode(false)).isEqualTo(1);
        // a worse status never maps to a code that ranks lower: 0 < 3 < 99 < 1
        List<Integer> rank = List.of(0, 3, 99, 1);
        Status[] all = Status.values();
        for (int i = 1; i < all.length; i++) {
            assertThat(rank.indexOf(all[i].exitCode(true))).as(all[i] + " after " + all[i - 1])
                    .isGreaterThanOrEqualTo(rank.indexOf(all[i - 1].exitCode(true)));
        }
    }

    @Test
    void aRunIsUnstableOnlyWhenItsNumbersStand() {
        assertThat(Status.of(Status.OK, true)).isEqualTo(Status.UNSTABLE);
        assertThat(Status.of(Status.TIMEBOXED, true)).isEqualTo(Status.UNSTABLE);
        assertThat(Status.of(Status.TIMEBOXED, false)).isEqualTo(Status.TIMEBOXED);
        assertThat(Status.of(Status.FAIL, true)).isEqualTo(Status.FAIL);
        assertThat(Status.of(Status.ABORTED, true)).isEqualTo(Status.ABORTED);
    }

    @Test
    void theOldWordsReadAsTheirStatusAndAnUnknownWordIsRefused() {
        assertThat(Status.read("COMPLETED")).isEqualTo(Status.OK);
        assertThat(Status.read("COMPLETE")).isEqualTo(Status.OK);
        assertThat(Status.read("INTERRUPTED")).isEqualTo(Status.INCOMPLETE);
        assertThat(Status.read("FAILED")).isEqualTo(Status.FAIL);
        assertThat(Status.read("unstable")).isEqualTo(Status.UNSTABLE);
        assertThatThrownBy(() -> Status.read("DONE")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'DONE'");
    }

    @Test
    void aLoadFileWrittenWithTheOldWordsReadsAsOk() throws Exception {
        Path file = Path.of("../results/reference/local-2core-load-seed000/01-client-lb.load.json");
        assertThat(JSON.readTree(file.toFile()).path("load").path("outcome").asText()).isEqualTo("COMPLETED");
        LoadResult old = ResultFiles.read(file).load();
        assertThat(old.outcome()).isEqualTo(Status.OK);
    }

    @Test
    void aSweepAndAChaosCheckWrittenWithTheOldWordsRead() throws Exception {
        SweepDocument sweep = JSON.readValue("{\"format\":\"cpbench-sweep/1\",\"status\":\"COMPLETE\"}", SweepDocument.class);
        assertThat(sweep.status()).isEqualTo(Status.OK);
        ChaosDocument.Check check = JSON.readValue("{\"verdict\":\"not linearizable\",\"ops\":3}", ChaosDocument.Check.class);
        assertThat(check.verdict()).isEqualTo(Linearizability.Verdict.NOT_LINEARIZABLE);
        assertThat(check.status()).isEqualTo(Status.FAIL);
        assertThatThrownBy(() -> JSON.readValue("{\"status\":\"DONE\"}", SweepDocument.class))
                .isInstanceOf(ValueInstantiationException.class);
    }

    @Test
    void whatIsWrittenReadsBack() throws Exception {
        ChaosDocument.Check check = new ChaosDocument.Check(Linearizability.Verdict.UNKNOWN, null, 5, 1.5, List.of());
        String text = JSON.writeValueAsString(check);
        assertThat(text).contains("\"verdict\":\"UNKNOWN\"").contains("\"status\":\"UNKNOWN\"");
        assertThat(JSON.readValue(text, ChaosDocument.Check.class)).isEqualTo(check);
    }
}
