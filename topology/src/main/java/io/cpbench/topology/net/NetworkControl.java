package io.cpbench.topology.net;

import java.time.Duration;
import java.util.OptionalInt;

/**
 * Switches a cluster between network (a), plain, and network (b), where one member's outgoing traffic arrives
 * late. Switching takes effect at once, on open connections too, without restarting anything.
 */
public interface NetworkControl {

    /** Delays every byte that member {@code memberIndex} sends, to members and clients alike, by {@code delay}. */
    void slowDown(int memberIndex, Duration delay);

    /** Network (a): no added delay anywhere. */
    void clear();

    /** The member whose traffic is delayed now, if any. */
    OptionalInt slowMember();

    /** The one-way delay added now (zero in network (a)). */
    Duration delay();

    /**
     * Bytes that clients (anything but members) have sent to each member so far through the network's proxies, by
     * member index. Empty where the network is not observed; with only the slow member's links proxied
     * ({@link EmulatedLinks}), only the slow member's count grows (clients reach the others directly).
     */
    default java.util.Map<Integer, Long> bytesFromClients() {
        return java.util.Map.of();
    }

    /** How the condition is produced, for results: "user-space TCP proxy", "tc netem", ... */
    String method();
}
