package io.cpbench.bench.suite;

import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.LeaderView;
import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyKind;
import io.cpbench.topology.TopologySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** Each scenario's client reaches the members it claims to, on a real (embedded) 5-member cluster. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScenarioClientIT {

    static final Duration CONNECT = Duration.ofSeconds(20);

    @TempDir
    static Path logs;

    Topology topology;
    LeaderView leader;

    @BeforeAll
    void start() {
        topology = TopologyKind.EMBEDDED.start(TopologySpec.defaults(logs).withSettle(Duration.ofSeconds(2)));
        leader = topology.leadership().read();
    }

    @AfterAll
    void stop() {
        if (topology != null) {
            topology.close();
        }
    }

    @Test
    void theEmbeddedClusterIsLedByThePriorityMember() {
        assertThat(topology.kind()).isEqualTo("embedded");
        assertThat(leader.leader()).isEqualTo(topology.priorityMember());
        assertThat(leader.unanimous()).isTrue();
    }

    @Test
    void leaderClientIsConnectedToTheLeaderOnly() {
        try (ScenarioClient client = ScenarioClient.open(Scenarios.byName("client-leader"), topology, leader, null, CONNECT, ProbeSettings.defaults())) {
            client.client().getCPSubsystem().getAtomicReference(ScenarioSession.REFERENCE_NAME).get();

            assertThat(client.connectedMembers()).containsExactly(leader.leader().address());
            assertThat(client.target()).isEqualTo(leader.leader().name() + " " + leader.leader().address() + " (leader)");
        }
    }

    @Test
    void followerClientIsConnectedToOneFollowerOnly() {
        try (ScenarioClient client = ScenarioClient.open(Scenarios.byName("client-follower"), topology, leader, null, CONNECT, ProbeSettings.defaults())) {
            client.client().getCPSubsystem().getAtomicReference(ScenarioSession.REFERENCE_NAME).get();

            TreeSet<String> connected = client.connectedMembers();
            assertThat(connected).hasSize(1).doesNotContain(leader.leader().address());
            assertThat(client.target()).endsWith("(follower)");
        }
    }

    @Test
    void smartClientsConnectToEveryMember() throws InterruptedException {
        for (String name : List.of("client-smart", "client-lb")) {
            try (ScenarioClient client = ScenarioClient.open(Scenarios.byName(name), topology, leader, null, CONNECT, ProbeSettings.defaults())) {
                // A smart client opens its other connections in the background.
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (client.connectedMembers().size() < 5 && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                assertThat(client.connectedMembers()).as(name)
                        .containsExactlyInAnyOrderElementsOf(topology.members().stream().map(MemberRef::address).toList());
                client.verifyPinned(); // nothing to pin: must not throw
            }
        }
    }
}
