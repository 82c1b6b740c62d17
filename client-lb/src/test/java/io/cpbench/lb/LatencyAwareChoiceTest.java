package io.cpbench.lb;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.impl.MemberImpl;
import com.hazelcast.version.MemberVersion;
import org.junit.jupiter.api.Test;

import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The latency-aware balancer's choice, given its judge's samples: round robin over the members not excluded, all
 * connected members when every one is excluded, never a member without a connection, and settled only once judged.
 * That calls really follow the choice on a live cluster is BalancersIT's (bytes per member).
 */
class LatencyAwareChoiceTest {

    private static Member member(int port) throws UnknownHostException {
        return new MemberImpl.Builder(new Address("127.0.0.1", port)).version(MemberVersion.of("5.4.0")).uuid(UUID.randomUUID())
                .attributes(Map.of()).build();
    }

    private final AtomicLong now = new AtomicLong(1);
    private final ProbeSettings settings = ProbeSettings.defaults();

    private LatencyStats<UUID> stats() {
        return new LatencyStats<>(settings.window(), settings.excludeRatio(), settings.readmitRatio(), 1, now::get);
    }

    private static List<Member> chosen(LatencyAwareLoadBalancer lb, Member[] candidates, java.util.function.Predicate<Member> connected, int n) {
        List<Member> picks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            picks.add(lb.choose(candidates, connected));
        }
        return picks;
    }

    @Test
    void roundRobinOverTheMembersNotExcluded() throws Exception {
        Member fast1 = member(5701);
        Member fast2 = member(5702);
        Member slow = member(5703);
        Member[] all = {fast1, fast2, slow};
        LatencyAwareLoadBalancer lb = new LatencyAwareLoadBalancer(settings);
        assertThat(chosen(lb, all, m -> true, 6)).as("before any judgement: all of them")
                .containsOnly(fast1, fast2, slow).filteredOn(m -> m == slow).hasSize(2);

        LatencyStats<UUID> latencies = stats();
        latencies.record(fast1.getUuid(), 1_000_000);
        latencies.record(fast2.getUuid(), 1_100_000);
        latencies.record(slow.getUuid(), 50_000_000);
        assertThat(lb.isSettled()).as("not judged yet").isFalse();
        lb.judge(latencies, all);

        List<Member> picks = chosen(lb, all, m -> true, 10);
        assertThat(picks).doesNotContain(slow).contains(fast1, fast2);
        assertThat(picks.stream().filter(m -> m == fast1).count()).as("round robin").isEqualTo(5);
        assertThat(chosen(lb, all, m -> m != fast1, 4)).as("connected members only").containsOnly(fast2);
    }

    @Test
    void whenEveryConnectedMemberIsExcludedCallsGoToTheConnectedOnes() throws Exception {
        Member fast = member(5701);
        Member slow1 = member(5702);
        Member slow2 = member(5703);
        LatencyAwareLoadBalancer lb = new LatencyAwareLoadBalancer(settings);
        LatencyStats<UUID> latencies = stats();
        latencies.record(fast.getUuid(), 1_000_000);
        latencies.record(slow1.getUuid(), 40_000_000);
        latencies.record(slow2.getUuid(), 50_000_000);
        lb.judge(latencies, new Member[]{fast, slow1, slow2});
        // the best one has left the connected set: a preference, not a filter
        List<Member> picks = chosen(lb, new Member[]{fast, slow1, slow2}, m -> m != fast, 6);
        assertThat(picks).containsOnly(slow1, slow2).contains(slow1, slow2);
        assertThat(lb.choose(new Member[]{fast, slow1, slow2}, m -> false)).as("nothing connected").isNull();
    }

    @Test
    void anExclusionFollowsTheJudgeBothWays() throws Exception {
        Member a = member(5701);
        Member b = member(5702);
        Member[] all = {a, b};
        LatencyAwareLoadBalancer lb = new LatencyAwareLoadBalancer(settings);
        LatencyStats<UUID> latencies = stats();
        latencies.record(a.getUuid(), 1_000_000);
        latencies.record(b.getUuid(), 90_000_000);
        lb.judge(latencies, all);
        assertThat(Set.copyOf(chosen(lb, all, m -> true, 4))).containsExactly(a);
        now.addAndGet(settings.window().plus(Duration.ofSeconds(1)).toNanos());
        latencies.record(a.getUuid(), 1_000_000);
        latencies.record(b.getUuid(), 1_000_000);
        lb.judge(latencies, all);
        assertThat(Set.copyOf(chosen(lb, all, m -> true, 4))).containsExactlyInAnyOrder(a, b);
    }
}
