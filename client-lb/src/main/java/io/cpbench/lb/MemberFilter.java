package io.cpbench.lb;

import com.hazelcast.cluster.Member;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Which members a balancer may send calls to. Built in code ({@link #allowing}, {@link #denying},
 * {@link #withAttribute}, {@link #matching}) or from client properties ({@link #fromProperties}) when the balancer
 * is configured by class name in XML or YAML.
 */
public final class MemberFilter {

    /** Client property: comma-separated {@code host:port} list; only these members are used. */
    public static final String ALLOW = "cpbench.lb.allow";
    /** Client property: comma-separated {@code host:port} list; these members are never used. */
    public static final String DENY = "cpbench.lb.deny";
    /** Client property: {@code key=value}; only members started with this member attribute are used. */
    public static final String ATTRIBUTE = "cpbench.lb.attribute";

    private static final MemberFilter ALL = new MemberFilter(m -> true, "all members");

    private final Predicate<Member> predicate;
    private final String description;

    private MemberFilter(Predicate<Member> predicate, String description) {
        this.predicate = predicate;
        this.description = description;
    }

    /** Every member. */
    public static MemberFilter all() {
        return ALL;
    }

    /** Members whose {@code host:port} is in {@code addresses}. */
    public static MemberFilter allowing(Collection<String> addresses) {
        Set<String> allowed = Set.copyOf(checkAddresses(addresses, "allow list"));
        return new MemberFilter(m -> allowed.contains(address(m)), "allow " + sorted(allowed));
    }

    /** Every member but those whose {@code host:port} is in {@code addresses}. */
    public static MemberFilter denying(Collection<String> addresses) {
        Set<String> denied = Set.copyOf(checkAddresses(addresses, "deny list"));
        return new MemberFilter(m -> !denied.contains(address(m)), "deny " + sorted(denied));
    }

    /** Members started with member attribute {@code key} = {@code value} (for example zone = eu-west-1a). */
    public static MemberFilter withAttribute(String key, String value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        return new MemberFilter(m -> value.equals(m.getAttribute(key)), "attribute " + key + "=" + value);
    }

    /** Members passing any predicate; {@code description} names it in errors and logs. */
    public static MemberFilter matching(Predicate<Member> predicate, String description) {
        return new MemberFilter(Objects.requireNonNull(predicate, "predicate"), Objects.requireNonNull(description, "description"));
    }

    /** Members that pass this filter and {@code other}. */
    public MemberFilter and(MemberFilter other) {
        if (this == ALL) {
            return other;
        }
        if (other == ALL) {
            return this;
        }
        return new MemberFilter(predicate.and(other.predicate), description + " and " + other.description);
    }

    /**
     * The filter the properties {@value #ALLOW}, {@value #DENY} and {@value #ATTRIBUTE} describe (all that are
     * set must pass); every member when none is set.
     *
     * @throws IllegalArgumentException naming the property, when a value is malformed
     */
    public static MemberFilter fromProperties(Function<String, String> properties) {
        MemberFilter filter = ALL;
        String allow = properties.apply(ALLOW);
        if (allow != null && !allow.isBlank()) {
            filter = filter.and(allowing(split(ALLOW, allow)));
        }
        String deny = properties.apply(DENY);
        if (deny != null && !deny.isBlank()) {
            filter = filter.and(denying(split(DENY, deny)));
        }
        String attribute = properties.apply(ATTRIBUTE);
        if (attribute != null && !attribute.isBlank()) {
            int eq = attribute.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(ATTRIBUTE + " must be key=value, got '" + attribute + "'");
            }
            filter = filter.and(withAttribute(attribute.substring(0, eq).trim(), attribute.substring(eq + 1).trim()));
        }
        return filter;
    }

    public boolean test(Member member) {
        return predicate.test(member);
    }

    @Override
    public String toString() {
        return description;
    }

    static String address(Member member) {
        return member.getAddress().getHost() + ":" + member.getAddress().getPort();
    }

    private static List<String> split(String property, String value) {
        return checkAddresses(Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList(), property);
    }

    private static <C extends Collection<String>> C checkAddresses(C addresses, String what) {
        Objects.requireNonNull(addresses, what);
        for (String address : addresses) {
            int colon = address == null ? -1 : address.lastIndexOf(':');
            if (colon <= 0 || !address.substring(colon + 1).matches("\\d{1,5}")) {
                throw new IllegalArgumentException(what + ": '" + address + "' is not host:port");
            }
        }
        return addresses;
    }

    private static List<String> sorted(Set<String> addresses) {
        List<String> list = new ArrayList<>(addresses);
        list.sort(null);
        return list;
    }
}
