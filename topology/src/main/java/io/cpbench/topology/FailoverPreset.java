package io.cpbench.topology;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.cp.RaftAlgorithmConfig;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How fast a CP cluster and its clients notice a failed leader and move on: Raft's failure detector, the
 * members' own, and the clients' invocation timeout and retry. Members and clients must use the same preset.
 *
 * <p>{@link #DEFAULTS} is Hazelcast 5.4's: a leader heartbeat every 5 s and 5 missed beats before an election,
 * so a paused leader is replaced after about 25 s (DESIGN.md, fact 13); a client retries every 1 s and gives up
 * after 120 s. {@link #FAST} detects a silent leader after 1.5 s (3 missed beats of 500 ms), has members declare a
 * silent member dead after 5 s (meant to make calls forwarded to a paused member fail over rather than wait out the
 * pause; not yet measured), and lets clients retry every 50 ms and drop a silent connection after 5 s.
 *
 * @param leaderHeartbeatMillis     {@code RaftAlgorithmConfig.leaderHeartbeatPeriodInMillis}
 * @param maxMissedHeartbeats       {@code RaftAlgorithmConfig.maxMissedLeaderHeartbeatCount}
 * @param electionTimeoutMillis     {@code RaftAlgorithmConfig.leaderElectionTimeoutInMillis}
 * @param memberHeartbeatSeconds    {@code hazelcast.heartbeat.interval.seconds} (0: Hazelcast's default)
 * @param memberMaxSilenceSeconds   {@code hazelcast.max.no.heartbeat.seconds} (0: Hazelcast's default)
 * @param clientHeartbeatTimeoutMs  {@code hazelcast.client.heartbeat.timeout} (0: Hazelcast's default)
 * @param clientRetryPauseMillis    {@code hazelcast.client.invocation.retry.pause.millis} (0: Hazelcast's default)
 * @param clientInvocationTimeoutS  {@code hazelcast.client.invocation.timeout.seconds} (0: Hazelcast's default)
 * @param failOnIndeterminate       {@code CPSubsystemConfig.failOnIndeterminateOperationState} and the client's
 *                                  {@code hazelcast.client.fail.on.indeterminate.operation.state}: an op whose leader
 *                                  failed before answering ends in {@code IndeterminateOperationStateException}
 *                                  instead of being retried. Hazelcast's default (false) retries it, which can apply
 *                                  it twice: a chaos run with the defaults saw an increment counted twice.
 */
public record FailoverPreset(String name, int leaderHeartbeatMillis, int maxMissedHeartbeats, int electionTimeoutMillis,
                             int memberHeartbeatSeconds, int memberMaxSilenceSeconds, int clientHeartbeatTimeoutMs,
                             int clientRetryPauseMillis, int clientInvocationTimeoutS, boolean failOnIndeterminate) {

    public static final FailoverPreset DEFAULTS = new FailoverPreset("default", 5000, 5, 2000, 0, 0, 0, 0, 0, false);
    public static final FailoverPreset FAST = new FailoverPreset("fast", 500, 3, 1000, 1, 5, 5000, 50, 30, true);

    /** @throws IllegalArgumentException naming the presets */
    public static FailoverPreset of(String name) {
        for (FailoverPreset p : new FailoverPreset[]{DEFAULTS, FAST}) {
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
        }
    }

    /** Applies the client side. */
    public void apply(ClientConfig config) {
        if (clientHeartbeatTimeoutMs > 0) {
            config.setProperty("hazelcast.client.heartbeat.interval", Integer.toString(Math.max(500, clientHeartbeatTimeoutMs / 5)));
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

    /** {@code fast (Raft heartbeat 500 ms x 3, election 1000 ms; members silent 5 s; clients retry 50 ms, ...)}. */
    public String describe() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%s (Raft heartbeat %d ms x %d, election %d ms",
                name, leaderHeartbeatMillis, maxMissedHeartbeats, electionTimeoutMillis));
        if (memberMaxSilenceSeconds > 0) {
            b.append(String.format(Locale.ROOT, "; members: heartbeat %d s, dead after %d s", memberHeartbeatSeconds, memberMaxSilenceSeconds));
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
        return Arrays.stream(new FailoverPreset[]{DEFAULTS, FAST}).map(FailoverPreset::name).collect(Collectors.joining(", "));
    }
}
