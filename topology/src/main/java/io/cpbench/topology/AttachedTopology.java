package io.cpbench.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A cluster that is already running, started by someone else with cp-bench's member launcher (or with its jar
 * on the members' classpath, which the leadership query needs). Starts and stops nothing but its own admin
 * client. The priority member is the one member configured with the highest CP priority; if there is none, the
 * leader found on attaching plays its part.
 */
final class AttachedTopology extends ReachedTopology {

    private AttachedTopology(String clusterName, List<MemberRef> members, MemberRef priority, Leadership leadership) {
        super(clusterName, members, priority, leadership);
    }

    static Topology attach(String clusterName, List<String> addresses, Duration connectTimeout, Duration settle,
                           Duration timeout) {
        if (addresses.isEmpty()) {
            throw new TopologyException("no member addresses given; name at least one as host:port");
        }
        for (String address : addresses) {
            validateAddress(address);
        }
        List<MemberRef> seeds = new ArrayList<>();
        for (int i = 0; i < addresses.size(); i++) {
            seeds.add(new MemberRef(i, addresses.get(i), false));
        }
        Leadership leadership = Leadership.connect(clusterName, seeds, connectTimeout);
        try {
            List<MemberRef> members = leadership.discoverMembers();
            MemberRef priority = members.stream().filter(MemberRef::priority).findFirst().orElse(null);
            LeaderView view = priority != null
                    ? leadership.awaitReady(priority, settle, timeout)
                    : leadership.awaitStable(v -> true, "any leader", settle, timeout);
            return new AttachedTopology(clusterName, members, priority != null ? priority : view.leader(), leadership);
        } catch (RuntimeException e) {
            leadership.close();
            throw e;
        }
    }

    /** Checks a member address is host:port with a port 1-65535; an {@link IllegalArgumentException} (bad input) if not. */
    public static void validateAddress(String address) {
        int colon = address.lastIndexOf(':');
        boolean valid = colon > 0 && colon < address.length() - 1;
        if (valid) {
            try {
                int port = Integer.parseInt(address.substring(colon + 1));
                valid = port > 0 && port < 65536;
            } catch (NumberFormatException e) {
                valid = false;
            }
        }
        if (!valid) {
            throw new IllegalArgumentException("bad member address '" + address
                    + "'; expected host:port with a port 1-65535, such as 127.0.0.1:5701");
        }
    }

    @Override
    public String kind() {
        return "attached";
    }
}
