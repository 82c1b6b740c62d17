package io.cpbench.topology;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Finds a run of consecutive free ports, so a run does not collide with a Hazelcast already on 5701. */
final class FreePorts {

    private FreePorts() {
    }

    static int consecutive(String host, int count, int from) {
        for (int start = from; start + count < 65535; start += count) {
            if (allFree(host, start, count)) {
                return start;
            }
        }
        throw new TopologyException("no " + count + " consecutive free ports on " + host + " from " + from);
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
