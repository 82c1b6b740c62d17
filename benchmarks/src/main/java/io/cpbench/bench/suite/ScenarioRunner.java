package io.cpbench.bench.suite;

import io.cpbench.bench.scenario.Routing;
import io.cpbench.bench.scenario.Scenario;
import io.cpbench.core.result.Environment;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.Status;
import io.cpbench.core.run.Driver;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.core.run.Measurement;
import io.cpbench.core.run.Outcome;
import io.cpbench.core.run.Progress;
import io.cpbench.core.run.RunPlan;
import io.cpbench.core.workload.CasWorkload;
import io.cpbench.topology.LeaderView;
import io.cpbench.topology.Leadership;
import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;
import io.cpbench.topology.net.NetworkControl;
import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs scenarios on one topology and writes a result for each: leadership is checked before, the client is built
 * for the scenario's routing, the driver measures, leadership and the client's connection are checked again after.
 * Every run ends in a written result, whatever happened: FAIL, UNSTABLE and INCOMPLETE results say why.
 */
public final class ScenarioRunner {

    /** The AtomicReference every scenario drives, in the CP {@code default} group. */
    static final String REFERENCE_NAME = "cpbench-cas";

    private final Topology topology;
    private final RunPlan plan;
    private final Path outDir;
    private final SuiteOptions options;
    private final ProgressSink progress;
    private final Environment environment = Environment.current();
    private volatile Driver current;
    private volatile boolean stopped;

    /** Receives the driver's progress, tagged with what is running. */
    public interface ProgressSink {
        void report(Scenario scenario, int round, Progress progress);
    }

    public ScenarioRunner(Topology topology, RunPlan plan, Path outDir, SuiteOptions options, ProgressSink progress) {
        this.topology = topology;
        this.plan = plan;
        this.outDir = outDir;
        this.options = options;
        this.progress = progress;
    }

    /** Stops the scenario in flight (its result is kept, INCOMPLETE) and refuses further ones. */
    public void stop() {
        stopped = true;
        Driver driver = current;
        if (driver != null) {
            driver.stop();
        }
    }

    public boolean stopped() {
        return stopped;
    }

    /**
     * Runs {@code ops} untimed ops through a smart client, so that every member's JIT has compiled the CP paths
     * before the first scenario is measured. Without it the first scenario of a fresh cluster runs on cold
     * members and loses to whatever runs after it.
     *
     * @return the op/s of the warm-up's second half, a rough guide to how long the scenarios will take
     */
    static final Duration CLUSTER_WARMUP_TIMEBOX = Duration.ofMinutes(10);

    public double warmCluster(long ops) {
        if (ops <= 0 || stopped) {
            return 0;
        }
        LeaderView before = leaderBeforeRun();
        topology.network().ifPresent(NetworkControl::clear);
        Scenario warmUp = new Scenario("cluster-warm-up", "a", Routing.SMART);
        try (ScenarioClient client = ScenarioClient.open(warmUp, topology, before, null, options.connectTimeout(),
                options.probeSettings())) {
            // The first half warms the JIT up; the second half's rate is the guide to what follows. Its own time
            // box: the scenarios' (--timebox) is about measuring, and a short one must not cut the warm-up.
            RunPlan warmPlan = RunPlan.builder().warmupOps(ops - ops / 2).ops(Math.max(1, ops / 2))
                    .timebox(CLUSTER_WARMUP_TIMEBOX).build();
            Measurement m = drive(client, warmPlan, null, p -> progress.report(warmUp, 0, p));
            if (m.outcome() == Outcome.TIMEBOXED) {
                throw new IllegalStateException("the cluster warm-up did not finish " + ops + " ops in "
                        + CLUSTER_WARMUP_TIMEBOX.toMinutes() + " min; the cluster is too slow to measure (lower --cluster-warmup?)");
            }
            return m.opsPerSecond();
        }
    }

