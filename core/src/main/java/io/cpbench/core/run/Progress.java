package io.cpbench.core.run;

import java.time.Duration;

/**
 * A progress report, sent once an interval from the driver's sampling thread.
 *
 * @param measuring            false during warm-up
 * @param done                 ops finished in this phase, errors included
 * @param target               ops asked for in this phase, or 0 when measuring for a duration
 * @param elapsed              time since the phase began
 * @param intervalOpsPerSecond throughput in the last interval
 * @param intervalP50Micros    median latency in the last interval
 * @param errors               errors so far in this phase
 */
public record Progress(boolean measuring, long done, long target, Duration elapsed, double intervalOpsPerSecond,
                       long intervalP50Micros, long errors) {
}
