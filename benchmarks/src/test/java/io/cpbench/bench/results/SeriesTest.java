package io.cpbench.bench.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SeriesTest {

    @TempDir
    Path dir;

    @Test
    void thePercentileLineIsHdrHistogramsOnItsOneOverOneMinusPAxis() {
        Histogram h = new Histogram(3);
        for (int v = 1; v <= 10_000; v++) {
            h.recordValue(v); // uniform 1..10,000 µs: the value at percentile p is about p % of 10,000
        }
        Series.Line line = Series.percentiles("u", h);
        assertThat(line.x()[0]).isEqualTo(1.0);
        // x = 10 is p90, x = 100 is p99, x = 1000 is p99.9
        for (int k = 0; k < line.x().length - 1; k++) {
            double x = line.x()[k];
            double p = 1 - 1 / x;
            assertThat(line.y()[k]).as("x=" + x).isCloseTo(p * 10_000, within(10_000 * 0.002 + 2));
        }
        // the points stop where 10,000 values no longer resolve the percentile; the maximum closes the line
        assertThat(line.x()[line.x().length - 2]).isLessThanOrEqualTo(10_000);
        assertThat(line.x()[line.x().length - 1]).isEqualTo(10_000.0);
        assertThat(line.y()[line.y().length - 1]).isEqualTo((double) h.getMaxValue());
    }

    @Test
    void anEmptyHistogramHasNoPoints() {
        assertThat(Series.percentiles("none", new Histogram(3)).x()).isEmpty();
    }

    @Test
    void intervalsGiveOpsPerSecondAndPercentilesPerIntervalOfTheLog() throws Exception {
        Path hlog = dir.resolve("run.hlog");
        try (PrintStream out = new PrintStream(hlog.toFile())) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputLogFormatVersion();
            writer.outputStartTime(1_000_000L);
            writer.setBaseTime(1_000_000L);
            writer.outputLegend();
            for (int i = 0; i < 5; i++) {
                Histogram h = new Histogram(3);
                for (int k = 0; k < 100 * (i + 1); k++) {
                    h.recordValue(1000 + i);
                }
                h.setStartTimeStamp(1_000_000L + i * 1000L);
                h.setEndTimeStamp(1_000_000L + (i + 1) * 1000L);
                writer.outputIntervalHistogram(h);
            }
        }
        Series.Intervals iv = Series.intervals(hlog);
        assertThat(iv.t()).containsExactly(1, 2, 3, 4, 5);
        assertThat(iv.opsPerSecond()).containsExactly(100.0, 200.0, 300.0, 400.0, 500.0);
        assertThat(iv.p99()[4]).isCloseTo(1004.0, within(1.0));
        assertThat(Series.intervals(dir.resolve("missing.hlog")).isEmpty()).isTrue();
        Files.writeString(dir.resolve("junk.hlog"), "not a log\n");
        assertThat(Series.intervals(dir.resolve("junk.hlog")).isEmpty()).isTrue();
    }

    @Test
    void theDataCannotCloseItsScriptElement() {
        ObjectNode data = new ObjectMapper().createObjectNode();
        data.put("title", "</script><script>alert(1)</script>");
        data.putArray("runs");
        String page = HtmlPage.html(data, false);
        assertThat(page).doesNotContain("</script><script>alert(1)");
        assertThat(page).contains("\\u003c/script>");
        assertThat(page).contains("<title>&lt;/script&gt;");
    }

    @Test
    void anAbRunsTurnsAreReadPerWholePairOnTheirOwnClock() throws Exception {
        Path csv = dir.resolve("slices.csv");
        Files.writeString(csv, """
                pair,processes,first,side,ops,errors,seconds,ops_per_s,p50_us,p99_us
                1,1,BASE,BASE,500,0,1.0,500.0,1900,9000
                1,1,BASE,NEW,450,0,1.0,450.0,2000,9500
                2,1,NEW,NEW,480,0,1.0,480.0,2000,9500
                2,1,NEW,BASE,400,0,2.0,200.0,1900,9000
                3,2,BASE,BASE,500,0,1.0,500.0,1900,9000
                """);
        Series.AbTurns turns = Series.abTurns(csv);
        // pair 3 has no NEW turn (an interrupted run): left out
        assertThat(turns.pairs()).containsExactly(0.9, 2.4);
        assertThat(turns.p50Pairs()).containsExactly(2000.0 / 1900, 2000.0 / 1900);
        assertThat(turns.baseT()).containsExactly(1.0, 5.0); // each turn ends after the turns before it: 1+1+1+2
        assertThat(turns.newT()).containsExactly(2.0, 3.0);
        assertThat(turns.processPair()).containsExactly(1, 1);
    }

    @Test
    void aCorruptAbFileIsNamedWithItsLine() throws Exception {
        Path csv = dir.resolve("slices.csv");
        Files.writeString(csv, "pair,processes,first,side,ops,errors,seconds,ops_per_s,p50_us,p99_us\n"
                + "1,1,BASE,BASE,500,0,1.0,500.0,1900,9000\n1,1,BASE,NEW,450,0,x,450.0,2000,9500\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Series.abTurns(csv))
                .isInstanceOf(io.cpbench.core.result.ResultFormatException.class)
                .hasMessage(csv + ", line 3: For input string: \"x\"");
        Files.writeString(csv, "a,b\n1,2\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Series.abTurns(csv))
                .hasMessageContaining("not an ab slices file");
    }
}