    public RunResult run(Scenario scenario, int round) {
        Path hlog = outDir.resolve(String.format("%02d-%s.hlog", round, scenario.name()));
        LeaderView before;
        try {
            before = leaderBeforeRun();
        } catch (RuntimeException e) {
            return write(failed(scenario, round, null, null, "leadership not settled before the run: " + e.getMessage()));
        }
        MemberRef slow;
        try {
            slow = applyNetwork(topology, options, scenario, before);
        } catch (RuntimeException e) {
            return write(failed(scenario, round, before, null, e.getMessage()));
        }
        Measurement measurement;
        ClientCheck clientCheck;
        try (ScenarioClient client = ScenarioClient.open(scenario, topology, before, slow, options.connectTimeout(),
                options.probeSettings())) {
            Map<Integer, Long> bytesBefore = clientBytes(topology);
            measurement = drive(client, plan, hlog, p -> progress.report(scenario, round, p));
            // From here on the measurement is kept whatever happens: a failed check makes the run UNSTABLE.
            clientCheck = checkClient(topology, client, bytesBefore);
        } catch (RuntimeException e) {
            return write(failed(scenario, round, before, slow, "client could not run: " + Driver.describe(e)));
        }
        String target = clientCheck.target();
        Map<String, Long> servedBy = clientCheck.servedBy();
        List<String> unstable = new ArrayList<>(clientCheck.problems());
        AfterCheck check = stopped && Leadership.METRICS.equals(topology.leadership().source())
                ? new AfterCheck(null, List.of("leadership not confirmed after the run: interrupted (waiting for the"
                        + " members' next metrics publication would take up to " + Leadership.METRICS_WAIT.toSeconds() + " s)"))
                : checkLeadershipAfter(topology, before, slow);
        LeaderView after = check.after();
        unstable.addAll(check.problems());
        Status status = status(measurement.outcome(), !unstable.isEmpty());
        List<String> reasons = new ArrayList<>();
        if (measurement.reason() != null) {
            reasons.add(measurement.reason());
        }
        reasons.addAll(unstable);
        return write(result(scenario, round, status, reasons.isEmpty() ? null : String.join("; ", reasons), target, slow,
                measurement.startedAt(), measurement.seconds(), measurement.warmupOps(), measurement.ops(),
                measurement.errors(), measurement.opsPerSecond(), measurement.histogram(), before, after,
                hlog.getFileName().toString(), servedBy, measurement.firstError(), measurement.counters()));
    }

    /** Runs the seed's op through the client; {@link #stop()} reaches the driver while it runs. */
    private Measurement drive(ScenarioClient client, RunPlan runPlan, Path hlog, Consumer<Progress> progressSink) {
        CasWorkload workload = new CasWorkload(client.client().getCPSubsystem().getAtomicReference(REFERENCE_NAME))
                .initialise();
        Driver driver = new Driver(runPlan);
        current = driver;
        try {
            if (stopped) {
                driver.stop();
            }
            return driver.run(workload, hlog, progressSink);
        } finally {
            current = null;
        }
    }

    /**
     * What a run's client did, checked after the run: its target with the balancer's conclusion, the bytes it sent to
     * each member since {@code bytesBefore}, and what makes the run UNSTABLE (a pinned client that moved).
     */
    record ClientCheck(String target, Map<String, Long> servedBy, List<String> problems) {
    }

    static ClientCheck checkClient(Topology topology, ScenarioClient client, Map<Integer, Long> bytesBefore) {
        String target = client.target();
        String view = client.balancerView();
        if (view != null) {
            target = target + "; after the run " + view;
        }
        Map<String, Long> servedBy = Map.of();
        List<String> problems = new ArrayList<>();
        try {
            servedBy = bytesByMemberName(topology, bytesBefore, clientBytes(topology));
            client.verifyPinned();
        } catch (RuntimeException checkFailed) {
            problems.add(checkFailed.getMessage());
        }
        return new ClientCheck(target, servedBy, problems);
    }

    /** Leadership read again after a run, and what makes the run UNSTABLE; {@code after} is null when unreadable. */
    record AfterCheck(LeaderView after, List<String> problems) {
    }

    static AfterCheck checkLeadershipAfter(Topology topology, LeaderView before, MemberRef slow) {
        List<String> problems = new ArrayList<>();
        LeaderView after = null;
        try {
            after = topology.leadership().readAfterRun();
            if (after == null) {
                problems.add("leadership could not be confirmed after the run: the members did not republish their Raft"
                        + " metrics within " + Leadership.METRICS_WAIT.toSeconds() + " s");
                return new AfterCheck(null, problems);
            }
            if (!after.sameLeadershipAs(before)) {
                problems.add("leadership changed during the run: " + before.describe() + " -> " + after.describe());
            }
            if (slow != null && slow.equals(after.leader())) {
                problems.add("the slow member " + slow.name() + " leads after the run");
            }
        } catch (RuntimeException e) {
            problems.add("leadership could not be read after the run: " + e.getMessage());
        }
        return new AfterCheck(after, problems);
    }

    static Status status(Outcome outcome, boolean unstable) {
        return switch (outcome) {
            case FAILED -> Status.FAIL;
            case INTERRUPTED -> Status.INCOMPLETE;
            case TIMEBOXED -> unstable ? Status.UNSTABLE : Status.TIMEBOXED;
            case COMPLETED -> unstable ? Status.UNSTABLE : Status.OK;
        };
    }

