package io.cpbench.topology;

import com.hazelcast.client.config.ClientConfig;

import java.time.Duration;
import java.util.List;

/** The client settings every cp-bench client shares: cluster, addresses, and bounded waits. */
public final class ClusterClientConfig {

    private ClusterClientConfig() {
    }

    /**
     * A client config for the given cluster that gives up connecting after {@code connectTimeout} instead of
     * retrying forever, and does not shuffle its addresses (docs/hazelcast-facts.md, fact 4). Callers add routing.
     */
    public static ClientConfig forCluster(String clusterName, List<String> addresses, Duration connectTimeout) {
        ClientConfig config = new ClientConfig();
        config.setClusterName(clusterName);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.client.shuffle.member.list", "false");
        // cp-bench owns the shutdown order; Hazelcast's own hook would close the client under a running op.
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        // Client metrics go to one member every few seconds: traffic that is neither the workload nor needed.
        config.getMetricsConfig().setEnabled(false);
        config.getNetworkConfig().setAddresses(List.copyOf(addresses));
        config.getNetworkConfig().setConnectionTimeout((int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()));
        config.getConnectionStrategyConfig().getConnectionRetryConfig()
                .setClusterConnectTimeoutMillis(connectTimeout.toMillis())
                .setInitialBackoffMillis(200)
                .setMaxBackoffMillis(2000);
        return config;
    }

    /**
     * A client for cp-bench's own calls (leadership checks, cleanup), not for the workload: every call bounded by
     * 30 s; a {@link TopologyException} with one line if no member answers within {@code connectTimeout}.
     */
    public static com.hazelcast.core.HazelcastInstance admin(String clusterName, List<String> addresses,
                                                             Duration connectTimeout, String instanceName) {
        ClientConfig config = forCluster(clusterName, addresses, connectTimeout);
        config.setInstanceName(instanceName);
        config.setProperty("hazelcast.client.invocation.timeout.seconds", "30");
        try {
            return com.hazelcast.client.HazelcastClient.newHazelcastClient(config);
        } catch (IllegalStateException e) {
            throw new TopologyException("cannot reach cluster '" + clusterName + "' at " + addresses + " within "
                    + connectTimeout.toSeconds() + " s", e);
        }
    }
}
