package io.cpbench.lb;

import com.hazelcast.cluster.Member;
import com.hazelcast.logging.ILogger;
import com.hazelcast.logging.Logger;

import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Round robin over the members that are not much slower than the best one. It probes every member (see
 * {@link ProbingLoadBalancer}) and excludes a member whose median probe latency exceeds
 * {@link ProbeSettings#excludeRatio()} × the best member's, readmitting it once it is back under
 * {@link ProbeSettings#readmitRatio()} × the best. No addresses to configure: a member with a slow network, disk
 * or GC drops out by itself, and comes back when it recovers.
 *
 * <p>Exclusion is a preference, not a filter: if every connected member is excluded (the best one has just
 * left), calls go round robin over the connected members until the next probes say otherwise. Members that fail
 * the {@link MemberFilter} are never used.
 */
public class LatencyAwareLoadBalancer extends ProbingLoadBalancer {

    private static final ILogger LOG = Logger.getLogger(LatencyAwareLoadBalancer.class);

    private volatile Set<UUID> excluded = Set.of();
    private volatile boolean judged;
    /** Set once every connected member has been measured (what {@link #awaitSettled} waits for). */
    private volatile boolean settled;
    private final Set<String> keptSinceSettled = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicInteger exclusionChanges = new java.util.concurrent.atomic.AtomicInteger();

    /** For configuration by class name: settings and filter from the client's properties. */
    public LatencyAwareLoadBalancer() {
        super(null, null);
    }

    public LatencyAwareLoadBalancer(ProbeSettings settings) {
        this(MemberFilter.all(), settings);
    }

    public LatencyAwareLoadBalancer(MemberFilter filter, ProbeSettings settings) {
        super(java.util.Objects.requireNonNull(filter, "filter"), java.util.Objects.requireNonNull(settings, "settings"));
    }

    /** The candidates not excluded, for one candidate array and one exclusion set. */
    private record Preferred(Member[] of, Set<UUID> excluded, Member[] members) {
    }

    private volatile Preferred preferred = new Preferred(new Member[0], Set.of(), new Member[0]);

    @Override
    protected Member choose(Member[] candidates, Predicate<Member> connected) {
        Preferred current = preferred;
        Set<UUID> now = excluded;
        if (current.of() != candidates || current.excluded() != now) {
            current = new Preferred(candidates, now,
                    java.util.Arrays.stream(candidates).filter(m -> !now.contains(m.getUuid())).toArray(Member[]::new));
            preferred = current;
        }
        Member chosen = roundRobin(current.members(), connected);
        return chosen != null ? chosen : roundRobin(candidates, connected);
    }

    @Override
    protected void judge(LatencyStats<UUID> latencies, Member[] candidates) {
        Set<UUID> now = latencies.excluded(settings().excludeQuantile());
        if (!now.equals(excluded)) {
            LOG.info("latency-aware balancer now excludes " + describe(now, candidates) + "; probe medians " + probeMedians());
            excluded = now;
            if (settled) {
                exclusionChanges.incrementAndGet();
            }
        }
        judged = true;
        settled = settled || everyConnectedMemberMeasured();
        if (settled) {
            for (Member m : candidates) {
                if (!now.contains(m.getUuid())) {
                    keptSinceSettled.add(MemberFilter.address(m));
                }
            }
        }
    }

    @Override
    protected boolean isSettled() {
        return judged && everyConnectedMemberMeasured();
    }

    /** The addresses of the members excluded now. */
    public Set<String> excludedMembers() {
        return Set.copyOf(describe(excluded, getMembers()));
    }

    /**
     * The addresses of every member that some judgement kept (did not exclude) since every connected member was first
     * measured (when {@link #awaitSettled} returns): the members this balancer may have sent calls to since. The
     * exclusions change as the probes do, so one reading of {@link #excludedMembers()} at the end of a run does not
     * say where the run's calls went.
     */
    public Set<String> keptMembersSoFar() {
        return new java.util.TreeSet<>(keptSinceSettled);
    }

    /** How often the set of excluded members changed since every connected member was first measured. */
    public int exclusionChanges() {
        return exclusionChanges.get();
    }

    private static java.util.List<String> describe(Set<UUID> ids, Member[] members) {
        return java.util.Arrays.stream(members).filter(m -> ids.contains(m.getUuid())).map(MemberFilter::address).sorted().toList();
    }
}
