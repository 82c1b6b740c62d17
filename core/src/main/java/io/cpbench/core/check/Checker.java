package io.cpbench.core.check;

import io.cpbench.core.history.Event;
import io.cpbench.core.history.History;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.status.Status;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One check of a recorded run, as Jepsen composes its checkers: what the run recorded goes in, verdicts with their
 * evidence come out, and checkers compose ({@link #all}) into the run's one verdict ({@link #overall}). A checker
 * that cannot decide says UNKNOWN with why; one that has nothing to check says so in an OK verdict's evidence.
 *
 * <p>The checkers a chaos run composes, in this order (the order breaks ties for the reason):
 * {@link #loadEnding}, {@link #invariants}, {@link #thresholds}, {@link LinearizabilityCheck}, {@link AvailabilityCheck},
 * and the nemesis's own (UNKNOWN when a fault that came due found no target, so fewer were tested than scheduled).
 */
@FunctionalInterface
public interface Checker {

    /** The verdicts on {@code run}: one, or one per thing checked (each invariant). */
    List<Verdict> check(Recorded run);

    /**
     * What a run recorded.
     *
     * @param events  its history (every op), oldest first; empty when none was recorded
     * @param windows its faults, as the nemesis injected and healed them; empty without faults
     * @param load    what its load measured; null when the load returned nothing (it was stopped or broke)
     */
    record Recorded(List<Event> events, List<Availability.Window> windows, LoadResult load) {

        public Recorded {
            events = events == null ? List.of() : List.copyOf(events);
            windows = windows == null ? List.of() : List.copyOf(windows);
        }
    }

    /**
     * @param name     what was checked ({@code load}, {@code counter}, {@code linearizability}, ...)
     * @param status   OK, or how it failed: FAIL, UNKNOWN (could not decide), BREACHED (a threshold), or the load's
     *                 own ending
     * @param evidence what was seen, in words (why it is not OK, or what held)
     */
    record Verdict(String name, Status status, String evidence) {
    }

    /** Every checker of {@code checkers} on the same recording, their verdicts in order. */
    static Checker all(List<Checker> checkers) {
        List<Checker> each = List.copyOf(checkers);
        return run -> {
            List<Verdict> verdicts = new ArrayList<>();
            each.forEach(c -> verdicts.addAll(c.check(run)));
            return verdicts;
        };
    }

    /**
     * The run's one verdict from its checks: the worst status, with the first verdict of that status as the reason
     * ({@code name: evidence}); OK with no reason when all are OK (or there are none).
     */
    static Verdict overall(List<Verdict> verdicts) {
        Verdict worst = null;
        for (Verdict v : verdicts) {
            if (worst == null || Status.worse(worst.status(), v.status()) != worst.status()) {
                worst = v;
            }
        }
        if (worst == null || worst.status() == Status.OK) {
            return new Verdict("run", Status.OK, null);
        }
        return new Verdict("run", worst.status(), worst.name() + ": " + worst.evidence());
    }

    /** What a load's own result decides: {@link #loadEnding}, {@link #invariants}, {@link #thresholds}, in that order. */
    static Checker ofLoad() {
        return all(List.of(loadEnding(), invariants(), thresholds()));
    }

    /** How the load ended: its own status (OK, TIMEBOXED, INCOMPLETE, ABORTED, FAIL); INCOMPLETE when it returned nothing. */
    static Checker loadEnding() {
        return run -> {
            LoadResult load = run.load();
            if (load == null) {
                return List.of(new Verdict("load", Status.INCOMPLETE, "the load returned nothing"));
            }
            String evidence = load.reason() != null ? load.reason()
                    : String.format(Locale.ROOT, "ran to its end: %,d ops in %.1f s", load.ops(), load.seconds());
            return List.of(new Verdict("load", load.outcome(), evidence));
        };
    }

    /** Each of the load's invariants (counter, lock): OK when it holds, FAIL when broken; UNKNOWN without a load. */
    static Checker invariants() {
        return run -> {
            if (run.load() == null) {
                return List.of(new Verdict("invariants", Status.UNKNOWN, "not checked: the load returned nothing"));
            }
            return run.load().invariants().stream().map(i -> new Verdict(i.name(), i.holds() ? Status.OK : Status.FAIL,
                    i.holds() ? i.evidence() : "VIOLATED: " + i.evidence())).toList();
        };
    }

    /** The load's thresholds: BREACHED naming each one crossed with the value seen; none without thresholds. */
    static Checker thresholds() {
        return run -> {
            LoadResult load = run.load();
            if (load == null || load.thresholds().isEmpty()) {
                return List.of();
            }
            List<String> crossed = load.crossedThresholds();
            return List.of(crossed.isEmpty()
                    ? new Verdict("thresholds", Status.OK, load.thresholds().size() + " held")
                    : new Verdict("thresholds", Status.BREACHED, "crossed: " + String.join(", ", crossed)));
        };
    }

    /**
     * Availability around each fault: informational, never a failure (clients are expected to see errors during a
     * fault): OK with the first success after each fault and the longest gap, or with no fault injected. Keeps its
     * per-fault results ({@link #results}) for the fault table and chaos.json.
     */
    final class AvailabilityCheck implements Checker {

        private volatile List<Availability.Result> results;

        @Override
        public List<Verdict> check(Recorded run) {
            List<Availability.Result> r = Availability.of(run.events(), run.windows());
            results = r;
            if (r.isEmpty()) {
                return List.of(new Verdict("availability", Status.OK, "no fault was injected"));
            }
            Availability.Summary s = Availability.Summary.of(r);
            return List.of(new Verdict("availability", Status.OK, String.format(Locale.ROOT,
                    "%d fault%s: first ok after at most %s, longest gap %s%s", s.faults(), s.faults() == 1 ? "" : "s",
                    s.firstOkMaxMs() == null ? "none" : String.format(Locale.ROOT, "%,.0f ms", s.firstOkMaxMs()),
                    String.format(Locale.ROOT, "%,.0f ms", s.longestGapMaxMs()),
                    s.neverRecovered() == 0 ? "" : "; " + s.neverRecovered() + " with no success after it")));
        }

        /** The last check's per-fault results; null before one ran. */
        public List<Availability.Result> results() {
            return results;
        }
    }

    /**
     * The linearizability of the registers' histories, within a budget: OK, FAIL (not linearizable, with the first
     * key that is not), UNKNOWN (the budget ran out, with why). Keeps its whole result ({@link #result}) for the
     * files and tables that show it per key.
     */
    final class LinearizabilityCheck implements Checker {

        private final Linearizability.Budget budget;
        private volatile Linearizability.Result result;

        public LinearizabilityCheck(Linearizability.Budget budget) {
            this.budget = budget;
        }

        @Override
        public List<Verdict> check(Recorded run) {
            Linearizability.Result r = Linearizability.check(new History(run.events(), false), budget);
            result = r;
            return List.of(of(r));
        }

        /** The last check's whole result; null before one ran. */
        public Linearizability.Result result() {
            return result;
        }

        /** A result as a verdict: its status, the ops and keys, and the first key that is not linearizable or unknown. */
        public static Verdict of(Linearizability.Result r) {
            Linearizability.KeyResult problem = r.firstProblem();
            String evidence = String.format(Locale.ROOT, "%s (%,d register ops on %d keys)", r.verdict().text(), r.ops(),
                    r.keys().size()) + (problem == null ? "" : "; " + problem.key() + ": " + problem.detail());
            return new Verdict("linearizability", r.verdict().status(), evidence);
        }
    }
}
