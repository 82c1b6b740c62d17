package io.cpbench.topology;

import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPGroupId;
import com.hazelcast.cp.CPObjectInfo;
import com.hazelcast.cp.CPSubsystem;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CP objects cp-bench leaves in a cluster it attached to, found and destroyed through a client.
 *
 * <p>Finding them needs members of Hazelcast 5.4 or later: {@link CPSubsystem#getObjectInfos} (new in 5.4) lists the
 * live objects of a CP group for one CP service; {@link #find} checks the members' versions first and says so in
 * one line (5.3.8 members answer the 5.4 client's request with "Could not retrieve CP group ids"). cp-bench's objects are those whose names start with one of the given prefixes ({@code cpbench-} and
 * {@code __cpbench_} cover every name cp-bench uses by default: {@code cpbench-cas}, {@code cpbench-probe},
 * {@code __cpbench_lb_probe}, {@code cpbench-load-<run>-<n>}); the METADATA group holds no user objects and is skipped.
 *
 * <p>A destroyed CP name stays destroyed: each CP service keeps the (group, name) pair as a tombstone, and a later
 * {@code get} of that name in that group throws {@code DistributedObjectDestroyedException} ("is already
 * destroyed!"; Hazelcast 5.4's {@code AtomicValueService.getAtomicValue}, and alike in the lock and semaphore
 * services) until the group itself is destroyed. {@code cpbench cleanup} says so before it destroys anything.
 */
public final class CpObjects {

    /** The CP services cp-bench's objects belong to, with the type a user knows them by. CPMap is Enterprise only. */
    static final Map<String, String> SERVICES = services();

    private CpObjects() {
    }

    private static Map<String, String> services() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put(CPSubsystem.ATOMIC_REFERENCE, "IAtomicReference");
        s.put(CPSubsystem.ATOMIC_LONG, "IAtomicLong");
        s.put(CPSubsystem.LOCK, "FencedLock");
        s.put(CPSubsystem.SEMAPHORE, "ISemaphore");
        s.put(CPSubsystem.COUNT_DOWN_LATCH, "ICountDownLatch");
        return java.util.Collections.unmodifiableMap(s);
    }

    /** One CP object: its group, its service, the type a user knows and its name. */
    public record Found(String group, String service, String type, String name) {

        /** The name a client asks for it by: {@code name@group}. */
        public String proxyName() {
            return name + "@" + group;
        }
    }

    /**
     * Every live CP object in every CP group but METADATA whose name starts with one of {@code prefixes}, by group,
     * type and name. A {@link TopologyException} with one line when the members cannot list them.
     */
    public static List<Found> find(HazelcastInstance client, List<String> prefixes) {
        CPSubsystem cp = client.getCPSubsystem();
        // (the client cannot ask for the cluster version; each member says its own)
        com.hazelcast.version.MemberVersion cluster = client.getCluster().getMembers().stream()
                .map(com.hazelcast.cluster.Member::getVersion).filter(v -> v != null && !v.isUnknown())
                .min(com.hazelcast.version.MemberVersion.MAJOR_MINOR_VERSION_COMPARATOR).orElse(null);
        if (cluster != null && cluster.asVersion().isLessThan(com.hazelcast.version.Version.of(5, 4))) {
            // seen on 5.3.8 members: "HazelcastException: Could not retrieve CP group ids"
            throw new TopologyException("this cluster runs Hazelcast " + cluster + ": listing CP objects needs members of"
                    + " 5.4 or later; destroy cp-bench's by name with a client instead (cpbench-cas, cpbench-probe,"
                    + " __cpbench_lb_probe, and load's cpbench-load-<run>-<n>)");
        }
        List<Found> found = new ArrayList<>();
        try {
            for (CPGroupId group : cp.getCPGroupIds()) {
                if (group.getName().equals("METADATA")) {
                    continue;
                }
                for (Map.Entry<String, String> service : SERVICES.entrySet()) {
                    for (CPObjectInfo info : cp.getObjectInfos(group, service.getKey())) {
                        if (prefixes.stream().anyMatch(info.name()::startsWith)) {
                            found.add(new Found(group.getName(), service.getKey(), service.getValue(), info.name()));
                        }
                    }
                }
            }
        } catch (RuntimeException e) {
            throw new TopologyException("could not list the cluster's CP objects: " + e.getClass().getSimpleName()
                    + ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
        found.sort(Comparator.comparing(Found::group).thenComparing(Found::type).thenComparing(Found::name));
        return found;
    }

    /** Destroys one object found by {@link #find}; its name is then a tombstone in its group (see the class). */
    public static void destroy(HazelcastInstance client, Found object) {
        CPSubsystem cp = client.getCPSubsystem();
        String proxy = object.proxyName();
        DistributedObject o = switch (object.service()) {
            case CPSubsystem.ATOMIC_REFERENCE -> cp.getAtomicReference(proxy);
            case CPSubsystem.ATOMIC_LONG -> cp.getAtomicLong(proxy);
            case CPSubsystem.LOCK -> cp.getLock(proxy);
            case CPSubsystem.SEMAPHORE -> cp.getSemaphore(proxy);
            case CPSubsystem.COUNT_DOWN_LATCH -> cp.getCountDownLatch(proxy);
            default -> throw new IllegalArgumentException("not a CP service cp-bench uses: " + object.service());
        };
        o.destroy();
    }
}
