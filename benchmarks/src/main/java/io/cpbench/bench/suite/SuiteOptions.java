package io.cpbench.bench.suite;

import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;

import java.time.Duration;
import java.util.List;

/**
 * Settings for setting scenarios up that are not part of the measured plan.
 *
 * @param settle            how long leadership must hold still when it has to be awaited again
 * @param leadershipTimeout how long to wait for the priority member to lead again before a scenario
 * @param connectTimeout    how long a scenario's client may take to connect
 * @param slowMemberIndex   the member made slow in network (b); -1 for the topology's default
 * @param slowDelay         the one-way delay added to everything the slow member sends
 * @param probeSettings     how the latency-aware and leader-aware scenarios' balancers probe
 */
public record SuiteOptions(Duration settle, Duration leadershipTimeout, Duration connectTimeout, int slowMemberIndex,
                           Duration slowDelay, ProbeSettings probeSettings) {

    public static final Duration SEED_DELAY = Duration.ofMillis(10);

    public static SuiteOptions defaults() {
        return new SuiteOptions(Duration.ofSeconds(5), Duration.ofSeconds(120), Duration.ofSeconds(20), -1, SEED_DELAY,
                ProbeSettings.defaults());
    }

    MemberRef slowMember(Topology topology) {
        List<MemberRef> members = topology.members();
        if (slowMemberIndex < 0) {
            return topology.defaultSlowMember();
        }
        if (slowMemberIndex >= members.size()) {
            throw new IllegalArgumentException("slow member " + slowMemberIndex + " does not exist; members are 0-"
                    + (members.size() - 1));
        }
        return members.get(slowMemberIndex);
    }
}
