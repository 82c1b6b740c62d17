package io.cpbench.lb;

import com.hazelcast.cluster.Member;

import java.util.Collection;
import java.util.function.Predicate;

/**
 * Round robin over the connected members that pass a {@link MemberFilter}: an allow list, a deny list, a member
 * attribute, or any predicate. Costs one connection lookup per call and nothing in the background.
 *
 * <p>In code: {@code clientConfig.setLoadBalancer(FilteringLoadBalancer.denying(List.of("10.0.0.5:5701")))}. By class
 * name ({@code io.cpbench.lb.FilteringLoadBalancer} in XML/YAML), the filter comes from the client properties
 * {@value MemberFilter#ALLOW}, {@value MemberFilter#DENY} and {@value MemberFilter#ATTRIBUTE}.
 *
 * <p>See {@link CpLoadBalancer} for what happens when no member passes or none is connected: the call never goes
 * to an excluded member.
 */
public class FilteringLoadBalancer extends CpLoadBalancer {

    /** For configuration by class name: the filter is read from the client's properties. */
    public FilteringLoadBalancer() {
        super(null);
    }

    public FilteringLoadBalancer(MemberFilter filter) {
        super(java.util.Objects.requireNonNull(filter, "filter"));
    }

    /** Only members whose {@code host:port} is in {@code addresses}. */
    public static FilteringLoadBalancer allowing(Collection<String> addresses) {
        return new FilteringLoadBalancer(MemberFilter.allowing(addresses));
    }

    /** Every member except those whose {@code host:port} is in {@code addresses}. */
    public static FilteringLoadBalancer denying(Collection<String> addresses) {
        return new FilteringLoadBalancer(MemberFilter.denying(addresses));
    }

    /** Only members started with member attribute {@code key} = {@code value}. */
    public static FilteringLoadBalancer withAttribute(String key, String value) {
        return new FilteringLoadBalancer(MemberFilter.withAttribute(key, value));
    }

    @Override
    protected Member choose(Member[] candidates, Predicate<Member> connected) {
        return roundRobin(candidates, connected);
    }
}
