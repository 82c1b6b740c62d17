package io.cpbench.topology;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A real 5-process cluster, shared by the ordered steps below; no member may outlive the class. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalProcessTopologyIT {

    @TempDir
    static Path logs;

    Topology topology;
    LeaderView initial;

    @BeforeAll
    void start() {
        topology = TopologyKind.LOCAL.start(TopologySpec.defaults(logs).withSettle(Duration.ofSeconds(3)));
    }

    @AfterAll
    void stop() {
        if (topology != null) {
            topology.close();
        }
    }

    @Test
    @Order(1)
    void formsAClusterOfFiveProcessesLedByThePriorityMember() {
        assertThat(topology.members()).hasSize(5);
        assertThat(topology.members()).allMatch(topology::isAlive);
        assertThat(ProcessHandle.current().children().count()).isEqualTo(5);
        assertThat(topology.leadership().liveMembers()).containsExactlyInAnyOrderElementsOf(topology.members());

        initial = topology.leadership().read();

        assertThat(initial.leader()).isEqualTo(topology.priorityMember());
        assertThat(initial.unanimous()).isTrue();
        assertThat(initial.answered()).isEqualTo(5);
        assertThat(initial.term()).isPositive();
    }

    @Test
    @Order(2)
    void onlyTheLastMembersLinksCrossTheEmulator() throws Exception {
        io.cpbench.topology.net.NetworkEmulator emulator = ((StartedTopology) topology).emulator().orElseThrow();

        java.util.Set<java.util.List<Integer>> links = emulator.memberLinks();
        assertThat(links).as("proxied member links, [opener, target]").isNotEmpty().allMatch(link -> link.contains(4));
        assertThat(links.stream().flatMap(java.util.List::stream).filter(m -> m != 4).distinct())
                .as("members linked to member 4 through the proxies").containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(emulator.method()).endsWith("for member-4's links only");
        // The leadership probe's clients talk to every member: through the proxy to member 4 only.
        assertThat(emulator.bytesFromClients()).containsEntry(0, 0L).containsEntry(3, 0L);
        assertThat(emulator.bytesFromClients().get(4)).isPositive();
        assertThat(java.nio.file.Files.readString(logs.resolve("member-4.hosts")))
                .contains("127.0.0.2 cpbench-member-0").contains("127.0.0.1 cpbench-member-4");
        assertThat(java.nio.file.Files.readString(logs.resolve("member-0.hosts")))
                .contains("127.0.0.1 cpbench-member-1").contains("127.0.0.2 cpbench-member-4");
    }

    @Test
    @Order(3)
    void afterTheLeaderIsKilledTheCheckReportsANewLiveLeader() {
        MemberRef old = initial.leader();

        topology.kill(old);
        LeaderView next = topology.leadership().awaitStable(v -> !old.equals(v.leader()), "a new leader",
                Duration.ofSeconds(1), Duration.ofSeconds(60));

        assertThat(topology.isAlive(old)).isFalse();
        assertThat(next.leader()).isNotEqualTo(old);
        assertThat(topology.isAlive(next.leader())).isTrue();
        assertThat(next.term()).isGreaterThan(initial.term());
        assertThat(next.answered()).isEqualTo(4);
    }

    @Test
    @Order(4)
    void closeStopsEveryMemberProcess() throws InterruptedException {
        topology.close();

        assertThat(topology.members()).noneMatch(topology::isAlive);
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count()).isZero();
    }
}