    /** The priority member must lead, unanimously; if it does not (say, after a failover), wait for it. */
    private LeaderView leaderBeforeRun() {
        LeaderView view = topology.leadership().read();
        MemberRef priority = topology.priorityMember();
        if (view.unanimous() && view.leader().equals(priority)) {
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
                + " topology cannot slow a member down; network (b) needs the local or embedded topology, or remote with"
                + " an inventory that has an ssh section"));
        MemberRef slow = options.slowMember(topology);
        if (slow.equals(before.leader())) {
            throw new IllegalStateException("the slow member " + slow + " leads; network (b) needs it to be a follower");
        }
        control.slowDown(slow.index(), options.slowDelay());
        return slow;
    }

    private RunResult failed(Scenario scenario, int round, LeaderView before, MemberRef slow, String reason) {
        return result(scenario, round, Status.FAIL, reason, null, slow, Instant.now(), 0, 0, 0, 0, 0, new Histogram(3),
                before, null, null, Map.of(), null, Map.of());
    }

    private RunResult.NetworkPath networkPath(MemberRef slow, Map<String, Long> servedBy) {
        return networkPath(topology, options, slow, servedBy);
    }

    static RunResult.NetworkPath networkPath(Topology topology, SuiteOptions options, MemberRef slow,
                                             Map<String, Long> servedBy) {
        String method = topology.network().map(NetworkControl::method).orElse("direct");
        return slow == null ? new RunResult.NetworkPath(method, null, 0, servedBy)
                : new RunResult.NetworkPath(method, slow.name(), options.slowDelay().toNanos() / 1e6, servedBy);
    }

    static Map<Integer, Long> clientBytes(Topology topology) {
        return topology.network().map(NetworkControl::bytesFromClients).orElse(Map.of());
    }

    static Map<String, Long> bytesByMemberName(Topology topology, Map<Integer, Long> before, Map<Integer, Long> after) {
        Map<String, Long> delta = new java.util.TreeMap<>();
        after.forEach((index, bytes) -> delta.put(topology.members().get(index).name(), bytes - before.getOrDefault(index, 0L)));
        return delta;
    }

    private RunResult result(Scenario scenario, int round, Status status, String reason, String target, MemberRef slow,
                             Instant startedAt, double seconds, long warmupOps, long ops, long errors, double opsPerSecond,
                             Histogram histogram, LeaderView before, LeaderView after, String hlog,
                             Map<String, Long> servedBy, String firstError, Map<String, Long> counters) {
        return new RunResult(RunResult.FORMAT, scenario.name(), scenario.network(), scenario.description(), round,
                status, reason, topology.kind(), topology.clusterName(), target,
                memberInfos(topology),
                networkPath(slow, servedBy),
                new RunResult.PlanInfo(plan.warmupOps(), plan.ops(),
                        plan.duration() == null ? 0 : plan.duration().toMillis() / 1000.0,
                        plan.timebox().toMillis() / 1000.0, plan.threads()),
                environment, startedAt.toString(), seconds, warmupOps, ops, errors, opsPerSecond,
                RunResult.Latency.of(histogram), leaderInfo(before), leaderInfo(after), hlog, RunResult.encode(histogram), null,
                firstError, counters);
    }

    static List<RunResult.MemberInfo> memberInfos(Topology topology) {
        return topology.members().stream().map(m -> new RunResult.MemberInfo(m.name(), m.address(), m.priority())).toList();
    }

    static RunResult.LeaderInfo leaderInfo(LeaderView view) {
        if (view == null || view.leader() == null) {
            return null;
        }
        return new RunResult.LeaderInfo(view.leader().name(), view.leader().address(), view.term(), view.source());
    }

    private RunResult write(RunResult result) {
        ResultFiles.write(outDir, result);
        return result;
    }

    /**
     * Suite-level settings that are not part of the measured plan.
     *
     * @param settle            how long leadership must hold still when it has to be awaited again
     * @param leadershipTimeout how long to wait for the priority member to lead again before a scenario
     * @param connectTimeout    how long a scenario's client may take to connect
     * @param slowMemberIndex   the member made slow in network (b); -1 for the last one
     * @param slowDelay         the one-way delay added to everything the slow member sends
     */
    /**
     * @param probeSettings how the latency-aware and leader-aware scenarios' balancers probe
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
            int index = slowMemberIndex;
            if (index >= members.size()) {
                throw new IllegalArgumentException("slow member " + index + " does not exist; members are 0-" + (members.size() - 1));
            }
            return members.get(index);
        }
    }
}
