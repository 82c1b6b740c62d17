package io.cpbench.lb;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.impl.clientside.HazelcastClientInstanceImpl;
import com.hazelcast.client.impl.clientside.HazelcastClientProxy;
import com.hazelcast.client.LoadBalancer;
import com.hazelcast.cluster.Cluster;
import com.hazelcast.cluster.InitialMembershipEvent;
import com.hazelcast.cluster.InitialMembershipListener;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * What the cp-bench balancers share: a {@link MemberFilter}, and the rule that {@link #next()} returns only a
 * member that passes the filter and that the client holds a live connection to. Hazelcast silently sends a call
 * down any connection when a balancer returns null or an unconnected member (docs/hazelcast-facts.md, fact 3), so:
 * <ul>
 *   <li>no member in the cluster passes the filter: {@link NoMemberPassesFilterException}, the call fails at once;</li>
 *   <li>members pass, but none is connected (yet): {@link NoConnectedMemberException}, which Hazelcast retries until
 *       its invocation timeout, so the call waits for an allowed member to (re)connect.</li>
 * </ul>
 * Balancers apply only with smart routing on; with smart routing off Hazelcast ignores them (fact 2).
 *
 * <p>Configured by class name (XML/YAML), a balancer reads its settings from the client's properties, see
 * {@link MemberFilter} and {@link ProbeSettings}.
 */
public abstract class CpLoadBalancer implements LoadBalancer, InitialMembershipListener {

    /** How long a call waits in {@link #next()} for the balancer to find its client, right after start-up. */
    static final Duration BIND_WAIT = Duration.ofSeconds(10);
    /** How long the balancer looks for its client at all. */
    static final Duration BIND_TIMEOUT = Duration.ofMinutes(2);

    private volatile MemberFilter filter;
    private volatile Cluster cluster;
    private volatile Member[] members = new Member[0];
    final ClientBinding binding = new ClientBinding(this);
    private final AtomicInteger roundRobin = new AtomicInteger();
    /** The filter-passing members of one member list, recomputed only when the member list changes. */
    private volatile Passing passing = new Passing(new Member[0], new Member[0]);

    private record Passing(Member[] of, Member[] members) {
    }

    /** @param filter null to read it from the client's properties at {@code init} */
    protected CpLoadBalancer(MemberFilter filter) {
        this.filter = filter;
    }

    @Override
    public void init(Cluster cluster, ClientConfig config) {
        if (filter == null) {
            filter = MemberFilter.fromProperties(config::getProperty);
        }
        configure(config);
        this.cluster = cluster;
        cluster.addMembershipListener(this);
        binding.start(BIND_TIMEOUT, this::bound);
    }

    @Override
    public final void init(InitialMembershipEvent event) {
        members = cluster.getMembers().toArray(new Member[0]);
        membersChanged(null);
    }

    @Override
    public final void memberAdded(MembershipEvent event) {
        members = cluster.getMembers().toArray(new Member[0]);
        membersChanged(null);
    }

    @Override
    public final void memberRemoved(MembershipEvent event) {
        members = cluster.getMembers().toArray(new Member[0]);
        membersChanged(event.getMember());
    }

    /** The member list changed; {@code removed} is the member that left, if one did. */
    protected void membersChanged(Member removed) {
    }

    /** The current member list (the same array until it changes). */
    protected final Member[] getMembers() {
        return members;
    }

    /** Reads the subclass's settings from the client's properties, when it was made by class name. */
    protected void configure(ClientConfig config) {
    }

    /** Called once, on the binding thread, when the balancer has found its client. */
    void bound(HazelcastClientInstanceImpl client) {
        client.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.SHUTTING_DOWN) {
                close();
            }
        });
    }

    /**
     * Binds the balancer to its client now instead of waiting for it to be found (optional; it is found within
     * milliseconds of the client's start anyway).
     *
     * @throws IllegalArgumentException when {@code client} is not a client using this balancer
     */
    public void bind(HazelcastInstance client) {
        if (!(client instanceof HazelcastClientProxy proxy) || proxy.client == null
                || proxy.client.getLoadBalancer() != this || !binding.bind(proxy.client)) {
            throw new IllegalArgumentException(client + " is not a running client that uses this load balancer");
        }
    }

    /** Whether the balancer has found its client. */
    public boolean isBound() {
        return binding.connected() != null;
    }

    /** Stops the balancer's background work. Done by itself when its client shuts down. */
    public void close() {
        binding.stop();
    }

    public MemberFilter filter() {
        return filter == null ? MemberFilter.all() : filter;
    }

    /** The members that pass the filter now, connected or not. */
    public List<Member> eligible() {
        return List.of(passing());
    }

    /** The class through which a call (an invocation on a random target) asks the balancer. */
    static final String INVOCATION_SERVICE = "com.hazelcast.client.impl.spi.impl.ClientInvocationServiceImpl";

    /**
     * Whether the current {@link #next()} chooses a call's target, asked only when no member can be chosen: Hazelcast
     * asks a balancer both for calls and for its own tasks, through the same method. Replaceable for unit tests.
     */
    java.util.function.BooleanSupplier callerIsACall = () -> StackWalker.getInstance()
            .walk(frames -> frames.limit(16).anyMatch(f -> f.getClassName().equals(INVOCATION_SERVICE)));

    @Override
    public final Member next() {
        Member[] candidates = passing();
        if (candidates.length == 0) {
            throw new NoMemberPassesFilterException("no cluster member passes the load balancer's filter (" + filter()
                    + "); members: " + List.of(getMembers()));
        }
        Predicate<Member> connected = binding.awaitConnected(BIND_WAIT);
        if (connected == null) {
            if (binding.onInitThread()) {
                // Hazelcast itself, while still building the client: connections cannot be seen yet.
                return candidates[Math.floorMod(roundRobin.getAndIncrement(), candidates.length)];
            }
            throw new NoConnectedMemberException(this + " has not found its client yet");
        }
        Member chosen = choose(candidates, connected);
        if (chosen == null && (binding.stopped() || !callerIsACall.getAsBoolean())) {
            // Not a call's target: the client shutting down, or one of its own background tasks (statistics, the
            // cluster view listener's re-registration) that asks for "a random connection". For those Hazelcast
            // takes any connection when the balancer says null, which is harmless; an exception would only be logged
            // as SEVERE with its stack trace, and the task would not run.
            return null;
        }
        if (chosen == null) {
            throw new NoConnectedMemberException("the client has no connection to any member passing the load balancer's"
                    + " filter (" + filter() + ") yet: " + List.of(candidates));
        }
        return chosen;
    }

    /**
     * Picks one of {@code candidates} (filter-passing, never empty) that is {@code connected}, or null if none is.
     * Called on every CP call: must not block or allocate.
     */
    protected abstract Member choose(Member[] candidates, Predicate<Member> connected);

    /** Round robin over the connected members of {@code candidates}; null if none is connected. */
    protected final Member roundRobin(Member[] candidates, Predicate<Member> connected) {
        int n = candidates.length;
        if (n == 0) {
            return null;
        }
        int start = Math.floorMod(roundRobin.getAndIncrement(), n);
        for (int i = 0; i < n; i++) {
            Member member = candidates[(start + i) % n];
            if (connected.test(member)) {
                return member;
            }
        }
        return null;
    }

    /** The filter-passing members of the current member list (cached per member list). */
    final Member[] passing() {
        Member[] members = getMembers();
        Passing current = passing;
        if (current.of() != members) {
            MemberFilter f = filter();
            List<Member> list = new ArrayList<>();
            for (Member member : members) {
                if (f.test(member)) {
                    list.add(member);
                }
            }
            current = new Passing(members, list.toArray(new Member[0]));
            passing = current;
        }
        return current.members();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(" + Objects.toString(filter, "filter from properties") + ")";
    }
}
