package io.cpbench.topology;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Finds a run of consecutive free ports, so a run does not collide with a Hazelcast already on 5701. */
public final class FreePorts {

    private FreePorts() {
    }

    /** The first run of {@code count} ports from {@code from} that are free on every one of {@code hosts}. */
    public static int consecutive(java.util.List<String> hosts, int count, int from) {
        for (int start = from; start + count < 65535; start += count) {
            int first = start;
            if (hosts.stream().allMatch(host -> allFree(host, first, count))) {
                return start;
            }
        }
        throw new TopologyException("no " + count + " consecutive free ports on " + String.join(" and ", hosts) + " from " + from);
    }

    static boolean allFree(String host, int start, int count) {
        for (int port = start; port < start + count; port++) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(false);
                socket.bind(new java.net.InetSocketAddress(InetAddress.getByName(host), port));
            } catch (IOException inUse) {
                return false;
            }
        }
        return true;
    }
}
