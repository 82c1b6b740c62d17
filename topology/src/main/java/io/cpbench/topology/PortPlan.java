package io.cpbench.topology;

/**
 * The ports of a started cluster. Members are announced at {@code announcedFirst + i}; with network emulation a
 * proxy listens there and the member itself binds {@code boundFirst + i} and opens its own connections from its
 * block of {@value #OUTBOUND_PER_MEMBER} ports at {@code outboundFirst}. All below the usual ephemeral port ranges.
 */
record PortPlan(int announcedFirst, int boundFirst, int outboundFirst) {

    static final int OUTBOUND_PER_MEMBER = 32;
    static final int SEARCH_FROM = 5701;

    static PortPlan pick(TopologySpec spec) {
        int n = spec.memberCount();
        int announced;
        if (spec.basePort() == 0) {
            announced = FreePorts.consecutive(spec.host(), n, SEARCH_FROM);
        } else if (FreePorts.allFree(spec.host(), spec.basePort(), n)) {
            announced = spec.basePort();
        } else {
            throw new TopologyException("ports " + spec.basePort() + "-" + (spec.basePort() + n - 1) + " on "
                    + spec.host() + " are not all free; choose another base port or 0 to pick free ones");
        }
        if (!spec.emulateNetwork()) {
            return new PortPlan(announced, announced, 0);
        }
        int bound = FreePorts.consecutive(spec.host(), n, announced + 100);
        int outbound = FreePorts.consecutive(spec.host(), n * OUTBOUND_PER_MEMBER, bound + 100);
        return new PortPlan(announced, bound, outbound);
    }

    /** The same announced ports with no emulator in front. */
    PortPlan direct() {
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
