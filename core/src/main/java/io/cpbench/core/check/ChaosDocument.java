package io.cpbench.core.check;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.status.Status;
import io.soabase.recordbuilder.core.RecordBuilder;

import java.util.List;
import java.util.Map;

/**
 * What a chaos run writes to its {@code chaos.json}: the nemesis and its timing, each fault with what clients saw of
 * it, the linearizability verdict on the history, and the load underneath. docs/schemas/chaos.schema.json is generated
 * from this type.
 *
 * @param setup           what ran: written as the file's own first fields ({@code kind} ... {@code failover})
 * @param spec            the load's settings ({@link io.cpbench.core.load.LoadSpec#describe})
 * @param faults          each fault, in the order injected
 * @param availability    the faults summarised
 * @param nemesisLog      what the nemesis did, one line per step
 * @param linearizability the checker's verdict on the recorded history
 * @param load            the load run during the faults
 * @param status          the run's one verdict ({@link #verdictOf} its checks): the exit code, the history's row and
 *                        the report are this; null in files written before it was kept (then {@link #verdict()}
 *                        works it out)
 * @param reason          why {@code status} is not OK, or null
 * @param checks          every check's verdict, in the order they ran ({@link Checker}); null in files written before
 *                        they were kept
 */
@RecordBuilder
public record ChaosDocument(@JsonUnwrapped Setup setup, Map<String, Object> spec, List<Availability.Result> faults,
                            Availability.Summary availability, List<String> nemesisLog, Check linearizability,
                            LoadResult load, Status status, String reason, List<Checker.Verdict> checks) {

    public ChaosDocument {
        setup = setup == null ? new Setup("chaos", null, null, null, null, false, null) : setup;
    }

    /**
     * What ran, as the first fields of chaos.json ({@code @JsonUnwrapped}: grouped here, not nested in the file).
     *
     * @param kind     always {@code chaos}
     * @param scenario how the clients connected (a scenario's name); null in files written before it was kept
     * @param nemesis  the nemesis plan, described
     * @param faultFor how long each fault lasted, such as {@code 8s}
     * @param interval the pause between faults
     * @param restart  whether killed members were started again
     * @param failover the failover preset, described
     */
    public record Setup(String kind, String scenario, String nemesis, String faultFor, String interval, boolean restart,
                        String failover) {
    }

    /** A chaos run's status with why it is not OK ({@code reason} null when OK). */
    public record Verdict(Status status, String reason) {
    }

    /**
     * A chaos run's one verdict from its checks ({@link Checker#overall}): the worst status, the first check of that
     * status as the reason.
     */
    public static Verdict verdictOf(List<Checker.Verdict> checks) {
        Checker.Verdict overall = Checker.overall(checks);
        return new Verdict(overall.status(), overall.evidence());
    }

    /**
     * The same from a run's parts, for files written before the checks were kept: the load's ending, its invariants
     * and thresholds ({@link Checker#loadEnding}, {@link Checker#invariants}, {@link Checker#thresholds}) and the
     * linearizability check as written (UNKNOWN when not checked).
     */
    public static Verdict verdictOf(LoadResult load, Check linearizability) {
        return verdictOf(checksOf(load, linearizability));
    }

    private static List<Checker.Verdict> checksOf(LoadResult load, Check linearizability) {
        List<Checker.Verdict> checks = new java.util.ArrayList<>(Checker.ofLoad().check(
                new Checker.Recorded(List.of(), List.of(), load)));
        checks.add(linearizability == null ? new Checker.Verdict("linearizability", Status.UNKNOWN, "not checked")
                : new Checker.Verdict("linearizability", linearizability.status(), linearizability.verdict() == null
                ? linearizability.status().name() : linearizability.verdict().text()));
        return checks;
    }

    /** The run's verdict: as written, or, in a file written before it was kept, {@link #verdictOf} its parts. */
    public Verdict verdict() {
        return status != null ? new Verdict(status, reason) : verdictOf(load, linearizability);
    }

    /** Each check's verdict: as written, or worked out from the run's parts in a file written before they were kept. */
    public List<Checker.Verdict> checkVerdicts() {
        return checks != null ? checks : checksOf(load, linearizability);
    }

    /**
     * @param verdict the checker's verdict on the whole history
     * @param status  the verdict as a status, OK, FAIL or UNKNOWN ({@link Linearizability.Verdict#status}): always
     *                the verdict's, written so that the file speaks the one status vocabulary
     * @param ops     ops the history held
     * @param seconds how long the check took
     * @param keys    the verdict per key
     */
    public record Check(Linearizability.Verdict verdict, io.cpbench.core.status.Status status, int ops, double seconds,
                        List<Linearizability.KeyResult> keys) {

        public Check {
            status = verdict != null ? verdict.status() : status;
        }

        public static Check of(Linearizability.Result result) {
            return new Check(result.verdict(), null, result.ops(), result.seconds(), result.keys());
        }
    }
}
