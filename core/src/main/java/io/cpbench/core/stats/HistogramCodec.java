package io.cpbench.core.stats;

import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;

/** A histogram as result files keep it: HdrHistogram's compressed encoding, in Base64. */
public final class HistogramCodec {

    private HistogramCodec() {
    }

    public static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.rewind();
        buffer.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * An empty histogram for null or "".
     *
     * @throws IllegalArgumentException when it is not such an encoding
     */
    public static Histogram decode(String encoded) {
        if (encoded == null || encoded.isEmpty()) {
            return new Histogram(3);
        }
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("histogram is not a valid HdrHistogram encoding: " + e.getMessage(), e);
        }
    }
}
