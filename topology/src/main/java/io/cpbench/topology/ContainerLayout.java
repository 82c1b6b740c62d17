package io.cpbench.topology;

/**
 * Where members and clients reach each member: plain (by alias; clients on published ports) or through the
 * emulator's proxies (members via the gateway, clients via loopback).
 */
record ContainerLayout(boolean emulated, boolean netem, String subnetPrefix, PortPlan ports, int memberProxyFirst) {

    /** The host's address on the run's Docker network, where the members' proxies listen. */
    String gateway() {
        return ContainerTopology.gatewayOf(subnetPrefix);
    }

    /** The member's own address on the run's Docker network, which this host routes to. */
    String ip(int i) {
        return subnetPrefix + (10 + i);
    }

    String alias(String clusterName, int i) {
        return clusterName + "-m" + i;
    }

    /** The host port published for the member's client port (for a look with a client by hand, under the emulator). */
    int publishedClientPort(int i) {
        return emulated ? ports.bound(i) : ports.announced(i);
    }
}
