package io.cpbench.topology;

import java.util.List;

/**
 * A stock member's XML configuration, as a user would write it for {@code HazelcastMemberStarter}: the same
 * settings cp-bench's member launcher applies in code ({@link MemberSettings#toConfig()}) where a stock member can
 * have them, and Hazelcast's defaults for everything else. 5.3.8 and 5.4.0 members have run from it (local and
 * in containers); elements of later schemas are left out.
 */
final class StockXml {

    private StockXml() {
    }

    /**
     * @param settings       cluster name, addresses, CP priority and rebalance period; with a client endpoint the
     *                       member uses advanced networking (members on one port announced as {@code host:publicPort},
     *                       clients on another announced at its public address, every interface of its container
     *                       bound), else one port bound to {@code host} alone ({@code hazelcast.socket.bind.any} false:
     *                       without it Hazelcast listens on every interface whatever the interfaces element says)
     * @param metricsSeconds how often the member publishes its metrics (and collects them, at most every 5 s), which
     *                       is how cp-bench reads a stock member's leadership
     */
    static String of(MemberSettings settings, int metricsSeconds) {
        StringBuilder join = new StringBuilder();
        for (String address : settings.members()) {
            join.append("                    <member>").append(address).append("</member>\n");
        }
        String tcpIp = """
                        <join>
                            <auto-detection enabled="false"/>
                            <multicast enabled="false"/>
                            <tcp-ip enabled="true" connection-timeout-seconds="1"> <!-- docs/hazelcast-facts.md, fact 16 -->
                %s                </tcp-ip>
                        </join>
                """.formatted(join);
        String network;
        if (settings.clientEndpoint() == null) {
            network = """
                        <network>
                            <public-address>%s</public-address>
                            <port auto-increment="false">%d</port>
                    %s            <interfaces enabled="true"><interface>%s</interface></interfaces>
                        </network>
                    """.formatted(settings.memberAddress(), settings.port(), indent(tcpIp), settings.host());
        } else {
            network = """
                        <advanced-network enabled="true">
                    %s            <member-server-socket-endpoint-config>
                                <port auto-increment="false">%d</port>
                                <public-address>%s</public-address>
                            </member-server-socket-endpoint-config>
                            <client-server-socket-endpoint-config>
                                <port auto-increment="false">%d</port>
                                <public-address>%s</public-address>
                            </client-server-socket-endpoint-config>
                        </advanced-network>
                    """.formatted(indent(tcpIp), settings.port(), settings.memberAddress(),
                    settings.clientEndpoint().port(), settings.clientEndpoint().publicAddress());
        }
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <hazelcast xmlns="http://www.hazelcast.com/schema/config">
                    <cluster-name>%s</cluster-name>
                    <properties>
                        <property name="hazelcast.phone.home.enabled">false</property>
                        <property name="hazelcast.raft.leadership.rebalance.period">%d</property>
                        <property name="hazelcast.diagnostics.metrics.period.seconds">%d</property>
                        <property name="hazelcast.metrics.collection.frequency">%d</property>
                        <property name="hazelcast.logging.type">jdk</property>
                        <property name="hazelcast.socket.bind.any">%b</property>
                    </properties>
                %s    <cp-subsystem>
                        <cp-member-count>%d</cp-member-count>
                        <cp-member-priority>%d</cp-member-priority>
                    </cp-subsystem>
                </hazelcast>
                """.formatted(settings.clusterName(), settings.rebalancePeriodSeconds(), metricsSeconds,
                Math.min(5, metricsSeconds), settings.clientEndpoint() != null, network, settings.members().size(),
                settings.priority());
    }

    private static String indent(String lines) {
        return String.join("\n", lines.lines().map(l -> "    " + l).toList()) + "\n";
    }

    /**
     * The members' command line after {@code java}: no cp-bench class, the stock starter reads {@code config}.
     *
     * @param extra JVM options after the members' own ({@link ChildJvmOptions})
     */
    static List<String> jvmArgs(String config, String jar, List<String> extra) {
        List<String> args = new java.util.ArrayList<>(MemberCommand.HAZELCAST_JVM_FLAGS);
        args.addAll(List.of("-Xms256m", "-Xmx512m"));
        args.addAll(extra);
        args.addAll(List.of("-Dhazelcast.config=" + config, "-cp", jar, StockCluster.STARTER));
        return args;
    }
}
