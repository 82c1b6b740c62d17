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
            byte[] bytes = Base64.getDecoder().decode(encoded);
            checkHeader(bytes);
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("histogram is not a valid HdrHistogram encoding: " + e.getMessage(), e);
        }
    }

    /**
     * The most counts a decoded histogram may hold: 4 Mi (32 MB). cp-bench's histograms have 3 significant digits, at
     * most some 55 Ki counts over the whole range of a long; an encoding's header alone (which an agent or a result
     * file writes) would otherwise decide how much is allocated, up to gigabytes.
     */
    static final long MAX_COUNTS = 1L << 22;
    private static final int HEADER_BYTES = 40;

    /**
     * Reads the encoding's header (the first 40 bytes of its deflated payload) and refuses one whose histogram would be
     * larger than {@link #MAX_COUNTS}, or whose payload says it is longer than such a histogram's, before HdrHistogram
     * allocates anything from it.
     */
    static void checkHeader(byte[] compressed) throws DataFormatException {
        ByteBuffer outer = ByteBuffer.wrap(compressed);
        if (compressed.length < 8) {
            throw new IllegalArgumentException("too short (" + compressed.length + " bytes)");
        }
        outer.getInt(); // the compressed encoding's cookie: HdrHistogram checks it
        int length = outer.getInt();
        if (length < 0 || length > compressed.length - 8) {
            throw new IllegalArgumentException("its compressed length " + length + " is not what it holds ("
                    + (compressed.length - 8) + " bytes)");
        }
        byte[] header = new byte[HEADER_BYTES];
        java.util.zip.Inflater inflater = new java.util.zip.Inflater();
        try {
            inflater.setInput(compressed, 8, length);
            int got = 0;
            while (got < HEADER_BYTES && !inflater.finished() && !inflater.needsInput()) {
                got += inflater.inflate(header, got, HEADER_BYTES - got);
            }
            if (got < HEADER_BYTES) {
                throw new IllegalArgumentException("its header is cut short (" + got + " of " + HEADER_BYTES + " bytes)");
            }
        } finally {
            inflater.end();
        }
        ByteBuffer h = ByteBuffer.wrap(header);
        h.getInt(); // the encoding's cookie
        int payload = h.getInt();
        h.getInt(); // normalizing index offset
        int digits = h.getInt();
        long lowest = h.getLong();
        long highest = h.getLong();
        if (digits < 0 || digits > 5) {
            throw new IllegalArgumentException("its header says " + digits + " significant digits (0-5)");
        }
        if (lowest < 1 || highest < 2 * lowest) {
            throw new IllegalArgumentException("its header's range (" + lowest + " to " + highest + ") is not a histogram's");
        }
        long counts = countsLength(digits, lowest, highest);
        if (counts > MAX_COUNTS) {
            throw new IllegalArgumentException("its header asks for " + counts + " counts (" + digits + " digits up to "
                    + highest + "), more than the " + MAX_COUNTS + " allowed");
        }
        if (payload < 0 || payload > counts * 9) {
            throw new IllegalArgumentException("its header says a payload of " + payload + " bytes, more than "
                    + counts + " counts take");
        }
    }

    /** How many counts HdrHistogram allocates for this precision and range (its own arithmetic, in AbstractHistogram). */
    static long countsLength(int digits, long lowest, long highest) {
        long largestSingleUnitResolution = 2 * (long) Math.pow(10, digits);
        int subBucketCountMagnitude = (int) Math.ceil(Math.log(largestSingleUnitResolution) / Math.log(2));
        int subBucketHalfCountMagnitude = Math.max(subBucketCountMagnitude, 1) - 1;
        long subBucketCount = 1L << (subBucketHalfCountMagnitude + 1);
        int unitMagnitude = (int) (Math.log(lowest) / Math.log(2));
        long smallestUntrackable = subBucketCount << unitMagnitude;
        int buckets = 1;
        while (smallestUntrackable <= highest) {
            if (smallestUntrackable > Long.MAX_VALUE / 2) {
                buckets++;
                break;
            }
            smallestUntrackable <<= 1;
            buckets++;
        }
        return (buckets + 1L) * (subBucketCount / 2);
    }
}
