package io.cpbench.topology;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.cp.RaftAlgorithmConfig;
import io.soabase.recordbuilder.core.RecordBuilder;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How fast a CP cluster and its clients notice a failed leader and move on: Raft's failure detector, the
 * members' own, and the clients' invocation timeout and retry. Members and clients must use the same preset.
 *
 * <p>{@link #DEFAULTS} is Hazelcast 5.4's: a leader heartbeat every 5 s and 5 missed beats before an election,
 * so a paused leader is replaced after about 25 s (docs/hazelcast-facts.md, fact 13); a member is declared dead after 60 s of
 * silence, a client drops a silent connection after 60 s, retries every 1 s and gives up after 120 s.
 *
 * <p>Why a call can wait out a whole pause with the defaults (Hazelcast 5.4's sources): a call reaches the leader
 * either from a client connected to it, or through a follower's {@code RaftInvocation}. Either waits on a live TCP
 * connection to a stopped process. Nothing re-sends a pending Raft call when a new leader is elected:
 * {@code RaftInvocation} retries only on NotLeader, LeaderDemoted, StaleAppendRequest, MemberLeft, CallerNotMember
 * and TargetNotMember, and forgets its known leader only on those. A stopped member sends none of them, and an
 * election does not change a member's known leader either ({@code RaftInvocationContext}), so new calls, even those
 * sent to the new leader itself, are handed to the stopped member too. The call
 * ends when the member is removed from the cluster ({@code hazelcast.max.no.heartbeat.seconds}, 60 s), when the
 * operation call timeout runs out (60 s, plus 60 s without an operation heartbeat), when the client drops the
 * connection ({@code hazelcast.client.heartbeat.timeout}, 60 s), or when the member resumes and answers
 * NotLeader: for a pause under 60 s, the last.
 *
 * <p>{@link #FAST} shortens the detectors as far as this 2-core machine bore: Raft starts an election 150 ms after
 * the leader's last beat (3 missed beats of 50 ms; each follower checks every 50-1,050 ms, from the election timeout
 * up, Hazelcast's range being fixed at 1,000 ms, so the election timeout sets the earliest check); members retry a Raft call every 50 ms instead of 500 ms and declare a silent member dead
 * after 5 s (heartbeats every 1 s), which fails the calls pending on a paused leader with MemberLeftException and
 * sends them to the new one (a member removed this way tries to merge back every 5 s instead of after 300 s;
 * how long the merge then takes was not measured, and the study saw long stalls after it); clients drop a
 * connection silent for 2 s and retry every 50 ms. An op whose leader failed mid-call ends indeterminate instead of
 * being retried (see {@code failOnIndeterminate}). Declaring members dead after 2 s was tried and is not offered:
 * when the paused leader was also the cluster's master, the survivors suspected each other under load, the cluster
 * fell apart into single members, and ops stalled for up to 68 s.
 *
 * @param leaderHeartbeatMillis     {@code RaftAlgorithmConfig.leaderHeartbeatPeriodInMillis}
 * @param maxMissedHeartbeats       {@code RaftAlgorithmConfig.maxMissedLeaderHeartbeatCount}
 * @param electionTimeoutMillis     {@code RaftAlgorithmConfig.leaderElectionTimeoutInMillis}
 * @param memberHeartbeatSeconds    {@code hazelcast.heartbeat.interval.seconds} (0: Hazelcast's default)
 * @param memberMaxSilenceSeconds   {@code hazelcast.max.no.heartbeat.seconds} (0: Hazelcast's default)
 * @param memberRetryPauseMillis    {@code hazelcast.invocation.retry.pause.millis} (0: Hazelcast's default)
 * @param clientHeartbeatTimeoutMs  {@code hazelcast.client.heartbeat.timeout} (0: Hazelcast's default)
 * @param clientRetryPauseMillis    {@code hazelcast.client.invocation.retry.pause.millis} (0: Hazelcast's default)
 * @param clientInvocationTimeoutS  {@code hazelcast.client.invocation.timeout.seconds} (0: Hazelcast's default)
 * @param failOnIndeterminate       {@code CPSubsystemConfig.failOnIndeterminateOperationState} and the client's
 *                                  {@code hazelcast.client.fail.on.indeterminate.operation.state}: an op whose leader
 *                                  failed before answering ends in {@code IndeterminateOperationStateException}
 *                                  instead of being retried. Hazelcast's default (false) retries it, which can apply
 *                                  it twice: a chaos run with the defaults saw an increment counted twice.
 */
@RecordBuilder
public record FailoverPreset(String name, int leaderHeartbeatMillis, int maxMissedHeartbeats, int electionTimeoutMillis,
                             int memberHeartbeatSeconds, int memberMaxSilenceSeconds, int memberRetryPauseMillis,
                             int clientHeartbeatTimeoutMs,
                             int clientRetryPauseMillis, int clientInvocationTimeoutS, boolean failOnIndeterminate) {

    public static final FailoverPreset DEFAULTS = FailoverPresetBuilder.builder().name("default")
            .leaderHeartbeatMillis(5000).maxMissedHeartbeats(5).electionTimeoutMillis(2000).build();
    public static final FailoverPreset FAST = FailoverPresetBuilder.builder().name("fast").leaderHeartbeatMillis(50)
            .maxMissedHeartbeats(3).electionTimeoutMillis(50).memberHeartbeatSeconds(1).memberMaxSilenceSeconds(5)
            .memberRetryPauseMillis(50).clientHeartbeatTimeoutMs(2000).clientRetryPauseMillis(50)
            .clientInvocationTimeoutS(30).failOnIndeterminate(true).build();
    /**
     * {@link #FAST}'s Raft and client timing, with Hazelcast's own member failure detection (a member is declared dead
     * after 60 s of silence): for leader-aware clients, which no longer need a paused member removed to move on (their
     * balancer drops the silent leader itself), while a member removed after 5 s merges back when it resumes, and the
     * merges split the cluster under load (seen in all four pause runs with {@code fast} on 2026-11-25). Calls that a follower forwards
     * still wait out a pause, so smart routing is slower with it than with {@code fast}.
     */
    public static final FailoverPreset FAST_RAFT = FailoverPresetBuilder.builder().name("fast-raft")
            .leaderHeartbeatMillis(50).maxMissedHeartbeats(3).electionTimeoutMillis(50).memberRetryPauseMillis(50)
            .clientHeartbeatTimeoutMs(2000).clientRetryPauseMillis(50).clientInvocationTimeoutS(30)
            .failOnIndeterminate(true).build();

    private static final FailoverPreset[] ALL = {DEFAULTS, FAST, FAST_RAFT};

    /** When a member that was declared dead merges back, with a preset that shortens member silence. */
    static final int MERGE_DELAY_SECONDS = 5;

    /** @throws IllegalArgumentException naming the presets */
    public static FailoverPreset of(String name) {
        for (FailoverPreset p : ALL) {
            if (p.name.equalsIgnoreCase(name == null ? "" : name.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown failover preset '" + name + "'; known: " + known());
    }

    /** Applies the member side. */
    public void apply(Config config) {
        RaftAlgorithmConfig raft = config.getCPSubsystemConfig().getRaftAlgorithmConfig();
        raft.setLeaderHeartbeatPeriodInMillis(leaderHeartbeatMillis)
                .setMaxMissedLeaderHeartbeatCount(maxMissedHeartbeats)
                .setLeaderElectionTimeoutInMillis(electionTimeoutMillis);
        if (failOnIndeterminate) {
            config.getCPSubsystemConfig().setFailOnIndeterminateOperationState(true);
        }
        if (memberHeartbeatSeconds > 0) {
            config.setProperty("hazelcast.heartbeat.interval.seconds", Integer.toString(memberHeartbeatSeconds));
        }
        if (memberMaxSilenceSeconds > 0) {
            config.setProperty("hazelcast.max.no.heartbeat.seconds", Integer.toString(memberMaxSilenceSeconds));
            // a member removed while paused must merge back soon, not after the default 300 s, or repeated pauses
            // would whittle the CP group down below its majority
            config.setProperty("hazelcast.merge.first.run.delay.seconds", Integer.toString(MERGE_DELAY_SECONDS));
            config.setProperty("hazelcast.merge.next.run.delay.seconds", Integer.toString(MERGE_DELAY_SECONDS));
        }
        if (memberRetryPauseMillis > 0) {
            config.setProperty("hazelcast.invocation.retry.pause.millis", Integer.toString(memberRetryPauseMillis));
        }
    }

    /** Applies the client side. */
    public void apply(ClientConfig config) {
        if (clientHeartbeatTimeoutMs > 0) {
            config.setProperty("hazelcast.client.heartbeat.interval", Integer.toString(Math.max(400, clientHeartbeatTimeoutMs / 5)));
            config.setProperty("hazelcast.client.heartbeat.timeout", Integer.toString(clientHeartbeatTimeoutMs));
        }
        if (failOnIndeterminate) {
            config.setProperty("hazelcast.client.fail.on.indeterminate.operation.state", "true");
        }
        if (clientRetryPauseMillis > 0) {
            config.setProperty("hazelcast.client.invocation.retry.pause.millis", Integer.toString(clientRetryPauseMillis));
        }
        if (clientInvocationTimeoutS > 0) {
            config.setProperty("hazelcast.client.invocation.timeout.seconds", Integer.toString(clientInvocationTimeoutS));
        }
    }

    /**
     * Sets the client side as system properties, which every Hazelcast client in this JVM reads where its config
     * says nothing: for a CLI whose clients are built in many places.
     */
    public void applyToClientsOfThisJvm() {
        ClientConfig probe = new ClientConfig();
        apply(probe);
        probe.getProperties().forEach((k, v) -> System.setProperty((String) k, (String) v));
    }

    /** {@code fast (Raft heartbeat 200 ms x 3, election 300 ms; members: ...; clients: ...)}. */
    public String describe() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%s (Raft heartbeat %d ms x %d, election %d ms",
                name, leaderHeartbeatMillis, maxMissedHeartbeats, electionTimeoutMillis));
        if (memberMaxSilenceSeconds > 0) {
            b.append(String.format(Locale.ROOT, "; members: heartbeat %d s, dead after %d s, retry every %d ms",
                    memberHeartbeatSeconds, memberMaxSilenceSeconds, memberRetryPauseMillis));
        } else if (memberRetryPauseMillis > 0) {
            b.append(String.format(Locale.ROOT, "; members: dead after Hazelcast's 60 s of silence, retry every %d ms",
                    memberRetryPauseMillis));
        }
        if (clientRetryPauseMillis > 0) {
            b.append(String.format(Locale.ROOT, "; clients: retry every %d ms, connection dead after %d ms, give up after %d s",
                    clientRetryPauseMillis, clientHeartbeatTimeoutMs, clientInvocationTimeoutS));
        }
        if (failOnIndeterminate) {
            b.append("; an op whose leader failed mid-call ends indeterminate instead of being retried");
        }
        return b.append(')').toString();
    }

    public static String known() {
        return Arrays.stream(ALL).map(FailoverPreset::name).collect(Collectors.joining(", "));
    }
}
