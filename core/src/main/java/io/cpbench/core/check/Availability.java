package io.cpbench.core.check;

import io.cpbench.core.history.Event;
import io.soabase.recordbuilder.core.RecordBuilder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How available the ops were around each fault, read from the history alone.
 *
 * <ul>
 * <li><b>first ok</b>: from the injection to the first successful completion of an op invoked at or after it: the
 * unavailability (seed 001's figure; docs/origins.md says what seed 001 was). Ops already in flight when the fault hit may still complete just after it,
 * which is why a gap in completions that straddles the injection would understate it;</li>
 * <li><b>longest gap</b>: the longest time with no successful completion at all, from the last one before the
 * injection until the window ends (the next injection, or the end of the history): the unavailability;</li>
 * <li><b>errors</b>: failed and unknown completions in the window, by error.</li>
 * </ul>
 */
public final class Availability {

    /**
     * A fault on the history's clock.
     *
     * @param injected when it was injected (ns)
     * @param healed   when it was healed (ns), or {@code Long.MAX_VALUE} if never
     * @param ends     when the window it is judged in ends: the next injection, or the end of the history
     */
    public record Window(String fault, String target, long injected, long healed, long ends) {
    }

    /**
     * One fault's availability; times in ms. {@code firstOkMs} is null when no op invoked after the injection
     * succeeded within the window.
     *
     * @param gapOpen whether the longest gap was still open when the window ended (no success after it)
     */
    @RecordBuilder
    public record Result(String fault, String target, double injectedAtS, double healedAfterMs, Double firstOkMs,
                         double longestGapMs, boolean gapOpen, long okOps, Map<String, Long> errors) {
    }

    /**
     * Over all faults of a run: the median and the largest unavailability (first ok; null when nothing recovered)
     * and longest gap, and how many faults were followed by no success at all.
     */
    public record Summary(int faults, Double firstOkP50Ms, Double firstOkMaxMs, Double longestGapP50Ms,
                          Double longestGapMaxMs, int neverRecovered) {

        public static Summary of(List<Result> results) {
            double[] firstOk = results.stream().filter(r -> r.firstOkMs() != null).mapToDouble(Result::firstOkMs).sorted().toArray();
            double[] gaps = results.stream().mapToDouble(Result::longestGapMs).sorted().toArray();
            return new Summary(results.size(), median(firstOk), max(firstOk), median(gaps), max(gaps),
                    (int) results.stream().filter(r -> r.firstOkMs() == null).count());
        }

        private static Double median(double[] sorted) {
            int n = sorted.length;
            return n == 0 ? null : io.cpbench.core.stats.Bootstrap.median(sorted);
        }

        private static Double max(double[] sorted) {
            return sorted.length == 0 ? null : sorted[sorted.length - 1];
        }
    }

    private Availability() {
    }

    /**
     * An op's completion with its invoke (null when the history lacks it).
     *
     * @param ok whether the call succeeded: ok, or a failed cas that found another value (a successful call)
     */
    public record Completion(Event invoke, Event end, boolean ok) {
    }

    /** Every completion of the workload's ops (the run's setup, process below 0, left out), in history order. */
    public static List<Completion> completions(List<Event> events) {
        List<Completion> completions = new ArrayList<>();
        Map<Long, Event> open = new HashMap<>();
        for (Event e : events) {
            if (e.process() < 0) {
                continue;
            }
            if (e.type() == Event.Type.INVOKE) {
                open.put(e.process(), e);
                continue;
            }
            completions.add(new Completion(open.remove(e.process()), e,
                    e.type() == Event.Type.OK || (e.type() == Event.Type.FAIL && e.error() == null)));
        }
        return completions;
    }

    public static List<Result> of(List<Event> events, List<Window> windows) {
        List<long[]> ops = new ArrayList<>(); // invoke time, completion time
        List<Event> failures = new ArrayList<>();
        for (Completion c : completions(events)) {
            if (c.ok()) {
                ops.add(new long[]{c.invoke() == null ? c.end().time() : c.invoke().time(), c.end().time()});
            } else {
                failures.add(c.end());
            }
        }
        long[] completions = ops.stream().mapToLong(o -> o[1]).sorted().toArray();
        List<Result> results = new ArrayList<>();
        for (Window w : windows) {
            long firstOk = Long.MAX_VALUE;
            for (long[] op : ops) {
                if (op[0] >= w.injected() && op[1] < w.ends()) {
                    firstOk = Math.min(firstOk, op[1]);
                }
            }
            int i = Arrays.binarySearch(completions, w.injected());
            int from = i >= 0 ? i : -i - 1;
            long previous = from > 0 ? completions[from - 1] : w.injected();
            long longest = 0;
            long okOps = 0;
            for (int k = from; k < completions.length && completions[k] < w.ends(); k++) {
                longest = Math.max(longest, completions[k] - previous);
                previous = completions[k];
                okOps++;
            }
            boolean gapOpen = w.ends() - previous > longest;
            if (gapOpen) {
                longest = w.ends() - previous;
            }
            Map<String, Long> errors = new TreeMap<>();
            for (Event f : failures) {
                if (f.time() >= w.injected() && f.time() < w.ends()) {
                    errors.merge(f.type().key() + " " + (f.error() == null ? "?" : f.error()), 1L, Long::sum);
                }
            }
            results.add(AvailabilityResultBuilder.builder().fault(w.fault()).target(w.target())
                    .injectedAtS(w.injected() / 1e9)
                    .healedAfterMs(w.healed() == Long.MAX_VALUE ? Double.NaN : (w.healed() - w.injected()) / 1e6)
                    .firstOkMs(firstOk == Long.MAX_VALUE ? null : (firstOk - w.injected()) / 1e6)
                    .longestGapMs(longest / 1e6).gapOpen(gapOpen).okOps(okOps).errors(errors).build());
        }
        return results;
    }
}
