package io.cpbench.topology;

import com.hazelcast.client.impl.clientside.HazelcastClientProxy;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPGroup;
import io.cpbench.lb.RaftMetrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Leader and term of the CP {@code default} group as stock members (without cp-bench's classes) publish them in their
 * Raft metrics: as of their last publication. Each read also makes one write to the group (an increment of
 * {@code cpbench-probe}), so that every publication carries new values and fresh ones can be told from old ones
 * ({@link RaftMetrics#publishedSince}).
 */
final class MetricsLeadership {

    private final HazelcastInstance admin;
    private final Duration timeout;
    private final RaftMetrics reader;

    MetricsLeadership(HazelcastInstance admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
        this.reader = new RaftMetrics(((HazelcastClientProxy) admin).client, CPGroup.DEFAULT_GROUP_NAME);
    }

    /**
     * What the members published.
     *
     * @param answers each member's reading (one that published none: not answered)
     * @param leader  the address of the member that leads in the highest term any member reports; null when none does
     * @param term    that term (the highest seen when no member leads in it)
     * @param error   the last member that could not be read, and why; null when all were
     */
    record Readings(List<LeaderQuery.Answer> answers, String leader, int term, String error) {
    }

    Readings read() {
        try {
            admin.getCPSubsystem().getAtomicLong("cpbench-probe").incrementAndGetAsync()
                    .toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception ignored) {
            // No leader just now: the readings say so.
        }
        List<LeaderQuery.Answer> answers = new ArrayList<>();
        RaftMetrics.Reading leading = null;
        String leadingAddress = null;
        String error = null;
        int maxTerm = -1;
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<Member, CompletableFuture<Optional<RaftMetrics.Reading>>> pending = new LinkedHashMap<>();
        for (Member member : admin.getCluster().getMembers()) {
            pending.put(member, reader.read(member.getUuid())); // all at once: each may wait for its next collection
        }
        for (var entry : pending.entrySet()) {
            String address = LeaderQuery.addressOf(entry.getKey().getAddress());
            Optional<RaftMetrics.Reading> reading;
            try {
                reading = entry.getValue().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (Exception unanswered) {
                error = "metrics of " + address + ": " + (unanswered.getCause() == null ? unanswered : unanswered.getCause());
                continue;
            }
            if (reading.isEmpty()) {
                answers.add(new LeaderQuery.Answer(address, false, null, -1, 0));
                continue;
            }
            RaftMetrics.Reading r = reading.get();
            answers.add(new LeaderQuery.Answer(address, true, r.leads() ? address : null, r.term(), 0));
            maxTerm = Math.max(maxTerm, r.term());
            if (r.leads() && (leading == null || r.term() > leading.term())) {
                leading = r;
                leadingAddress = address;
            }
        }
        if (leading == null || leading.term() < maxTerm) {
            return new Readings(answers, null, maxTerm, error);
        }
        return new Readings(answers, leadingAddress, leading.term(), error);
    }

    /** Whether every live member has published its Raft metrics since {@code nanoTime}. */
    boolean freshSince(long nanoTime) {
        for (Member member : admin.getCluster().getMembers()) {
            if (!reader.publishedSince(member.getUuid(), nanoTime)) {
                return false;
            }
        }
        return true;
    }
}
