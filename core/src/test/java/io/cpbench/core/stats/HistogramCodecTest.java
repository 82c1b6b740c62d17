package io.cpbench.core.stats;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Histograms come from agents and result files: one whose header asks for a huge histogram is refused before
 * HdrHistogram allocates it, and the size is computed as HdrHistogram computes it.
 */
class HistogramCodecTest {

    @Test
    void aHistogramRoundTrips() {
        Histogram h = new Histogram(3);
        for (long v = 1; v < 5_000_000; v = v * 3 + 7) {
            h.recordValue(v);
        }
        Histogram back = HistogramCodec.decode(HistogramCodec.encode(h));
        assertThat(back).isEqualTo(h);
        assertThat(back.getValueAtPercentile(99)).isEqualTo(h.getValueAtPercentile(99));
    }

    /** The oracle: HdrHistogram's own footprint, 512 bytes plus 8 per count, for histograms it builds. */
    @Test
    void theCountsAreHdrHistogramsOwn() {
        long[][] shapes = {{3, 1, 2}, {3, 1, 3_600_000_000L}, {3, 1, Long.MAX_VALUE / 2}, {2, 1000, 10_000_000},
                {5, 1, 3_600_000_000L}, {0, 1, 1L << 40}, {4, 7, 1L << 33}};
        for (long[] s : shapes) {
            Histogram h = new Histogram(s[1], s[2], (int) s[0]);
            long counts = (h.getEstimatedFootprintInBytes() - 512) / 8;
            assertThat(HistogramCodec.countsLength((int) s[0], s[1], s[2])).as(Arrays.toString(s)).isEqualTo(counts);
        }
    }

    @Test
    void aHeaderAskingForAHugeHistogramIsRefusedBeforeItIsBuilt() throws Exception {
        Histogram small = new Histogram(3);
        small.recordValue(1234);
        byte[] forged = withHeader(Base64.getDecoder().decode(HistogramCodec.encode(small)), 5, Long.MAX_VALUE / 2);
        long asked = HistogramCodec.countsLength(5, 1, Long.MAX_VALUE / 2);
        assertThat(asked).isGreaterThan(HistogramCodec.MAX_COUNTS);
        assertThatThrownBy(() -> HistogramCodec.decode(Base64.getEncoder().encodeToString(forged)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("histogram is not a valid HdrHistogram encoding: its header asks for " + asked
                        + " counts (5 digits up to " + Long.MAX_VALUE / 2 + "), more than the 4194304 allowed");
        // the same forging, within bounds, decodes: the check reads the header it forged
        byte[] fine = withHeader(Base64.getDecoder().decode(HistogramCodec.encode(small)), 3, 1L << 40);
        assertThat(HistogramCodec.decode(Base64.getEncoder().encodeToString(fine)).getTotalCount()).isEqualTo(1);
    }

    @Test
    void aCutOrLyingEncodingIsRefusedWithWhatIsWrong() {
        assertThatThrownBy(() -> HistogramCodec.decode(Base64.getEncoder().encodeToString(new byte[]{1, 2, 3})))
                .hasMessageContaining("too short (3 bytes)");
        byte[] lying = ByteBuffer.allocate(12).putInt(0x1c849304).putInt(1_000_000).array();
        assertThatThrownBy(() -> HistogramCodec.decode(Base64.getEncoder().encodeToString(lying)))
                .hasMessageContaining("its compressed length 1000000 is not what it holds (4 bytes)");
    }

    /** {@code compressed} with its header's digits and highest value replaced (re-deflated, as an attacker would). */
    private static byte[] withHeader(byte[] compressed, int digits, long highest) throws Exception {
        ByteBuffer outer = ByteBuffer.wrap(compressed);
        int cookie = outer.getInt();
        int length = outer.getInt();
        Inflater inflater = new Inflater();
        inflater.setInput(compressed, 8, length);
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        while (!inflater.finished()) {
            int n = inflater.inflate(buffer);
            if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                break;
            }
            plain.write(buffer, 0, n);
        }
        inflater.end();
        ByteBuffer payload = ByteBuffer.wrap(plain.toByteArray());
        payload.putInt(12, digits);
        payload.putLong(24, highest);
        Deflater deflater = new Deflater();
        deflater.setInput(payload.array());
        deflater.finish();
        ByteArrayOutputStream deflated = new ByteArrayOutputStream();
        while (!deflater.finished()) {
            int n = deflater.deflate(buffer);
            deflated.write(buffer, 0, n);
        }
        deflater.end();
        byte[] body = deflated.toByteArray();
        return ByteBuffer.allocate(8 + body.length).putInt(cookie).putInt(body.length).put(body).array();
    }
}
