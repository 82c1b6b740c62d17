package io.cpbench.topology;

import com.github.dockerjava.api.DockerClient;
import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.client.impl.clientside.HazelcastClientInstanceImpl;
import com.hazelcast.client.impl.clientside.HazelcastClientProxy;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.IAtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Five members in five Docker containers from the locally built image, behind the network emulator (this kernel has
 * no netem): the cluster forms, the priority member leads, smart and unisocket clients on the host reach the members
 * at their published ports, a killed container is seen dead and loses leadership, and close leaves no container or
 * network behind.
 */
@NeedsDocker
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainerTopologyIT {

    @TempDir
    static Path logs;

    Topology topology;
    DockerClient docker;
    LeaderView initial;

    @BeforeAll
    void start() {
        docker = DockerClientFactory.instance().client();
        // The fast failover preset: with Hazelcast's default detectors, the new leader after a killed container took
        // 64 s in CI on a 2-core machine, and this class checks that leadership moves, not how fast by default.
        topology = TopologyKind.CONTAINERS.start(TopologySpec.defaults(logs).withSettle(Duration.ofSeconds(3))
                .withFailover(FailoverPreset.FAST));
    }

    @AfterAll
    void stop() {
        if (topology != null) {
            topology.close();
        }
    }

    private List<String> containersOfThisRun() {
        return docker.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(ContainerTopology.LABEL_CLUSTER, topology.clusterName())).exec().stream()
                .map(c -> c.getNames()[0]).sorted().toList();
    }

    @Test
    @Order(1)
    void formsInFiveLabelledContainersLedByThePriorityMember() {
        assertThat(topology.kind()).isEqualTo("containers");
        assertThat(containersOfThisRun()).hasSize(5);
        assertThat(topology.members()).allMatch(topology::isAlive);
        assertThat(topology.members()).allMatch(m -> m.address().startsWith("127.0.0.1:"));

        // Readiness holds a unanimous view of the members that answered for the settle time; it does not promise that
        // every member answered, nor that the next read agrees (one CI run's first read after it did not; the cause
        // was not established). What this test claims is that all five come to name the priority member: wait for
        // that, bounded.
        initial = topology.leadership().awaitStable(view -> view.answered() == 5
                        && topology.priorityMember().equals(view.leader()), "all 5 naming the priority member",
                Duration.ZERO, Duration.ofSeconds(30));
        assertThat(initial.leader()).as(initial.answers().toString()).isEqualTo(topology.priorityMember());
        assertThat(initial.unanimous()).as(initial.describe() + ": " + initial.answers()).isTrue();
        assertThat(initial.answered()).as(initial.answers().toString()).isEqualTo(5);
        assertThat(topology.network()).isPresent();
        assertThat(topology.network().get().method()).contains("containers").contains("no netem");
    }

    @Test
    @Order(2)
    void aSmartClientOnTheHostConnectsToEveryMemberAndAUnisocketClientToOne() {
        ClientConfig smart = ClusterClientConfig.forCluster(topology.clusterName(),
                List.of(topology.members().get(1).address()), Duration.ofSeconds(20));
        HazelcastInstance client = HazelcastClient.newHazelcastClient(smart);
        try {
            HazelcastClientInstanceImpl impl = ((HazelcastClientProxy) client).client;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (impl.getConnectionManager().getActiveConnections().size() < 5 && System.nanoTime() < deadline) {
                Leadership.sleep(200);
            }
            assertThat(impl.getConnectionManager().getActiveConnections()).hasSize(5);
            assertThat(client.getCluster().getMembers().stream().map(m -> LeaderQuery.addressOf(m.getAddress()))
                    .collect(Collectors.toSet()))
                    .isEqualTo(topology.members().stream().map(MemberRef::address).collect(Collectors.toSet()));
            IAtomicLong counter = client.getCPSubsystem().getAtomicLong("smart");
            assertThat(counter.incrementAndGet()).isEqualTo(1);
        } finally {
            client.shutdown();
        }

        ClientConfig unisocket = ClusterClientConfig.forCluster(topology.clusterName(),
                List.of(topology.members().get(3).address()), Duration.ofSeconds(20));
        unisocket.getNetworkConfig().setSmartRouting(false);
        HazelcastInstance single = HazelcastClient.newHazelcastClient(unisocket);
        try {
            HazelcastClientInstanceImpl impl = ((HazelcastClientProxy) single).client;
            IAtomicLong counter = single.getCPSubsystem().getAtomicLong("unisocket");
            assertThat(counter.addAndGet(5)).isEqualTo(5);
            assertThat(impl.getConnectionManager().getActiveConnections()).hasSize(1);
            assertThat(impl.getConnectionManager().getActiveConnections().iterator().next().getRemoteAddress().getPort())
                    .isEqualTo(Integer.parseInt(topology.members().get(3).address().split(":")[1]));
        } finally {
            single.shutdown();
        }
    }

    @Test
    @Order(3)
    void killingTheLeadersContainerMovesLeadership() {
        MemberRef old = initial.leader();

        topology.kill(old);
        LeaderView next = topology.leadership().awaitStable(v -> v.leader() != null && !old.equals(v.leader()),
                "a new leader", Duration.ofSeconds(1), Duration.ofSeconds(90));

        assertThat(topology.isAlive(old)).isFalse();
        assertThat(next.leader()).isNotEqualTo(old);
        assertThat(topology.isAlive(next.leader())).isTrue();
        assertThat(next.term()).isGreaterThan(initial.term());
    }

    @Test
    @Order(4)
    void closeRemovesEveryContainerAndTheNetwork() {
        String cluster = topology.clusterName();
        topology.close();

        assertThat(containersOfThisRun()).isEmpty();
        assertThat(docker.listNetworksCmd().withNameFilter(cluster).exec()).isEmpty();
        assertThat(topology.members()).noneMatch(topology::isAlive);
    }

    @Test
    @Order(5)
    void aStartThatFailsLeavesNoContainerOrNetwork() {
        String pid = Long.toString(ProcessHandle.current().pid());
        // A member JVM that cannot start at all (an option no JVM knows): the start fails however fast or slow the
        // machine is, and must still remove what it created.
        List<String> broken = new java.util.ArrayList<>(TopologySpec.DEFAULT_MEMBER_JVM_OPTIONS);
        broken.add("-XX:+CpBenchNoSuchOption");
        TopologySpec cannotStart = TopologySpec.builder(logs.resolve("failed")).members(3).settle(Duration.ofSeconds(3))
                .startupTimeout(Duration.ofSeconds(90)).memberJvmOptions(broken).build();

        // and it fails because the container exited (seen by Testcontainers' own start check or by the wait), not
        // because a wait for the member's ready line ran out
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TopologyKind.CONTAINERS.start(cannotStart))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("a member container did not start: ")
                .hasMessageNotContaining("Timed out")
                .hasMessageNotContaining("ready line within");

        assertThat(docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(ContainerTopology.LABEL_PID, pid))
                .exec()).isEmpty();
        assertThat(docker.listNetworksCmd().withFilter("label", List.of(ContainerTopology.LABEL_PID + "=" + pid)).exec())
                .isEmpty();
    }

    @Test
    @Order(6)
    void containersLeftByARunThatIsGoneAreSweptAndOthersAreKept() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        String image = ContainerImage.baseImage();
        String stale = docker.createContainerCmd(image).withCmd("sleep", "60")
                .withLabels(Map.of(ContainerTopology.LABEL, "true", ContainerTopology.LABEL_PID, Long.toString(gone.pid())))
                .exec().getId();
        String ours = docker.createContainerCmd(image).withCmd("sleep", "60")
                .withLabels(DockerOps.labels("sweep-test")).exec().getId();
        try {
            int removed = DockerOps.sweepStale(docker, System.out);

            assertThat(removed).isGreaterThanOrEqualTo(1);
            List<String> left = docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(ContainerTopology.LABEL, "true"))
                    .exec().stream().map(com.github.dockerjava.api.model.Container::getId).toList();
            assertThat(left).doesNotContain(stale).contains(ours);
        } finally {
            for (String id : List.of(stale, ours)) {
                try {
                    docker.removeContainerCmd(id).withForce(true).exec();
                } catch (RuntimeException gone2) {
                    // removed by the sweep
                }
            }
        }
    }
}
