package io.cpbench.topology;

import io.cpbench.topology.net.EmulatedLinks;

import java.util.List;

/**
 * The ports of a started cluster. Clients reach member i at {@code announcedFirst + i}. Without network emulation the
 * member binds that port itself. With it, a proxy listens there:
 * <ul>
 * <li>every link proxied ({@link EmulatedLinks#ALL}): members announce the proxy's port to members too, and bind
 *     {@code boundFirst + i};</li>
 * <li>the slow member's links only: members bind {@code boundFirst + i} for members (announced as a name, reached
 *     directly or through a proxy on {@link EmulatedLinks#PROXY_ADDRESS}'s same port); for clients, the slow member
 *     binds {@code slowClientPort} behind the proxy, the others bind the announced port themselves.</li>
 * </ul>
 * Emulated members open their own connections from a block of {@value #OUTBOUND_PER_MEMBER} ports at
 * {@code outboundFirst}. All below the usual ephemeral port ranges.
 *
 * @param slowClientPort with only the slow member's links proxied, the client port it binds behind its proxy; else 0
 * @param links            which links cross the emulator ({@link EmulatedLinks#ALL} without emulation)
 */
record PortPlan(int announcedFirst, int boundFirst, int outboundFirst, int slowClientPort, EmulatedLinks links) {

    static final int OUTBOUND_PER_MEMBER = 32;
    static final int SEARCH_FROM = 5701;

    PortPlan(int announcedFirst, int boundFirst, int outboundFirst) {
        this(announcedFirst, boundFirst, outboundFirst, 0, EmulatedLinks.ALL);
    }

    /**
     * Free ports for {@code spec}'s cluster. {@code leanAllowed}: whether this topology can proxy the slow member's
     * links alone (member processes can; members in this JVM or in containers cannot); where it cannot, or where
     * the proxy address cannot be bound, every link is proxied.
     */
    static PortPlan pick(TopologySpec spec, boolean leanAllowed) {
        int n = spec.memberCount();
        int announced;
        if (spec.basePort() == 0) {
            announced = FreePorts.consecutive(List.of(spec.host()), n, SEARCH_FROM);
        } else if (FreePorts.claimNamed(List.of(spec.host()), spec.basePort(), n)) {
            announced = spec.basePort();
        } else {
            throw new TopologyException("ports " + spec.basePort() + "-" + (spec.basePort() + n - 1) + " on "
                    + spec.host() + " are not all free; choose another base port or 0 to pick free ones");
        }
        if (!spec.emulateNetwork()) {
            return new PortPlan(announced, announced, 0);
        }
        boolean lean = leanAllowed && !spec.links().all() && EmulatedLinks.proxyAddressUsable();
        if (!lean) {
            int bound = FreePorts.consecutive(List.of(spec.host()), n, announced + 100);
            int outbound = FreePorts.consecutive(List.of(spec.host()), n * OUTBOUND_PER_MEMBER, bound + 100);
            return new PortPlan(announced, bound, outbound);
        }
        int bound = FreePorts.consecutive(List.of(spec.host(), EmulatedLinks.PROXY_ADDRESS), n, announced + 100);
        int slowClient = FreePorts.consecutive(List.of(spec.host()), 1, bound + 100);
        int outbound = FreePorts.consecutive(List.of(spec.host()), n * OUTBOUND_PER_MEMBER, slowClient + 100);
        return new PortPlan(announced, bound, outbound, slowClient, spec.links());
    }

    /**
     * Gives back this process's claims on every port of the plan ({@link FreePorts}): announced, bound, the slow
     * member's client port and the outbound blocks.
     */
    void release(int members) {
        FreePorts.release(announcedFirst, members);
        releaseBehind(members);
    }

    /** Gives back the claims on all but the announced ports. */
    private void releaseBehind(int members) {
        if (boundFirst != announcedFirst) {
            FreePorts.release(boundFirst, members);
        }
        if (slowClientPort != 0) {
            FreePorts.release(slowClientPort, 1);
        }
        if (outboundFirst != 0) {
            FreePorts.release(outboundFirst, members * OUTBOUND_PER_MEMBER);
        }
    }

    /** The same announced ports with no emulator in front; the other ports' claims are given back. */
    PortPlan direct(int members) {
        releaseBehind(members);
        return new PortPlan(announcedFirst, announcedFirst, 0);
    }

    int announced(int member) {
        return announcedFirst + member;
    }

    int bound(int member) {
        return boundFirst + member;
    }

    boolean emulated() {
        return outboundFirst != 0;
    }

    /** Whether only the slow member's links cross the emulator. */
    boolean lean() {
        return emulated() && !links.all();
    }

    /** The port member {@code member} binds for clients, with only the slow member's links proxied. */
    int clientPort(int member) {
        if (!lean()) {
            throw new IllegalStateException("members have a client port of their own only when the slow member's links alone are proxied");
        }
        return member == links.slowMember() ? slowClientPort : announced(member);
    }

    int outboundFrom(int member) {
        return outboundFirst + member * OUTBOUND_PER_MEMBER;
    }

    int outboundTo(int member) {
        return outboundFrom(member) + OUTBOUND_PER_MEMBER - 1;
    }

    /** The member's outbound range in Hazelcast's "from-to" form, or null when members may use any port. */
    String outboundRange(int member) {
        return emulated() ? outboundFrom(member) + "-" + outboundTo(member) : null;
    }
}
