package io.cpbench.core.csv;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CsvTest {

    @TempDir
    Path dir;

    @Test
    void aValueIsQuotedOnlyWhereCsvNeedsItAndReadsBackAsWritten() throws IOException {
        String reason = "ops failed: \"Timeout\", then a leader change";
        String row = Csv.row(1, "client-leader", 2.5, null, "", reason, "5.4.0, 5.3.8", -3);
        // the oracle: RFC 4180 by hand (a value with a comma or a quote in quotes, its quotes doubled)
        assertThat(row).isEqualTo("1,client-leader,2.5,,,\"ops failed: \"\"Timeout\"\", then a leader change\","
                + "\"5.4.0, 5.3.8\",-3");
        Path file = dir.resolve("t.csv");
        Files.writeString(file, "round,scenario,x,y,z,reason,releases,n\n" + row + "\n");
        Csv.Table table = Csv.read(file);
        assertThat(table.header()).containsExactly("round", "scenario", "x", "y", "z", "reason", "releases", "n");
        assertThat(table.rows()).singleElement().satisfies(r -> {
            assertThat(r.line()).isEqualTo(2);
            assertThat(r.get("reason")).isEqualTo(reason);
            assertThat(r.get("releases")).isEqualTo("5.4.0, 5.3.8");
            assertThat(r.get("y")).isEmpty();
            assertThat(r.whole(table)).isTrue();
        });
    }

    @Test
    void columnsAreReadByNameAndAShortLineIsNotWhole() throws IOException {
        Path file = dir.resolve("t.csv");
        Files.writeString(file, "b,a,c\n2,1,3\n5,4\n");
        Csv.Table table = Csv.read(file);
        assertThat(table.rows()).hasSize(2);
        assertThat(table.rows().get(0).values()).isEqualTo(Map.of("a", "1", "b", "2", "c", "3"));
        assertThat(table.rows().get(1).whole(table)).as("cut off by an interrupted run").isFalse();
        assertThat(table.rows().get(1).line()).isEqualTo(3);
    }

    @Test
    void anEmptyOrBrokenFileIsOneLineNamingIt() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.csv"), "");
        assertThatThrownBy(() -> Csv.read(empty)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(empty + ": empty; a header line comes first");
        Path missing = dir.resolve("missing.csv");
        assertThatThrownBy(() -> Csv.read(missing)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(missing + ": not readable CSV (")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
