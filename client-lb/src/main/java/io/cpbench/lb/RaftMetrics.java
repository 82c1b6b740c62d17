package io.cpbench.lb;

import com.hazelcast.client.impl.clientside.HazelcastClientInstanceImpl;
import com.hazelcast.client.impl.protocol.ClientMessage;
import com.hazelcast.client.impl.protocol.codec.MCReadMetricsCodec;
import com.hazelcast.client.impl.spi.impl.ClientInvocation;
import com.hazelcast.internal.metrics.MetricConsumer;
import com.hazelcast.internal.metrics.MetricDescriptor;
import com.hazelcast.internal.metrics.impl.MetricsCompressor;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads what a stock Hazelcast 5.4 member says about its Raft role, with no cp-bench class on the member. Members
 * publish per CP group a {@code raft.group} metric set (term, commit index, log indexes) tagged with the group's
 * name and the member's {@code role} (LEADER, FOLLOWER, CANDIDATE); a plain client reads it with the client-protocol
 * message Management Center uses ({@code MCReadMetrics}, sent to one member by UUID). That is the leader and term
 * from the members' own word, only late: a member refreshes its Raft metrics every
 * {@code hazelcast.diagnostics.metrics.period.seconds} (60 by default) and its metric set every
 * {@code hazelcast.metrics.collection.frequency} (5 by default), so a reading can be that old. It works unless the
 * members restrict management tasks ({@code management-center trusted-interfaces}) or metrics are off.
 *
 * <p>Uses Hazelcast 5.4 client and metrics internals.
 */
public final class RaftMetrics {

    /**
     * One member's newest Raft metrics for one CP group.
     *
     * @param member      the member asked
     * @param role        its role as it last published it: LEADER, FOLLOWER, CANDIDATE or NONE
     * @param term        its term then
     * @param commitIndex its commit index then
     * @param collectedAt when the member collected the metric set (member's clock, epoch ms); the Raft values in it
     *                    may be up to one publication period older
     */
    public record Reading(UUID member, String role, int term, long commitIndex, long collectedAt,
                          long collectedAfterNanos) {
        public boolean leads() {
            return "LEADER".equals(role);
        }

        boolean sameRaftStateAs(Reading other) {
            return role.equals(other.role) && term == other.term && commitIndex == other.commitIndex;
        }
    }

    private final HazelcastClientInstanceImpl client;
    private final String groupName;
    private final Map<UUID, Long> nextSequence = new ConcurrentHashMap<>();
    private final Map<UUID, Reading> latest = new ConcurrentHashMap<>();
    private final Map<UUID, Long> lastPoll = new ConcurrentHashMap<>();
    private final Map<UUID, Long> publishedAfter = new ConcurrentHashMap<>();

    public RaftMetrics(HazelcastClientInstanceImpl client, String groupName) {
        this.client = client;
        this.groupName = groupName;
    }

    /**
     * Asks one member for the metric sets it collected since the last call (waiting for its next collection when there
     * is none yet) and completes with its newest reading
     * for the group (the previous one when nothing new was collected; empty when the member publishes none for the
     * group: not a CP member of it, metrics off, or Raft metrics not yet published once after the member started).
     * Fails as the invocation does (for example when the member forbids management tasks).
     */
    public CompletableFuture<Optional<Reading>> read(UUID member) {
        // The member answers once it has collected a metric set newer than the last one read (a long poll of up to
        // hazelcast.metrics.collection.frequency): callers asking again meanwhile share the call in flight.
        CompletableFuture<Optional<Reading>> pending = inFlight.get(member);
        if (pending != null) {
            return pending;
        }
        CompletableFuture<Optional<Reading>> call = send(member);
        inFlight.put(member, call);
        call.whenComplete((r, e) -> inFlight.remove(member, call));
        return call;
    }

    private final Map<UUID, CompletableFuture<Optional<Reading>>> inFlight = new ConcurrentHashMap<>();

    private CompletableFuture<Optional<Reading>> send(UUID member) {
        ClientMessage request = MCReadMetricsCodec.encodeRequest(member, nextSequence.getOrDefault(member, 0L));
        // Every metric set this call returns was collected after the previous call to this member was sent.
        Long previousPoll = lastPoll.put(member, System.nanoTime());
        long collectedAfter = previousPoll == null ? Long.MIN_VALUE : previousPoll;
        return new ClientInvocation(client, request, null, member).invoke().thenApply(response -> {
            MCReadMetricsCodec.ResponseParameters answer = MCReadMetricsCodec.decodeResponse(response);
            nextSequence.put(member, answer.nextSequence);
            for (Map.Entry<Long, byte[]> collection : answer.elements) {
                Reading reading = parse(member, collection.getKey(), collection.getValue(), collectedAfter);
                Reading previous = latest.get(member);
                if (reading != null && (previous == null || previous.collectedAt() <= reading.collectedAt())) {
                    if (previous != null && !reading.sameRaftStateAs(previous) && previous.collectedAfterNanos() != Long.MIN_VALUE) {
                        // New Raft values: the member published them after it collected the previous set.
                        publishedAfter.merge(member, previous.collectedAfterNanos(), Math::max);
                    }
                    latest.put(member, reading);
                }
            }
            return Optional.ofNullable(latest.get(member));
        });
    }

    /** The newest reading seen from each member so far. */
    public Map<UUID, Reading> latest() {
        return Map.copyOf(latest);
    }

    /**
     * Whether the member is known to have published its Raft metrics after {@code nanoTime} (this JVM's
     * {@link System#nanoTime()}): true once a reading with new Raft values arrived whose predecessor was collected
     * after that moment. Values change only when something happens, so a caller that needs fresh readings writes to
     * the group between reads (the commit index moves with every write).
     */
    public boolean publishedSince(UUID member, long nanoTime) {
        Long after = publishedAfter.get(member);
        return after != null && after - nanoTime >= 0;
    }

    /** Forgets a member (it left; a member that comes back under the same UUID starts afresh). */
    public void forget(UUID member) {
        latest.remove(member);
        nextSequence.remove(member);
        lastPoll.remove(member);
        publishedAfter.remove(member);
    }

    private Reading parse(UUID member, long collectedAt, byte[] blob, long collectedAfter) {
        String[] role = {null};
        long[] values = {-1, -1};
        MetricsCompressor.extractMetrics(blob, new MetricConsumer() {
            @Override
            public void consumeLong(MetricDescriptor descriptor, long value) {
                if (!"raft.group".equals(descriptor.prefix()) || !groupName.equals(descriptor.tagValue("name"))) {
                    return;
                }
                role[0] = descriptor.tagValue("role");
                if ("term".equals(descriptor.metric())) {
                    values[0] = value;
                } else if ("commitIndex".equals(descriptor.metric())) {
                    values[1] = value;
                }
            }

            @Override
            public void consumeDouble(MetricDescriptor descriptor, double value) {
                // Raft metrics are all longs.
            }
        });
        return role[0] == null || values[0] < 0 ? null
                : new Reading(member, role[0], (int) values[0], values[1], collectedAt, collectedAfter);
    }
}
