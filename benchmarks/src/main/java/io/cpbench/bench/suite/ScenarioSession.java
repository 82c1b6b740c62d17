package io.cpbench.bench.suite;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.run.RunPlan;
import io.cpbench.core.workload.CasWorkload;
import io.cpbench.core.workload.Workload;
import io.cpbench.topology.LeaderView;
import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;
import io.cpbench.topology.TopologyKind;
import io.cpbench.topology.TopologySpec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One scenario's op on a cluster of its own, for a harness that times the op itself (JMH): the local topology is
 * started and settled, the network switched to the scenario's, and the client built for its routing, all by the
 * code the CLI's runs use. {@link #finish()} then checks what the CLI checks after a run: leadership held, a
 * single-address client stayed on its member, and which members the client's bytes went to.
 */
public final class ScenarioSession implements AutoCloseable {

    private final Scenario scenario;
    private final Topology topology;
    private final ScenarioRunner.SuiteOptions options;
    private final LeaderView before;
    private final MemberRef slow;
    private final ScenarioClient client;
    private final Map<Integer, Long> bytesBefore;
    private final Workload op;
    private final Instant startedAt = Instant.now();

    private ScenarioSession(Scenario scenario, Topology topology, ScenarioRunner.SuiteOptions options, LeaderView before,
                            MemberRef slow, ScenarioClient client) {
        this.scenario = scenario;
        this.topology = topology;
        this.options = options;
        this.before = before;
        this.slow = slow;
        this.client = client;
        this.bytesBefore = ScenarioRunner.clientBytes(topology);
        this.op = new CasWorkload(client.client().getCPSubsystem().getAtomicReference(ScenarioRunner.REFERENCE_NAME))
                .initialise();
    }

    /**
     * Starts a local cluster for the scenario; everything started is stopped again if any step fails.
     *
     * @param clusterWarmupOps untimed ops through a smart client first, as the CLI runs before its first scenario,
     *                         so the members' JITs are warm (0 for none)
     */
    public static ScenarioSession start(Scenario scenario, TopologySpec spec, ScenarioRunner.SuiteOptions options,
                                        long clusterWarmupOps) {
        Topology topology = TopologyKind.LOCAL.start(spec);
        ScenarioClient client = null;
        try {
            new ScenarioRunner(topology, RunPlan.builder().build(), spec.logDir(), options, (s, r, p) -> { })
                    .warmCluster(clusterWarmupOps);
            LeaderView before = topology.leadership().read();
            MemberRef slow = ScenarioRunner.applyNetwork(topology, options, scenario, before);
            client = ScenarioClient.open(scenario, topology, before, slow, options.connectTimeout(), options.probeSettings());
            return new ScenarioSession(scenario, topology, options, before, slow, client);
        } catch (RuntimeException e) {
            if (client != null) {
                client.close();
            }
            topology.close();
            throw e;
        }
    }

    /** The seed's op through the scenario's client. */
    public Workload op() {
        return op;
    }

    /** The checks the CLI makes after a run, with what the run needs to become a result. Call before closing. */
    public Report finish() {
        ScenarioRunner.ClientCheck clientCheck = ScenarioRunner.checkClient(topology, client, bytesBefore);
        List<String> problems = new ArrayList<>(clientCheck.problems());
        ScenarioRunner.AfterCheck after = ScenarioRunner.checkLeadershipAfter(topology, before, slow);
        problems.addAll(after.problems());
        return new Report(scenario.name(), scenario.network(), scenario.description(), topology.kind(),
                topology.clusterName(), clientCheck.target(), ScenarioRunner.memberInfos(topology),
                ScenarioRunner.networkPath(topology, options, slow, clientCheck.servedBy()), ScenarioRunner.leaderInfo(before),
                ScenarioRunner.leaderInfo(after.after()), List.copyOf(problems), startedAt.toString(),
                Instant.now().toString());
    }

    /** Stops the client, then every member. */
    @Override
    public void close() {
        try {
            client.close();
        } finally {
            topology.close();
        }
    }

    /**
     * What a harness running the op itself cannot see: where the op ran, and whether leadership held. Plain data,
     * written next to a JMH trial's JSON so that {@code cpbench jmh} can turn the trial into a result.
     *
     * @param problems why the trial is UNSTABLE; empty when leadership held and the client stayed put
     * @param startedAt when the cluster was ready and the client connected (ISO-8601)
     * @param endedAt   when the checks ran, after the last iteration
     */
    public record Report(String scenario, String network, String description, String topology, String clusterName,
                         String clientTarget, List<RunResult.MemberInfo> members, RunResult.NetworkPath networkPath,
                         RunResult.LeaderInfo leaderBefore, RunResult.LeaderInfo leaderAfter, List<String> problems,
                         String startedAt, String endedAt) {

        public Report {
            members = members == null ? List.of() : List.copyOf(members);
            problems = problems == null ? List.of() : List.copyOf(problems);
        }
    }
}
