package io.cpbench.core.run;

import io.cpbench.core.status.Status;
import io.cpbench.core.stats.Censored;
import io.soabase.recordbuilder.core.RecordBuilder;
import org.HdrHistogram.Histogram;

import java.time.Instant;
import java.util.Map;

/**
 * What a driver run measured. The histogram holds the latency of every successful measured op, in µs, and of every
 * op abandoned in flight at the end, at its latency so far (a lower bound, {@code censored}); it is the sum of the
 * intervals written to the run's {@code .hlog}.
 *
 * @param outcome       how the run ended
 * @param reason        why, when it did not simply complete; null otherwise
 * @param startedAt     when the measured phase began
 * @param warmupOps     warm-up ops that ran
 * @param ops           measured ops that succeeded
 * @param errors        measured ops that threw
 * @param measuredNanos length of the measured phase
 * @param histogram     latency of the successful measured ops and of those abandoned in flight, µs
 * @param censored      the ops abandoned in flight, recorded in {@code histogram} at a lower bound; null when none
 */
@RecordBuilder
public record Measurement(Status outcome, String reason, Instant startedAt, long warmupOps, long ops, long errors,
                          long measuredNanos, Histogram histogram, String firstError, Map<String, Long> counters,
                          Censored censored) {

    public Measurement {
        counters = counters == null ? Map.of() : Map.copyOf(counters);
    }

    public double seconds() {
        return measuredNanos / 1e9;
    }

    public double opsPerSecond() {
        return measuredNanos == 0 ? 0 : ops / seconds();
    }
}
