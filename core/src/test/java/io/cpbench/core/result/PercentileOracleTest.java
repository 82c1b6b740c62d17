package io.cpbench.core.result;

import io.cpbench.core.load.LoadResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The percentiles every table, threshold and comparison reads, against an oracle that is not the code under test: the
 * recorded values themselves, sorted, read at their nearest rank. Values stay under 2,048 µs, which an HdrHistogram of
 * 3 significant digits holds exactly, and 1,000 of them put every percentile asked for on a whole rank (500th, 900th,
 * 950th, 990th, 999th), where nearest rank and HdrHistogram's rounding agree. The fixture is skewed so that p50, p90,
 * p95, p99, p99.9 and max all differ: a percentile read at another's rank cannot pass.
 */
class PercentileOracleTest {

    private static final int N = 1000;

    private static long[] values() {
        SplittableRandom random = new SplittableRandom(42);
        long[] v = new long[N];
        for (int i = 1; i < N; i++) {
            double u = random.nextDouble();
            v[i] = 1 + (long) (1900 * u * u * u * u); // a long tail: most ops fast, a few slow
        }
        v[0] = 2040; // and one stall, alone at the top: the max is not the 99.9th percentile
        return v;
    }

    /**
     * The value at the nearest rank of {@code permille} (tenths of a percent, in whole numbers so that no rounding
     * error moves a rank: 0.999 * 1000 is 999.0000000000001 in doubles): the smallest value with at least that share
     * of values at or below it.
     */
    private static long rank(long[] sorted, int permille) {
        int r = (permille * sorted.length + 999) / 1000;
        return sorted[Math.max(1, r) - 1];
    }

    private static Histogram histogram(long[] values) {
        Histogram h = new Histogram(3);
        for (long v : values) {
            h.recordValue(v);
        }
        return h;
    }

    @Test
    void theFixtureSeparatesEveryPercentile() {
        long[] sorted = values();
        Arrays.sort(sorted);
        long[] at = {rank(sorted, 500), rank(sorted, 900), rank(sorted, 950), rank(sorted, 990), rank(sorted, 999), sorted[N - 1]};
        assertThat(at).as("p50, p90, p95, p99, p99.9, max").doesNotHaveDuplicates().isSorted();
    }

    @Test
    void aScenarioResultsLatencyIsTheRecordedValuesAtTheirRanks() {
        RunResult.Latency l = RunResult.Latency.of(histogram(values()));
        assertAtRanks(l.min(), l.mean(), l.p50(), l.p90(), l.p99(), l.p999(), l.max());
    }

    @Test
    void aLoadResultsLatencyIsTheRecordedValuesAtTheirRanks() {
        LoadResult.LoadLatency l = LoadResult.LoadLatency.of(histogram(values()));
        assertAtRanks(l.min(), l.mean(), l.p50(), l.p90(), l.p99(), l.p999(), l.max());
        assertThat(l.count()).isEqualTo(N);
        long[] sorted = values();
        Arrays.sort(sorted);
        assertThat(l.p95()).isEqualTo(rank(sorted, 950));
    }

    /** The two latency records have no common type: each passes its figures here. */
    private static void assertAtRanks(long min, double mean, long p50, long p90, long p99, long p999, long max) {
        long[] values = values();
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        assertThat(min).isEqualTo(sorted[0]);
        assertThat(p50).isEqualTo(rank(sorted, 500));
        assertThat(p90).isEqualTo(rank(sorted, 900));
        assertThat(p99).isEqualTo(rank(sorted, 990));
        assertThat(p999).isEqualTo(rank(sorted, 999));
        assertThat(max).isEqualTo(sorted[N - 1]);
        assertThat(mean).isCloseTo(Arrays.stream(values).average().orElseThrow(), within(1e-9));
    }

    @Test
    void nothingRecordedIsAnEmptyLatency() {
        assertThat(RunResult.Latency.of(new Histogram(3)).isEmpty()).isTrue();
        assertThat(LoadResult.LoadLatency.of(new Histogram(3))).isEqualTo(LoadResult.LoadLatency.EMPTY);
    }
}
