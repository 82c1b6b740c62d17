package io.cpbench.core.result;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AbSlicesTest {

    @TempDir
    Path dir;

    private static AbSlices.Turn turn(int pair, String side, long ops, double seconds, Double p50) {
        return AbSlicesTurnBuilder.builder().pair(pair).processes(1 + pair / 3).first("NEW").side(side).ops(ops)
                .errors(pair).seconds(seconds).opsPerSecond(ops / seconds).p50Us(p50).p99Us(p50 == null ? null : p50 * 4)
                .build();
    }

    @Test
    void theTurnsItWritesAreTheTurnsItReads() throws Exception {
        List<AbSlices.Turn> turns = List.of(turn(1, "NEW", 450, 1.5, 2000.0), turn(1, "BASE", 500, 1.25, 1900.0),
                turn(4, "BASE", 0, 0.5, null));
        Path csv = dir.resolve("slices.csv");
        Files.writeString(csv, AbSlices.csv(turns));
        assertThat(Files.readAllLines(csv).get(0)).isEqualTo(AbSlices.HEADER);
        assertThat(AbSlices.read(csv)).isEqualTo(turns);
    }

    @Test
    void aFileOfFewerColumnsReadsWhatItHasAndALineCutShortIsLeftOut() throws Exception {
        Path csv = dir.resolve("slices.csv");
        Files.writeString(csv, "pair,processes,side,seconds,ops_per_s\n1,1,BASE,1.0,500.0\n1,1,NEW,1.0\n");
        assertThat(AbSlices.read(csv)).singleElement().satisfies(t -> {
            assertThat(t.base()).isTrue();
            assertThat(t.opsPerSecond()).isEqualTo(500.0);
            assertThat(t.p50Us()).isNull();
            assertThat(t.first()).isNull();
        });
    }

    @Test
    void aSideThatIsNeitherIsNamedWithItsLine() throws Exception {
        Path csv = dir.resolve("slices.csv");
        Files.writeString(csv, AbSlices.HEADER + "\n1,1,BASE,OLD,1,0,1.0,1.0,1,1\n");
        assertThatThrownBy(() -> AbSlices.read(csv)).isInstanceOf(ResultFormatException.class)
                .hasMessage(csv + ", line 2: side 'OLD' is neither BASE nor NEW");
    }
}
