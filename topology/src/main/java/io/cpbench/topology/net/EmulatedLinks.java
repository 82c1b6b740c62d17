package io.cpbench.topology.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Which connections of an emulated network cross the emulator's proxies.
 * <ul>
 * <li>{@link #ALL}: every connection, member to member and client to member. Any member can be slowed down or cut
 *     off; each Raft round trip then crosses the proxies twice more, which costs a 2-core machine about a quarter of
 *     its op/s (README, "Network (b) on one machine").</li>
 * <li>{@link #slowMember(int)}: every connection of member S, the one network (b) slows, to clients and to members
 *     alike. Members announce names ({@link #memberName(int)}); each member process resolves them through a hosts file
 *     of its own ({@link #hostsFile(int, int, String)}): S's name and, in S, every other name, to
 *     {@link #PROXY_ADDRESS}, where the emulator's proxies for member links listen on the members' own ports; the
 *     rest to the members themselves. Clients reach S through a proxy and the others directly. S's links, and only
 *     S's, cross a proxy, in network (a) and (b) alike; every other link is direct both times. Only S can be slowed;
 *     partitions need {@link #ALL}.</li>
 * </ul>
 * Member processes only (the local topology, {@code io.cpbench.topology}), and only where {@value #PROXY_ADDRESS} can
 * be bound (Linux routes all of 127.0.0.0/8 to loopback): elsewhere {@link #ALL} is used.
 *
 * @param slowMember the member whose links cross the proxies, or -1 for every link
 */
public record EmulatedLinks(int slowMember) {

    public static final EmulatedLinks ALL = new EmulatedLinks(-1);

    /** Where the proxies for the slow member's links listen: a second loopback address, so ports need not differ. */
    public static final String PROXY_ADDRESS = "127.0.0.2";

    public EmulatedLinks {
        if (slowMember < -1) {
            throw new IllegalArgumentException("slow member must be a member's index (or -1 for every link), was " + slowMember);
        }
    }

    public static EmulatedLinks slowMember(int member) {
        if (member < 0) {
            throw new IllegalArgumentException("slow member must be a member's index, was " + member);
        }
        return new EmulatedLinks(member);
    }

    public boolean all() {
        return slowMember < 0;
    }

    /** The name member {@code i} announces to members when only the slow member's links are proxied. */
    public static String memberName(int i) {
        return "cpbench-member-" + i;
    }

    /**
     * The hosts file member {@code member} resolves member names with: a name resolves to the proxy address when
     * exactly one of the two ends is the slow member, else to {@code host}.
     */
    public String hostsFile(int member, int memberCount, String host) {
        if (all()) {
            throw new IllegalStateException("with every link proxied, members announce addresses, not names");
        }
        List<String> lines = new ArrayList<>();
        lines.add("# cp-bench: member " + member + "'s view of the cluster; member " + slowMember
                + "'s links cross the network emulator at " + PROXY_ADDRESS);
        lines.add("127.0.0.1 localhost " + localHostName());
        for (int j = 0; j < memberCount; j++) {
            boolean proxied = j != member && (member == slowMember || j == slowMember);
            lines.add((proxied ? PROXY_ADDRESS : host) + " " + memberName(j));
        }
        return String.join("\n", lines) + "\n";
    }

    /**
     * This machine's name, for the hosts file: a JVM told to use one resolves every name through it alone, its own
     * name included.
     */
    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException unknown) {
            return "localhost.localdomain";
        }
    }

    /** Whether {@value #PROXY_ADDRESS} can be listened on here (Linux routes all of 127.0.0.0/8 to loopback). */
    public static boolean proxyAddressUsable() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(PROXY_ADDRESS), 0));
            return true;
        } catch (IOException notHere) {
            return false;
        }
    }

    /** What the emulator's description adds for these links. */
    public String describe() {
        return all() ? "" : ", for member-" + slowMember + "'s links only";
    }
}
