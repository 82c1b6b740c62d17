package io.cpbench.bench.suite;

import io.cpbench.bench.scenario.Scenario;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.workload.CasWorkload;
import io.cpbench.core.workload.Workload;
import io.cpbench.topology.LeaderView;
import io.cpbench.topology.Leadership;
import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;
import io.cpbench.topology.net.NetworkControl;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A scenario set up on a running cluster, for whatever drives its op (cp-bench's driver, JMH): the priority member
 * leads, the network is the scenario's, and the client is built for its routing and connected.
 * {@link #finish(boolean)} then checks what every run is checked for: leadership held, a single-address client
 * stayed on its member, and which members the client's bytes went to. Closing it closes the client, never the
 * cluster.
 */
public final class ScenarioSession implements AutoCloseable {

    /** The AtomicReference every scenario drives, in the CP {@code default} group. */
    public static final String REFERENCE_NAME = "cpbench-cas";

    private final Scenario scenario;
    private final Topology topology;
    private final SuiteOptions options;
    private final LeaderView before;
    private final MemberRef slow;
    private final List<ScenarioClient> clients;
    /** Per-group routing: each CP group's clients, one per client instance; empty for every other routing. */
    private final Map<String, List<ScenarioClient>> groupClients;
    /** Each client's byte counter (null where its connections cannot be read) and what it had sent at the start. */
    private final List<SentBytes> sentBytes;
    private final Map<String, Long> bytesBefore;
    private final Workload op;
    private final Instant startedAt = Instant.now();

    /** Setting the scenario up failed; {@link #where()} says as much as was known by then. */
    public static final class SetupException extends IllegalStateException {
        private final transient Report where;

        SetupException(String message, Report where, Throwable cause) {
            super(message, cause);
            this.where = where;
        }

        public Report where() {
            return where;
        }
    }

    /** Builds the ops a session drives from its connected client: the seed's CAS op unless said otherwise. */
    public interface WorkloadFactory {
        Workload create(com.hazelcast.core.HazelcastInstance client);

        /** The seed's op: get, then compareAndSet to the same value, on {@link #REFERENCE_NAME}. */
        WorkloadFactory SEED_CAS = client -> new CasWorkload(client.getCPSubsystem().getAtomicReference(REFERENCE_NAME))
                .initialise();
    }

    private ScenarioSession(Scenario scenario, Topology topology, SuiteOptions options, LeaderView before,
                            MemberRef slow, Map<String, List<ScenarioClient>> groupClients, WorkloadFactory workload) {
        this.scenario = scenario;
        this.topology = topology;
        this.options = options;
        this.before = before;
        this.slow = slow;
        this.clients = List.copyOf(groupClients.values().iterator().next());
        this.groupClients = scenario.routing().perGroup() ? java.util.Collections.unmodifiableMap(groupClients) : Map.of();
        this.sentBytes = all(groupClients).stream().map(c -> SentBytes.attach(c.client())).toList();
        this.bytesBefore = sentSoFar(sentBytes);
        this.op = workload == null ? null : io.cpbench.core.workload.PlantedSlowdown.wrapIfAsked(workload.create(clients.get(0).client()));
    }

    /**
     * Sets {@code scenario} up on {@code topology}: waits until the priority member leads (if it does not), switches
     * the network, connects the client.
     *
     * @throws SetupException naming the step that failed
     */
    public static ScenarioSession open(Scenario scenario, Topology topology, SuiteOptions options) {
        return open(scenario, topology, options, WorkloadFactory.SEED_CAS);
    }

    /** As {@link #open(Scenario, Topology, SuiteOptions)}, driving the ops {@code workload} builds. */
    public static ScenarioSession open(Scenario scenario, Topology topology, SuiteOptions options, WorkloadFactory workload) {
        return open(scenario, topology, options, workload, 1);
    }

    /**
     * As {@link #open(Scenario, Topology, SuiteOptions)}, with {@code clientCount} clients, each built for the
     * scenario's routing and checked as one would be ({@link #clients()}); {@code workload} may be null when the
     * caller drives the clients itself (a load run).
     */
    public static ScenarioSession open(Scenario scenario, Topology topology, SuiteOptions options, WorkloadFactory workload,
                                       int clientCount) {
        return open(scenario, topology, options, workload, clientCount, List.of());
    }

    /**
     * As {@link #open(Scenario, Topology, SuiteOptions, WorkloadFactory, int)}, for objects in {@code groups} (CP
     * group names; empty for {@code default} alone). Only a per-group routing ({@link
     * io.cpbench.bench.scenario.Routing#perGroup()}) looks at them: it opens {@code clientCount} clients for each
     * group, each balancer watching that group's leader ({@link #clientsByGroup()}).
     */
    public static ScenarioSession open(Scenario scenario, Topology topology, SuiteOptions options, WorkloadFactory workload,
                                       int clientCount, List<String> groups) {
        if (clientCount < 1) {
            throw new IllegalArgumentException("clientCount must be at least 1, was " + clientCount);
        }
        LeaderView before;
        try {
            before = leaderBefore(topology, options);
        } catch (RuntimeException e) {
            throw new SetupException("leadership not settled before the run: " + e.getMessage(),
                    report(scenario, topology, options, null, null, null, List.of(), Instant.now()), e);
        }
        MemberRef slow;
        try {
            slow = applyNetwork(topology, options, scenario, before);
        } catch (RuntimeException e) {
            throw new SetupException(e.getMessage(), report(scenario, topology, options, before, null, null, List.of(),
                    Instant.now()), e);
        }
        List<String> clientGroups = !scenario.routing().perGroup() ? List.of(options.probeSettings().cpGroup())
                : groups == null || groups.isEmpty() ? List.of("default") : groups.stream().distinct().toList();
        Map<String, List<ScenarioClient>> clients = new java.util.LinkedHashMap<>();
        try {
            for (String group : clientGroups) {
                List<ScenarioClient> forGroup = new ArrayList<>();
                clients.put(group, forGroup);
                for (int i = 0; i < clientCount; i++) {
                    forGroup.add(ScenarioClient.open(scenario, topology, before, slow, options.connectTimeout(),
                            options.probeSettings().withCpGroup(group)));
                }
            }
            return new ScenarioSession(scenario, topology, options, before, slow, clients, workload);
        } catch (RuntimeException e) {
            all(clients).forEach(ScenarioClient::close);
            throw new SetupException("client could not run: " + io.cpbench.core.run.Driver.describe(e),
                    report(scenario, topology, options, before, slow, null, List.of(), Instant.now()), e);
        }
    }

    /** The seed's op through the scenario's client. */
    public Workload op() {
        return op;
    }

    /** The connected clients, each built for the scenario's routing (per-group routing: the first group's). */
    public List<com.hazelcast.core.HazelcastInstance> clients() {
        return clients.stream().map(ScenarioClient::client).toList();
    }

    /**
     * Per-group routing: for each CP group, the clients whose balancer follows its leader, one per client instance,
     * for the calls on that group's objects ({@code LoadEngine.routeByGroup}); empty for every other routing.
     */
    public Map<String, List<com.hazelcast.core.HazelcastInstance>> clientsByGroup() {
        Map<String, List<com.hazelcast.core.HazelcastInstance>> byGroup = new java.util.LinkedHashMap<>();
        groupClients.forEach((group, list) -> byGroup.put(group, list.stream().map(ScenarioClient::client).toList()));
        return byGroup;
    }

    /** Every client the session opened: a per-group routing's clients of every group. */
    private List<ScenarioClient> allClients() {
        return groupClients.isEmpty() ? clients : all(groupClients);
    }

    private static List<ScenarioClient> all(Map<String, List<ScenarioClient>> byGroup) {
        return byGroup.values().stream().flatMap(List::stream).toList();
    }

    /**
     * The checks every run gets afterwards, and where it ran. Call before closing.
     *
     * @param interrupted the run was stopped by Ctrl-C: where leadership can only be read from the members' next
     *                    metrics publication, do not wait for it
     */
    public Report finish(boolean interrupted) {
        List<String> problems = new ArrayList<>();
        ScenarioClient client = clients.get(0);
        String target = client.target() + (clients.size() > 1 ? " (each of " + clients.size() + " clients)" : "");
        String view = client.balancerView();
        if (!groupClients.isEmpty()) {
            target = client.target() + ", a client per CP group"
                    + (clients.size() > 1 ? " for each of " + clients.size() + " client instances" : "");
            StringBuilder views = new StringBuilder();
            groupClients.forEach((group, list) -> views.append(views.length() == 0 ? "" : "; ").append(group).append(": ")
                    .append(list.get(0).balancerView()));
            view = views.toString();
        }
        if (view != null) {
            target = target + "; after the run " + view;
        }
        Map<String, Long> servedBy = Map.of();
        try {
            servedBy = bytesByMemberName(topology, bytesBefore, sentSoFar(sentBytes));
            for (ScenarioClient c : allClients()) {
                c.verifyPinned();
            }
        } catch (RuntimeException checkFailed) {
            problems.add(checkFailed.getMessage());
        }
        LeaderView after = null;
        if (interrupted && Leadership.METRICS.equals(topology.leadership().source())) {
            problems.add("leadership not confirmed after the run: interrupted (waiting for the members' next metrics"
                    + " publication would take up to " + Leadership.METRICS_WAIT.toSeconds() + " s)");
        } else {
            after = checkLeadershipAfter(problems);
        }
        return report(scenario, topology, options, before, slow, after, problems, startedAt)
                .withTarget(target, networkPath(topology, options, slow, servedBy), memberVersion());
    }

    /** The Hazelcast release of the members, as the first client sees them; null when it cannot tell. */
    public String memberVersion() {
        try {
            return clients.get(0).client().getCluster().getMembers().stream()
                    .map(m -> m.getVersion().toString()).distinct().sorted()
                    .collect(java.util.stream.Collectors.joining(", "));
        } catch (RuntimeException e) {
            return null;
        }
    }

    private LeaderView checkLeadershipAfter(List<String> problems) {
        try {
            LeaderView after = topology.leadership().readAfterRun();
            if (after == null) {
                problems.add("leadership could not be confirmed after the run: the members did not republish their Raft"
                        + " metrics within " + Leadership.METRICS_WAIT.toSeconds() + " s");
                return null;
            }
            if (!after.sameLeadershipAs(before)) {
                problems.add("leadership changed during the run: " + before.describe() + " -> " + after.describe());
            }
            if (slow != null && slow.equals(after.leader())) {
                problems.add("the slow member " + slow.name() + " leads after the run");
            }
            return after;
        } catch (RuntimeException e) {
            problems.add("leadership could not be read after the run: " + e.getMessage());
            return null;
        }
    }

    /** Closes the client; the cluster stays up. */
    @Override
    public void close() {
        allClients().forEach(ScenarioClient::close);
    }

    /** The priority member must lead, unanimously; if it does not (say, after a failover), wait for it. */
    static LeaderView leaderBefore(Topology topology, SuiteOptions options) {
        LeaderView view = topology.leadership().read();
        MemberRef priority = topology.priorityMember();
        if (view.unanimous() && view.leader() != null && (priority == null || view.leader().equals(priority))) {
            return view;
        }
        return topology.leadership().awaitPriorityLeader(priority, options.settle(), options.leadershipTimeout());
    }

    /**
     * Network (a): no delay anywhere. Network (b): the slow member's outgoing traffic delayed; it must be a follower.
     *
     * @return the slow member in (b), null in (a)
     */
    static MemberRef applyNetwork(Topology topology, SuiteOptions options, Scenario scenario, LeaderView before) {
        Optional<NetworkControl> network = topology.network();
        if (!scenario.slowNetwork()) {
            network.ifPresent(NetworkControl::clear);
            return null;
        }
        NetworkControl control = network.orElseThrow(() -> new IllegalStateException("the " + topology.kind()
                + " topology cannot slow a member down; network (b) needs the local, embedded or containers topology, or remote with"
                + " an inventory that has an ssh section"));
        MemberRef slow = options.slowMember(topology);
        if (slow.equals(before.leader())) {
            throw new IllegalStateException("the slow member " + slow + " leads; network (b) needs it to be a follower");
        }
        control.slowDown(slow.index(), options.slowDelay());
        return slow;
    }

    private static Report report(Scenario scenario, Topology topology, SuiteOptions options, LeaderView before,
                                 MemberRef slow, LeaderView after, List<String> problems, Instant startedAt) {
        RunResult.ClusterInfo cluster = new RunResult.ClusterInfo(topology.kind(), topology.clusterName(), null,
                topology.members().stream().map(m -> new RunResult.MemberInfo(m.name(), m.address(), m.priority())).toList(),
                networkPath(topology, options, slow, Map.of()));
        return new Report(scenario.name(), scenario.network().code(), scenario.description(), cluster,
                new RunResult.Leaders(leaderInfo(before), leaderInfo(after)), problems, startedAt.toString(),
                Instant.now().toString());
    }

    static RunResult.NetworkPath networkPath(Topology topology, SuiteOptions options, MemberRef slow,
                                             Map<String, Long> servedBy) {
        String method = topology.network().map(NetworkControl::method).orElse("direct");
        return slow == null ? new RunResult.NetworkPath(method, null, 0, servedBy)
                : new RunResult.NetworkPath(method, slow.name(), options.slowDelay().toNanos() / 1e6, servedBy);
    }

    /** What the clients have sent so far, by member address, summed over clients; empty if any cannot be read. */
    static Map<String, Long> sentSoFar(List<SentBytes> counters) {
        Map<String, Long> total = new java.util.TreeMap<>();
        for (SentBytes counter : counters) {
            if (counter == null) {
                return Map.of();
            }
            counter.byAddress().forEach((address, bytes) -> total.merge(address, bytes, Long::sum));
        }
        return total;
    }

    /**
     * What was sent between {@code before} and {@code after}, by member name: every member of the topology (0 for
     * those sent nothing), and, by address, any other member the clients reached.
     */
    static Map<String, Long> bytesByMemberName(Topology topology, Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> delta = new java.util.TreeMap<>();
        if (after.isEmpty()) {
            return delta;
        }
        Map<String, String> names = new java.util.HashMap<>();
        topology.members().forEach(m -> {
            names.put(m.address(), m.name());
            delta.put(m.name(), 0L);
        });
        after.forEach((address, bytes) -> delta.merge(names.getOrDefault(address, address),
                bytes - before.getOrDefault(address, 0L), Long::sum));
        return delta;
    }

    static RunResult.LeaderInfo leaderInfo(LeaderView view) {
        if (view == null || view.leader() == null) {
            return null;
        }
        return new RunResult.LeaderInfo(view.leader().name(), view.leader().address(), view.term(), view.source());
    }

    /**
     * Where a scenario ran and what the checks around it saw. Plain data, written next to a JMH trial's JSON so that
     * {@code cpbench jmh} can turn the trial into a result.
     *
     * @param problems  why the run is UNSTABLE; empty when leadership held and the client stayed put
     * @param startedAt when the cluster was ready and the client connected (ISO-8601)
     * @param endedAt   when the checks ran, after the last op
     */
    public record Report(String scenario, String network, String description, RunResult.ClusterInfo cluster,
                         RunResult.Leaders leader, List<String> problems, String startedAt, String endedAt) {

        public Report {
            problems = problems == null ? List.of() : List.copyOf(problems);
        }

        Report withTarget(String target, RunResult.NetworkPath path, String memberVersion) {
            RunResult.ClusterInfo c = cluster;
            return new Report(scenario, network, description,
                    new RunResult.ClusterInfo(c.topology(), c.name(), target, c.members(), path, memberVersion), leader, problems,
                    startedAt, endedAt);
        }
    }
}
