package io.cpbench.core.check;

import io.cpbench.core.load.LoadResult;
import io.soabase.recordbuilder.core.RecordBuilder;

import java.util.List;
import java.util.Map;

/**
 * What a chaos run writes to its {@code chaos.json}: the nemesis and its timing, each fault with what clients saw of
 * it, the linearizability verdict on the history, and the load underneath. docs/schemas/chaos.schema.json is generated
 * from this type.
 *
 * @param kind            always {@code chaos}
 * @param scenario        how the clients connected (a scenario's name); null in files written before it was kept
 * @param nemesis         the nemesis plan, described
 * @param faultFor        how long each fault lasted, such as {@code 8s}
 * @param interval        the pause between faults
 * @param restart         whether killed members were started again
 * @param failover        the failover preset, described
 * @param spec            the load's settings ({@link io.cpbench.core.load.LoadSpec#describe})
 * @param faults          each fault, in the order injected
 * @param availability    the faults summarised
 * @param nemesisLog      what the nemesis did, one line per step
 * @param linearizability the checker's verdict on the recorded history
 * @param load            the load run during the faults
 */
@RecordBuilder
public record ChaosDocument(String kind, String scenario, String nemesis, String faultFor, String interval, boolean restart,
                            String failover, Map<String, Object> spec, List<Availability.Result> faults,
                            Availability.Summary availability, List<String> nemesisLog, Check linearizability,
                            LoadResult load) {

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
