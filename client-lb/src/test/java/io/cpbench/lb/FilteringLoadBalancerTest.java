package io.cpbench.lb;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Cluster;
import com.hazelcast.cluster.InitialMembershipEvent;
import com.hazelcast.cluster.InitialMembershipListener;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.impl.MemberImpl;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.version.MemberVersion;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The balancer's choices over a member list, with connections stubbed. That calls really avoid an excluded member
 * on a live cluster is checked by BalancersIT, from the bytes each member received.
 */
class FilteringLoadBalancerTest {

    final Set<Member> members = new LinkedHashSet<>();
    final Set<Member> disconnected = new java.util.HashSet<>();
    final List<InitialMembershipListener> listeners = new ArrayList<>();
    final Cluster cluster = (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[]{Cluster.class},
            (proxy, method, args) -> switch (method.getName()) {
                case "getMembers" -> Set.copyOf(members);
                case "addMembershipListener" -> {
                    listeners.add((InitialMembershipListener) args[0]);
                    yield UUID.randomUUID();
                }
                default -> throw new UnsupportedOperationException(method.getName());
            });

    Member member(int port, String zone) throws UnknownHostException {
        MemberImpl member = new MemberImpl.Builder(new Address("127.0.0.1", port))
                .version(MemberVersion.of("5.4.0")).uuid(UUID.randomUUID())
                .attributes(zone == null ? Map.of() : Map.of("zone", zone)).build();
        members.add(member);
        return member;
    }

    FilteringLoadBalancer started(FilteringLoadBalancer balancer) {
        return started(balancer, new ClientConfig());
    }

    FilteringLoadBalancer started(FilteringLoadBalancer balancer, ClientConfig config) {
        balancer.init(cluster, config);
        listeners.forEach(l -> l.init(new InitialMembershipEvent(cluster, Set.copyOf(members))));
        balancer.binding.bindForTest(m -> !disconnected.contains(m));
        return balancer;
    }

    Map<Integer, Integer> picks(FilteringLoadBalancer balancer, int times) {
        Map<Integer, Integer> counts = new TreeMap<>();
        for (int i = 0; i < times; i++) {
            counts.merge(balancer.next().getAddress().getPort(), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void denyListIsNeverChosenAndTheRestShareEqually() throws Exception {
        for (int port = 5701; port <= 5705; port++) {
            member(port, null);
        }
        FilteringLoadBalancer balancer = started(FilteringLoadBalancer.denying(List.of("127.0.0.1:5705")));

        assertThat(picks(balancer, 400)).isEqualTo(Map.of(5701, 100, 5702, 100, 5703, 100, 5704, 100));
    }

    @Test
    void allowListAndAttributeMatchPickOnlyWhatTheyName() throws Exception {
        member(5701, "a");
        member(5702, "b");
        member(5703, "a");

        assertThat(picks(started(FilteringLoadBalancer.allowing(List.of("127.0.0.1:5702"))), 10)).isEqualTo(Map.of(5702, 10));
        assertThat(picks(started(FilteringLoadBalancer.withAttribute("zone", "a")), 10)).isEqualTo(Map.of(5701, 5, 5703, 5));
    }

    @Test
    void whenTheFilterExcludesEveryMemberTheCallFailsInsteadOfGoingAnywhere() throws Exception {
        member(5701, null);
        FilteringLoadBalancer balancer = started(FilteringLoadBalancer.denying(List.of("127.0.0.1:5701")));

        assertThatThrownBy(balancer::next)
                .isInstanceOf(NoMemberPassesFilterException.class)
                .hasMessageContaining("deny [127.0.0.1:5701]");
    }

    @Test
    void membershipChangesAreFollowed() throws Exception {
        member(5701, null);
        FilteringLoadBalancer balancer = started(FilteringLoadBalancer.denying(List.of("127.0.0.1:5701")));
        Member joined = member(5702, null);

        listeners.forEach(l -> l.memberAdded(new MembershipEvent(cluster, joined, MembershipEvent.MEMBER_ADDED, Set.copyOf(members))));

        assertThat(picks(balancer, 3)).isEqualTo(Map.of(5702, 3));
    }

    @Test
    void anUnconnectedMemberIsNeverChosen() throws Exception {
        for (int port = 5701; port <= 5703; port++) {
            member(port, null);
        }
        Member down = members.stream().filter(m -> m.getAddress().getPort() == 5702).findFirst().orElseThrow();
        disconnected.add(down);
        FilteringLoadBalancer balancer = started(FilteringLoadBalancer.allowing(List.of("127.0.0.1:5701", "127.0.0.1:5702")));

        assertThat(picks(balancer, 6)).isEqualTo(Map.of(5701, 6));

        disconnected.clear();
        assertThat(picks(balancer, 6)).isEqualTo(Map.of(5701, 3, 5702, 3));
    }

    @Test
    void whenNoAllowedMemberIsConnectedTheCallIsRetriedNotRedirectedAndTheClientsOwnTasksGetNull() throws Exception {
        member(5701, null);
        Member allowed = member(5702, null);
        disconnected.add(allowed);
        FilteringLoadBalancer balancer = started(FilteringLoadBalancer.allowing(List.of("127.0.0.1:5702")));

        // This test is no Hazelcast invocation service, so the stack says it is no call.
        assertThat(balancer.callerIsACall.getAsBoolean()).isFalse();
        balancer.callerIsACall = () -> true;
        // Hazelcast retries a call whose target selection throws a RetryableException, until its invocation timeout.
        assertThatThrownBy(balancer::next)
                .isInstanceOf(NoConnectedMemberException.class)
                .isInstanceOf(com.hazelcast.spi.exception.RetryableException.class)
                .hasMessageContaining("127.0.0.1:5702");

        // Statistics and the cluster view listener ask for "a random connection" through the balancer too; they get
        // null, and Hazelcast takes any connection for them, where an exception would be logged as SEVERE with a stack
        // trace and the task skipped.
        balancer.callerIsACall = () -> false;
        assertThat(balancer.next()).isNull();
    }

    @Test
    void byClassNameTheFilterComesFromClientProperties() throws Exception {
        member(5701, "a");
        member(5702, "b");
        member(5703, "a");
        ClientConfig config = new ClientConfig()
                .setProperty(MemberFilter.DENY, "127.0.0.1:5701")
                .setProperty(MemberFilter.ATTRIBUTE, "zone=a");

        FilteringLoadBalancer balancer = started(new FilteringLoadBalancer(), config);

        assertThat(picks(balancer, 4)).isEqualTo(Map.of(5703, 4));
        assertThat(balancer.filter()).hasToString("deny [127.0.0.1:5701] and attribute zone=a");
    }

    @Test
    void malformedFilterPropertiesNameTheProperty() {
        assertThatThrownBy(() -> MemberFilter.fromProperties(Map.of(MemberFilter.DENY, "10.0.0.5")::get))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cpbench.lb.deny: '10.0.0.5' is not host:port");
        assertThatThrownBy(() -> MemberFilter.fromProperties(Map.of(MemberFilter.ATTRIBUTE, "zone")::get))
                .hasMessage("cpbench.lb.attribute must be key=value, got 'zone'");
        assertThat(MemberFilter.fromProperties(Map.<String, String>of()::get)).isSameAs(MemberFilter.all());
    }
}
