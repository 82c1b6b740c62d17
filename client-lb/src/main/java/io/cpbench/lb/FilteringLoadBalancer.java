package io.cpbench.lb;

import com.hazelcast.client.util.AbstractLoadBalancer;
import com.hazelcast.cluster.Member;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Round robin over the members that pass a filter. Use it with smart routing on ({@code ClientConfig.setLoadBalancer});
 * with smart routing off Hazelcast ignores load balancers.
 *
 * <p>When no member passes the filter, {@link #next()} throws {@link NoMemberPassesFilterException}, so the call
 * fails visibly. It never returns null: Hazelcast would then fall back to any connection, which may be the very
 * member the filter excludes.
 */
public class FilteringLoadBalancer extends AbstractLoadBalancer {

    private final Predicate<Member> filter;
    private final String description;
    private final AtomicInteger next = new AtomicInteger();
    /** The eligible members of one member list, recomputed only when the member list changes. */
    private volatile Eligible cache = new Eligible(new Member[0], new Member[0]);

    private record Eligible(Member[] of, Member[] members) {
    }

    public FilteringLoadBalancer(Predicate<Member> filter, String description) {
        this.filter = Objects.requireNonNull(filter, "filter");
        this.description = Objects.requireNonNull(description, "description");
    }

    /** Only members whose {@code host:port} is in {@code addresses}. */
    public static FilteringLoadBalancer allowing(Collection<String> addresses) {
        Set<String> allowed = Set.copyOf(addresses);
        return new FilteringLoadBalancer(m -> allowed.contains(address(m)), "allow " + allowed);
    }

    /** Every member except those whose {@code host:port} is in {@code addresses}. */
    public static FilteringLoadBalancer denying(Collection<String> addresses) {
        Set<String> denied = Set.copyOf(addresses);
        return new FilteringLoadBalancer(m -> !denied.contains(address(m)), "deny " + denied);
    }

    /** Only members started with member attribute {@code key} = {@code value} (for example zone = eu-west-1a). */
    public static FilteringLoadBalancer withAttribute(String key, String value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        return new FilteringLoadBalancer(m -> value.equals(m.getAttribute(key)), "attribute " + key + "=" + value);
    }

    static String address(Member member) {
        return member.getAddress().getHost() + ":" + member.getAddress().getPort();
    }

    /** The members that pass the filter now. */
    public List<Member> eligible() {
        List<Member> eligible = new ArrayList<>();
        for (Member member : getMembers()) {
            if (filter.test(member)) {
                eligible.add(member);
            }
        }
        return eligible;
    }

    @Override
    public Member next() {
        Member[] members = getMembers();
        Eligible eligible = cache;
        if (eligible.of() != members) {
            eligible = new Eligible(members, eligible().toArray(new Member[0]));
            cache = eligible;
        }
        if (eligible.members().length == 0) {
            throw new NoMemberPassesFilterException("no cluster member passes the load balancer's filter ("
                    + description + "); members: " + List.of(members));
        }
        return eligible.members()[Math.floorMod(next.getAndIncrement(), eligible.members().length)];
    }

    @Override
    public String toString() {
        return "FilteringLoadBalancer(" + description + ")";
    }

    /** Thrown by {@link #next()} when the filter excludes every member. */
    public static final class NoMemberPassesFilterException extends IllegalStateException {
        public NoMemberPassesFilterException(String message) {
            super(message);
        }
    }
}
