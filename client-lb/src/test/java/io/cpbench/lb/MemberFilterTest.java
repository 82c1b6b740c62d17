package io.cpbench.lb;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.impl.MemberImpl;
import com.hazelcast.version.MemberVersion;
import org.junit.jupiter.api.Test;

import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which members a filter lets through, from the API and from the client properties, and its errors at their edges. */
class MemberFilterTest {

    private static Member member(int port, String zone) throws UnknownHostException {
        return new MemberImpl.Builder(new Address("127.0.0.1", port)).version(MemberVersion.of("5.4.0")).uuid(UUID.randomUUID())
                .attributes(zone == null ? Map.of() : Map.of("zone", zone)).build();
    }

    @Test
    void eachFilterPassesWhatItSays() throws Exception {
        Member a = member(5701, "eu");
        Member b = member(5702, "us");
        Member c = member(5703, null);
        assertThat(List.of(a, b, c)).allMatch(MemberFilter.all()::test);
        MemberFilter allow = MemberFilter.allowing(List.of("127.0.0.1:5702", "127.0.0.1:5701"));
        assertThat(List.of(a, b, c)).filteredOn(allow::test).containsExactly(a, b);
        assertThat(allow).hasToString("allow [127.0.0.1:5701, 127.0.0.1:5702]"); // sorted, whatever the order given
        List<String> many = List.of("10.0.0.9:5701", "10.0.0.1:5703", "10.0.0.5:5702", "10.0.0.3:5701", "10.0.0.7:5705",
                "10.0.0.2:5704", "10.0.0.8:5701");
        assertThat(MemberFilter.denying(many)).hasToString("deny " + many.stream().sorted().toList());
        MemberFilter deny = MemberFilter.denying(List.of("127.0.0.1:5701"));
        assertThat(List.of(a, b, c)).filteredOn(deny::test).containsExactly(b, c);
        MemberFilter zone = MemberFilter.withAttribute("zone", "us");
        assertThat(List.of(a, b, c)).filteredOn(zone::test).containsExactly(b);
        MemberFilter both = allow.and(MemberFilter.withAttribute("zone", "eu"));
        assertThat(List.of(a, b, c)).filteredOn(both::test).containsExactly(a);
        assertThat(both).hasToString("allow [127.0.0.1:5701, 127.0.0.1:5702] and attribute zone=eu");
        assertThat(MemberFilter.all().and(deny)).isSameAs(deny);
        assertThat(deny.and(MemberFilter.all())).isSameAs(deny);
        MemberFilter odd = MemberFilter.matching(m -> m.getAddress().getPort() % 2 == 1, "odd ports");
        assertThat(List.of(a, b, c)).filteredOn(odd::test).containsExactly(a, c);
        assertThat(odd).hasToString("odd ports");
    }

    @Test
    void thePropertiesDescribeTheSameFilters() throws Exception {
        Member a = member(5701, "eu");
        Member b = member(5702, "us");
        Member c = member(5703, "eu");
        Map<String, String> props = Map.of(MemberFilter.ALLOW, " 127.0.0.1:5701 , ,127.0.0.1:5703,",
                MemberFilter.DENY, "127.0.0.1:5703", MemberFilter.ATTRIBUTE, " zone = eu ");
        MemberFilter filter = MemberFilter.fromProperties(props::get);
        assertThat(List.of(a, b, c)).filteredOn(filter::test).containsExactly(a);
        assertThat(MemberFilter.fromProperties(Map.of(MemberFilter.DENY, "127.0.0.1:5702")::get))
                .satisfies(f -> assertThat(List.of(a, b, c)).filteredOn(f::test).containsExactly(a, c));
        assertThat(MemberFilter.fromProperties(Map.of(MemberFilter.ATTRIBUTE, "zone=us")::get))
                .satisfies(f -> assertThat(List.of(a, b, c)).filteredOn(f::test).containsExactly(b));
        assertThat(MemberFilter.fromProperties(Map.of(MemberFilter.ALLOW, "  ")::get)).isSameAs(MemberFilter.all());
        assertThat(MemberFilter.fromProperties(k -> null)).isSameAs(MemberFilter.all());
    }

    @Test
    void malformedValuesAreRefusedAtTheirEdges() {
        assertThatThrownBy(() -> MemberFilter.fromProperties(Map.of(MemberFilter.ATTRIBUTE, "=eu")::get))
                .hasMessage("cpbench.lb.attribute must be key=value, got '=eu'");
        assertThat(MemberFilter.fromProperties(Map.of(MemberFilter.ATTRIBUTE, "z=eu")::get)).hasToString("attribute z=eu");
        assertThatThrownBy(() -> MemberFilter.fromProperties(Map.of(MemberFilter.ATTRIBUTE, "zone")::get))
                .hasMessageContaining("must be key=value");
        assertThatThrownBy(() -> MemberFilter.allowing(List.of(":5701"))).hasMessage("allow list: ':5701' is not host:port");
        assertThat(MemberFilter.allowing(List.of("h:5701"))).hasToString("allow [h:5701]");
        assertThatThrownBy(() -> MemberFilter.denying(List.of("host"))).hasMessage("deny list: 'host' is not host:port");
        assertThatThrownBy(() -> MemberFilter.denying(List.of("host:123456"))).hasMessageContaining("is not host:port");
        assertThatThrownBy(() -> MemberFilter.fromProperties(Map.of(MemberFilter.DENY, "a:1,b")::get))
                .hasMessage("cpbench.lb.deny: 'b' is not host:port");
    }
}
