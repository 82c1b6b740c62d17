package io.cpbench.bench.agents;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.core.history.Event;
import io.cpbench.core.history.HistoryRecorder;
import io.cpbench.core.load.LoadMerge;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadResultBuilder;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.status.Status;
import io.cpbench.core.load.Stage;
import io.cpbench.core.run.Driver;
import io.cpbench.topology.FreePorts;
import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The coordinator's side of many load generators: a member of the control cluster ({@link ControlCluster}), the
 * agents that joined it, and a load run split between them. {@link #local} also starts the agents, as processes on
 * this machine's loopback, and stops them on {@link #close()}.
 *
 * <p>A run: each agent's clock offset is measured (best of 5 round trips; an offset over {@link #MAX_CLOCK_OFFSET_MS}
 * refuses the run), the load is split ({@link #split}), each agent gets its slice, connects its clients and says it is
 * ready; once all are (a barrier: on a busy host connecting takes seconds), they get one shared start instant
 * {@link #START_LEAD} ahead, each corrected by its offset; a live line sums their interval numbers; the results merge
 * exactly ({@link LoadMerge}). An agent that leaves the control cluster mid-run (it died, or was cut off) stops the
 * others; the run returns within 10 s of its leaving, INTERRUPTED, with every other agent's numbers and a row naming
 * the lost one.
 */
public final class AgentPool implements AutoCloseable {

    public static final double MAX_CLOCK_OFFSET_MS = 100;
    /** How far ahead of the moment every agent is ready the shared start instant lies. */
    public static final Duration START_LEAD = Duration.ofMillis(500);
    /** The most the coordinator waits for every agent to be ready before it sets the start instant anyway. */
    static final Duration READY_BOUND = Duration.ofSeconds(60);
    /**
     * After an agent is lost, how long the others get to stop and report, on top of the load's drain (their ops in
     * flight end within it): sending back a chaos history of a few hundred thousand events takes seconds.
     */
    private static final Duration AFTER_LOSS_GRACE = Duration.ofSeconds(10);
    /** Local agents' secret, in their log directory while the run lasts. */
    static final String SECRET_FILE = "control.secret";
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(120);
    /** Agents started beforehand only have to be found: a TCP-IP join takes a few seconds. */
    private static final Duration REMOTE_JOIN_TIMEOUT = Duration.ofSeconds(30);

    private final HazelcastInstance control;
    /** Seals what drives the agents: jobs, the start instant, stops (an agent acts on nothing else). */
    private final ControlSecret secret;
    private final List<Process> processes;
    private final Path logDir;
    /** The agents of this pool's first run: every later run uses them alone. */
    private java.util.Set<String> pinned;
    private final PrintStream console;
    private final Map<String, Long> lost = new ConcurrentHashMap<>();
    /**
     * The members admitted as agents, by name: each answered a sealed challenge bound to its member UUID
     * ({@link AdmitTask}). Only these count, get jobs, and stop anything by leaving.
     */
    private final Map<String, Member> admitted = new ConcurrentHashMap<>();
    /** Members refused for good (a wrong answer, or a name already admitted), and those already said to be waited on. */
    private final java.util.Set<UUID> refused = ConcurrentHashMap.newKeySet();
    private final java.util.Set<UUID> said = ConcurrentHashMap.newKeySet();
    private static final Duration ADMIT_TIMEOUT = Duration.ofSeconds(10);
    private volatile String run;
    private volatile boolean stopped;

    private AgentPool(HazelcastInstance control, ControlSecret secret, List<Process> processes, Path logDir,
                      PrintStream console) {
        this.control = control;
        this.secret = secret;
        this.processes = processes;
        this.logDir = logDir;
        this.console = console;
        ControlCluster.onLeave(control, member -> {
            String name = ControlCluster.name(member);
            if (name != null && member.equals(admitted.get(name))) {
                lost.putIfAbsent(name, System.nanoTime());
                String current = run;
                if (current != null) {
                    control.getTopic(ControlCluster.STOPS).publish(secret.seal(current, ControlCluster.MESSAGE_VALID));
                }
            }
        });
    }

    /**
     * Starts the control cluster's coordinator member on loopback and {@code count} agent processes that join it,
     * and waits (at most 2 minutes) until all have joined.
     *
     * @param java   the command that runs this cp-bench ({@code java -jar cpbench.jar}), to which the agent's
     *               arguments are added
     * @param logDir where each agent's output goes ({@code agent-N.log})
     */
    public static AgentPool local(int count, List<String> java, Path logDir, PrintStream console) {
        // Ports claimed for the coordinator and each agent (FreePorts): another cp-bench process on this machine that
        // picks ports at the same moment (a stock cluster's, from 5801 too) does not take them before they are bound.
        int first = FreePorts.consecutive(List.of("127.0.0.1"), count + 1, ControlCluster.DEFAULT_PORT);
        // A secret of this run's own, handed to its agents as a file only this user may read (ControlSecret).
        ControlSecret secret = ControlSecret.generate();
        Path secretFile = logDir.resolve(SECRET_FILE);
        secret.writeTo(secretFile);
        HazelcastInstance control = ControlCluster.start(secret, "127.0.0.1", first, List.of(), ControlCluster.COORDINATOR,
                "coordinator");
        int port = control.getCluster().getLocalMember().getAddress().getPort();
        List<Process> processes = new ArrayList<>();
        AgentPool pool = new AgentPool(control, secret, processes, logDir, console);
        try {
            for (int i = 1; i <= count; i++) {
                List<String> command = new ArrayList<>(java);
                command.addAll(List.of("agent", "--control", "127.0.0.1:" + port, "--secret-file", secretFile.toString(),
                        "--bind", "127.0.0.1", "--port", Integer.toString(first + i), "--name", "agent-" + i,
                        "--exit-with-parent"));
                Path log = logDir.resolve("agent-" + i + ".log");
                processes.add(new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE).start());
            }
            pool.awaitAgents(count);
            return pool;
        } catch (IOException | RuntimeException e) {
            pool.close();
            throw e instanceof RuntimeException r ? r : new IllegalStateException("cannot start agents: " + e.getMessage(), e);
        }
    }

    /**
     * Starts the control cluster's coordinator member at {@code bind} and joins the agents already running at
     * {@code agents} (each started with {@code cpbench agent} and the same {@code secret});
     * waits (at most {@link #REMOTE_JOIN_TIMEOUT}) until that many agents are members. They outlive the run: when this
     * pool closes, they see the coordinator leave and wait for the next one.
     *
     * @param agents the agents' control addresses, host or host:port (port 5801 when not given)
     */
    public static AgentPool remote(List<String> agents, ControlSecret secret, String bind, PrintStream console) {
        List<String> members = agents.stream().map(a -> a.contains(":") ? a : a + ":" + ControlCluster.DEFAULT_PORT).toList();
        HazelcastInstance control = ControlCluster.start(secret, bind, ControlCluster.DEFAULT_PORT, members,
                ControlCluster.COORDINATOR, "coordinator");
        AgentPool pool = new AgentPool(control, secret, List.of(), null, console);
        try {
            pool.refuseIfAnotherCoordinator();
            pool.awaitAgents(agents.size(), REMOTE_JOIN_TIMEOUT, () -> "they were looked for at " + String.join(", ", members)
                    + ", with the secret this coordinator read (start each there with 'cpbench agent --control "
                    + String.join(",", members) + " --bind <its host>', the same secret file on each host)");
            return pool;
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    private void awaitAgents(int count) {
        awaitAgents(count, JOIN_TIMEOUT, () -> "their output is in " + logDir);
    }

    private void awaitAgents(int count, Duration timeout, java.util.function.Supplier<String> where) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (agents().size() < count) {
            for (int i = 0; i < processes.size(); i++) {
                if (!processes.get(i).isAlive()) {
                    throw new IllegalStateException("agent-" + (i + 1) + " exited (code " + processes.get(i).exitValue()
                            + ") before it joined the control cluster; its output: " + logDir.resolve("agent-" + (i + 1) + ".log"));
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(agents().size() + " of " + count + " agents joined the control cluster in "
                        + timeout.toSeconds() + " s" + (agents().isEmpty() ? "" : " (" + String.join(", ", agents().keySet())
                        + ")") + "; " + where.get());
            }
            sleep(200);
        }
    }

    /**
     * Agents serve one coordinator at a time: when another coordinator is already in their control cluster, this one
     * leaves it at once, and the line names the other (where it runs).
     */
    private void refuseIfAnotherCoordinator() {
        Member self = control.getCluster().getLocalMember();
        for (Member m : control.getCluster().getMembers()) {
            // one that only calls itself a coordinator (no secret) is no coordinator: it does not keep this one out
            if (!m.equals(self) && ControlCluster.isCoordinator(m) && admit(m, ControlCluster.COORDINATOR).admitted()) {
                throw new IllegalStateException("these agents serve another coordinator, at " + m.getAddress().getHost()
                        + ":" + m.getAddress().getPort() + " (an agent serves one at a time); run again when its run ends");
            }
        }
    }

    /**
     * The admitted agents in the control cluster now, by name. A member that says it is an agent is first sent the
     * admission challenge; one that answers it wrongly, or under a name already admitted, is refused for good with a
     * line; one that does not answer in time is asked again at the next call.
     */
    public Map<String, Member> agents() {
        java.util.Set<Member> members = control.getCluster().getMembers();
        admitted.values().removeIf(m -> !members.contains(m));
        for (Member m : members) {
            if (!ControlCluster.isAgent(m) || refused.contains(m.getUuid()) || admitted.containsValue(m)) {
                continue;
            }
            String name = ControlCluster.name(m);
            Admission admission = admit(m, ControlCluster.AGENT);
            if (!admission.answered()) {
                if (said.add(m.getUuid())) {
                    console.println("    waiting for the member at " + where(m) + " (it calls itself " + name + "): "
                            + admission.why());
                }
                continue;
            }
            String why = admission.why();
            if (why == null && admitted.containsKey(name)) {
                why = "an agent of that name is admitted already, at " + where(admitted.get(name));
            }
            if (why == null) {
                admitted.put(name, m);
            } else {
                refused.add(m.getUuid());
                console.println("    refused the member at " + where(m) + " that calls itself " + name + ": " + why);
            }
        }
        return new java.util.TreeMap<>(admitted);
    }

    /**
     * What a member did with the admission challenge.
     *
     * @param answered false when no answer came (asked again later)
     * @param why      null when it answered rightly; else why it is not admitted
     */
    private record Admission(boolean answered, String why) {
        boolean admitted() {
            return answered && why == null;
        }
    }

    /** Sends {@code m} the admission challenge and checks that it answered as a {@code role} of its name. */
    private Admission admit(Member m, String role) {
        String nonce = UUID.randomUUID().toString();
        String answer;
        try {
            answer = control.<String>getExecutorService(ControlCluster.EXECUTOR)
                    .submitToMember(AdmitTask.challenge(secret, nonce, m), m)
                    .get(ADMIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Admission(false, "did not answer the admission challenge (interrupted)");
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return new Admission(false, "did not answer the admission challenge (" + Driver.describe(e) + ")");
        }
        String text = secret.open(answer);
        String expected = AdmitTask.answer(nonce, m.getUuid().toString(), ControlCluster.name(m), role);
        return new Admission(true, expected.equals(text) ? null : "it did not answer the admission challenge with the secret");
    }

    private static String where(Member m) {
        return m.getAddress().getHost() + ":" + m.getAddress().getPort();
    }

    /**
     * An agent's clock against the coordinator's.
     *
     * @param offsetMs      the agent's clock minus the coordinator's
     * @param uncertaintyMs half the round trip of the best measurement
     */
    public record Clock(String agent, double offsetMs, double uncertaintyMs) {
    }

    /**
     * Measures each agent's clock offset, in the order of {@code agents}: 5 round trips each, the one with the
     * shortest round trip kept.
     */
    public List<Clock> clocks(Map<String, Member> agents) {
        IExecutorService executor = control.getExecutorService(ControlCluster.EXECUTOR);
        List<Clock> clocks = new ArrayList<>();
        for (Map.Entry<String, Member> agent : agents.entrySet()) {
            Clock best = null;
            for (int i = 0; i < 5; i++) {
                String nonce = UUID.randomUUID().toString();
                long t0 = AgentState.nowMicros();
                String sealed = get(executor.submitToMember(new ClockTask(nonce), agent.getValue()), Duration.ofSeconds(5),
                        agent.getKey());
                long t1 = AgentState.nowMicros();
                Long answer = ClockTask.open(sealed, secret, nonce, agent.getValue().getUuid().toString());
                if (answer == null) {
                    throw new IllegalStateException(agent.getKey() + "'s clock reply is not sealed with the secret for"
                            + " this request: it cannot be measured");
                }
                long theirs = answer;
                Clock c = new Clock(agent.getKey(), (theirs - (t0 + t1) / 2.0) / 1000.0, (t1 - t0) / 2000.0);
                if (best == null || c.uncertaintyMs() < best.uncertaintyMs()) {
                    best = c;
                }
            }
            clocks.add(best);
        }
        return clocks;
    }

    /**
     * The slice of {@code spec} that each of {@code n} agents runs: the clients split between them (or, with one
     * client, its threads), and each stage's level (an open loop's rate, a closed loop's workers). Whole numbers split
     * with their remainders, the first agents taking one more (10 over 3: 4+3+3), so that the shares sum to what was
     * asked; an open loop's rate splits exactly. Each slice works on objects of its own (its prefix ends in the
     * agent's number), so the invariants each agent checks are about its own objects.
     *
     * @throws IllegalArgumentException (one line) when there is less to split than there are agents: fewer clients
     *                                  (and not one client with enough threads), or a closed loop's level of workers
     *                                  between 1 and n - 1
     */
    public static List<LoadSpec> split(LoadSpec spec, int n) {
        if (spec.bounds() != null) {
            throw new IllegalArgumentException("--agents " + n + " cannot split a count of ops (the spec's bounds):"
                    + " give the run a duration or stages instead");
        }
        boolean byClients = spec.clients() >= n;
        if (!byClients && !(spec.clients() == 1 && spec.threads() >= n)) {
            throw new IllegalArgumentException("--agents " + n + " cannot split " + spec.clients() + " client"
                    + (spec.clients() == 1 ? "" : "s") + " x " + spec.threads() + " thread" + (spec.threads() == 1 ? "" : "s")
                    + ": each agent needs a client of its own (give --clients " + n + " or more), or, with 1 client, a"
                    + " thread of its own (--threads " + n + " or more)");
        }
        if (!spec.open()) {
            // the stages' targets; the start level (a ramp's first, often 1) splits with its remainder, down to 0
            List<Double> levels = new ArrayList<>();
            spec.profile().stages().forEach(st -> levels.add(st.target()));
            for (double level : levels) {
                if (level != Math.rint(level) || level > 0 && level < n) {
                    throw new IllegalArgumentException("--agents " + n + " cannot split a level of " + fmtShare(level)
                            + " workers: each agent needs a whole worker at least (a level of 0, or " + n + " or more)");
                }
            }
        }
        if (!spec.names().isEmpty()) {
            throw new IllegalArgumentException("--agents runs each agent on objects of its own, named by the prefix;"
                    + " objects.names cannot be split between agents");
        }
        if (spec.abortOnFail()) {
            throw new IllegalArgumentException("--agents judges thresholds once, on the merged run, at its end;"
                    + " abortOnFail is not supported with --agents");
        }
        int[] even = new int[n];
        java.util.Arrays.fill(even, 1);
        int[] clients = byClients ? apportion(spec.clients(), even) : null;
        int[] threads = byClients ? null : apportion(spec.threads(), even);
        int[] capacity = new int[n];
        for (int i = 0; i < n; i++) {
            capacity[i] = byClients ? clients[i] * spec.threads() : threads[i];
        }
        // a stage's level is op/s in an open loop (split evenly), workers in a closed one (split in proportion to each
        // agent's clients x threads, so that no agent is asked for more workers than it has)
        double[] start = levels(spec, spec.profile().startLevel(), capacity);
        List<double[]> stages = spec.profile().stages().stream().map(st -> levels(spec, st.target(), capacity)).toList();
        List<LoadSpec> slices = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int agent = i;
            LoadSpec.Builder b = spec.toBuilder().clients(byClients ? clients[i] : 1)
                    .threads(byClients ? spec.threads() : threads[i]).prefix(spec.prefix() + "-a" + (i + 1))
                    .seed(spec.seed() + i + 1).clearThresholds();
            List<Stage> mine = new ArrayList<>();
            for (int s = 0; s < stages.size(); s++) {
                mine.add(new Stage(spec.profile().stages().get(s).duration(), stages.get(s)[agent]));
            }
            slices.add(b.start(start[agent]).stages(mine).build());
        }
        return slices;
    }

    /**
     * {@code total} whole things apportioned to weights (largest remainders: each gets its proportional share rounded
     * down, and what is left goes one each to the largest fractions, the first agent first on a tie); the shares sum
     * to {@code total}, and none exceeds its weight while {@code total} is at most their sum.
     */
    static int[] apportion(int total, int[] weights) {
        long sum = 0;
        for (int w : weights) {
            sum += w;
        }
        int[] shares = new int[weights.length];
        double[] fractions = new double[weights.length];
        int given = 0;
        for (int i = 0; i < weights.length; i++) {
            double exact = sum == 0 ? (double) total / weights.length : (double) total * weights[i] / sum;
            shares[i] = (int) Math.floor(exact);
            fractions[i] = exact - shares[i];
            given += shares[i];
        }
        for (int left = total - given; left > 0; left--) {
            int best = 0;
            for (int i = 1; i < weights.length; i++) {
                if (fractions[i] > fractions[best] + 1e-12) {
                    best = i;
                }
            }
            shares[best]++;
            fractions[best] = -1;
        }
        return shares;
    }

    /** Each agent's part of one level: an open loop's rate evenly, a closed loop's workers by capacity. */
    private static double[] levels(LoadSpec spec, double level, int[] capacity) {
        double[] parts = new double[capacity.length];
        if (spec.open()) {
            java.util.Arrays.fill(parts, level / capacity.length);
        } else {
            int[] workers = apportion((int) Math.round(level), capacity);
            for (int i = 0; i < parts.length; i++) {
                parts[i] = workers[i];
            }
        }
        return parts;
    }

    /** "4 clients x 2 threads, 40 op/s" or "1 client x 3 threads, 3 workers": a slice as the run start prints it. */
    static String describeShare(LoadSpec slice) {
        StringBuilder text = new StringBuilder();
        text.append(slice.clients()).append(slice.clients() == 1 ? " client x " : " clients x ").append(slice.threads())
                .append(slice.threads() == 1 ? " thread" : " threads");
        List<String> levels = new ArrayList<>();
        if (slice.profile().startLevel() > 0) {
            levels.add(fmtShare(slice.profile().startLevel()));
        }
        slice.profile().stages().forEach(st -> {
            String level = fmtShare(st.target());
            if (levels.isEmpty() || !levels.get(levels.size() - 1).equals(level)) {
                levels.add(level);
            }
        });
        boolean everyThread = !slice.open() && levels.size() == 1
                && levels.get(0).equals(Integer.toString(slice.clients() * slice.threads()));
        if (!levels.isEmpty() && !everyThread) {
            text.append(", ").append(String.join(" -> ", levels)).append(slice.open() ? " op/s" : " workers");
        }
        return text.toString();
    }

    private static String fmtShare(double level) {
        return level == Math.rint(level) ? Long.toString((long) level) : String.format(Locale.ROOT, "%.2f", level);
    }

    /** Where the agents' clients connect: the members of {@code topology}, with {@code cluster}'s client settings. */
    public static AgentJob.Target target(Topology topology, ClusterChoice cluster) {
        return target(topology, cluster, cluster.memberTuning().atMostOnce());
    }

    /** {@link #target(Topology, ClusterChoice)} on members whose at-most-once setting is {@code atMostOnce}. */
    public static AgentJob.Target target(Topology topology, ClusterChoice cluster, boolean atMostOnce) {
        return new AgentJob.Target(topology.clusterName(), topology.members().stream().map(MemberRef::address).toList(),
                cluster.connectTimeout().toMillis(), cluster.failoverPreset().name(), atMostOnce);
    }

    /** Asks the agents to stop the run in progress after their ops in flight. Safe from any thread. */
    public void stop() {
        stopped = true;
        String current = run;
        if (current != null) {
            control.getTopic(ControlCluster.STOPS).publish(secret.seal(current, ControlCluster.MESSAGE_VALID));
        }
    }

    /**
     * Runs {@code spec}, split between every agent, on the cluster {@code target} names, its clients connecting as
     * {@code scenario} does. Prints the clock offsets and a live line a second (unless {@code quiet}).
     *
     * @throws IllegalStateException when there are no agents, a clock is off by more than the bound, or no agent
     *                               returned a result
     */
    public LoadResult run(LoadSpec spec, String scenario, AgentJob.Target target, boolean quiet) {
        return run(spec, scenario, target, quiet, null, started -> { }).load();
    }

    /**
     * A run's merged result and, when it was recorded, its merged history.
     *
     * @param history every agent's ops on the coordinator's history clock, by time; each agent's processes kept apart
     *                (agent i of n: process p becomes p x n + i - 1; its setup process -1 becomes -i); null when not
     *                recorded
     */
    public record Merged(LoadResult load, List<Event> history) {
    }

    /**
     * {@link #run(LoadSpec, String, AgentJob.Target, boolean)}, each agent recording its ops as a history when
     * {@code history} is given: the merged history is on that recorder's clock (its {@code now()}), each agent's events
     * moved by its measured clock offset. {@code onStart} gets the shared start instant ({@link System#nanoTime()}
     * here) once it is set: when every agent is ready, or {@link #READY_BOUND} after the jobs went out.
     */
    public Merged run(LoadSpec spec, String scenario, AgentJob.Target target, boolean quiet, HistoryRecorder history,
                      java.util.function.LongConsumer onStart) {
        Map<String, Member> agents = agents();
        if (agents.isEmpty()) {
            throw new IllegalStateException("no agent is in the control cluster");
        }
        List<String> changed = pin(agents);
        List<Clock> clocks = checkedClocks(agents);
        List<LoadSpec> slices = split(spec, agents.size());
        int k = 0;
        for (String agent : agents.keySet()) {
            console.printf(Locale.ROOT, "    %s: %s%n", agent, describeShare(slices.get(k++)));
        }
        String id = UUID.randomUUID().toString();
        lost.clear();
        run = id;
        LiveLine live = new LiveLine(id, agents.size(), quiet);
        UUID listener = control.getTopic(ControlCluster.INTERVALS).addMessageListener(m -> {
            String interval = secret.open((String) m.getMessageObject());
            if (interval != null) {
                live.add(interval);
            }
        });
        java.util.Set<String> ready = java.util.concurrent.ConcurrentHashMap.newKeySet();
        UUID readyListener = control.<String>getTopic(ControlCluster.READY).addMessageListener(m -> {
            String word = secret.open(m.getMessageObject());
            if (word == null) {
                return;
            }
            String[] parts = word.split(" ");
            if (parts.length == 2 && parts[0].equals(id)) {
                ready.add(parts[1]);
            }
        });
        try {
            IExecutorService executor = control.getExecutorService(ControlCluster.EXECUTOR);
            Map<String, Future<String>> futures = new LinkedHashMap<>();
            int i = 0;
            for (Map.Entry<String, Member> agent : agents.entrySet()) {
                Clock clock = clocks.get(i);
                String json = AgentTask.JSON.writeValueAsString(slices.get(i).describe());
                AgentJob job = new AgentJob(id, agent.getKey(), json, scenario, target,
                        Math.round(clock.offsetMs() * 1000), history != null, agent.getValue().getUuid().toString(),
                        control.getCluster().getLocalMember().getUuid().toString());
                futures.put(agent.getKey(), executor.submitToMember(AgentTask.of(job, secret), agent.getValue()));
                i++;
            }
            if (stopped) {
                stop();
            }
            long startsAt = startWhenReady(id, agents.keySet(), ready, futures, onStart);
            awaitReports(spec, startsAt, futures, live);
            Merged merged = merge(spec, clocks, futures, history, id, agents);
            if (changed.isEmpty()) {
                return merged;
            }
            LoadResult load = merged.load();
            return new Merged(LoadResultBuilder.builder(load).outcome(Status.worse(load.outcome(), Status.INCOMPLETE))
                    .reason(String.join("; ", changed) + (load.reason() == null ? "" : "; " + load.reason())).build(),
                    merged.history());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write a spec for the agents: " + e.getMessage(), e);
        } finally {
            control.getTopic(ControlCluster.INTERVALS).removeMessageListener(listener);
            control.getTopic(ControlCluster.READY).removeMessageListener(readyListener);
            run = null;
        }
    }

    /**
     * Waits until every agent reported, or, once one was lost, the others had the load's drain and
     * {@link #AFTER_LOSS_GRACE} to stop and report; or the run's length and 2 minutes more passed (then it stops them).
     */
    private void awaitReports(LoadSpec spec, long startsAt, Map<String, Future<String>> futures, LiveLine live) {
        long deadline = startsAt + spec.warmup().toNanos() + spec.profile().totalNanos() + spec.drain().toNanos()
                + Duration.ofSeconds(120).toNanos();
        while (!futures.values().stream().allMatch(Future::isDone)) {
            Long firstLoss = lost.values().stream().min(Long::compare).orElse(null);
            if (firstLoss != null && System.nanoTime() - firstLoss > spec.drain().plus(AFTER_LOSS_GRACE).toNanos()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                stop();
                return;
            }
            live.print();
            sleep(100);
        }
    }

    /**
     * A pool's runs (a sweep's cells) all use the agents of its first: keeps {@code agents} to those, and says what
     * changed since (one that left is named, one that joined is named and not used; the run is then INCOMPLETE).
     */
    private List<String> pin(Map<String, Member> agents) {
        List<String> changed = new ArrayList<>();
        if (pinned == null) {
            pinned = java.util.Set.copyOf(agents.keySet());
            return changed;
        }
        pinned.stream().filter(a -> !agents.containsKey(a)).sorted()
                .forEach(a -> changed.add(a + " left the control cluster since the first run"));
        agents.keySet().stream().filter(a -> !pinned.contains(a)).sorted()
                .forEach(a -> changed.add(a + " joined since the first run and was not used"));
        agents.keySet().retainAll(pinned);
        if (agents.isEmpty()) {
            throw new IllegalStateException("none of this run's agents is left: " + String.join("; ", changed));
        }
        return changed;
    }

    /** Each agent's clock offset, printed; one over {@link #MAX_CLOCK_OFFSET_MS} refuses the run. */
    private List<Clock> checkedClocks(Map<String, Member> agents) {
        List<Clock> clocks = clocks(agents);
        for (Clock c : clocks) {
            console.printf(Locale.ROOT, "    %s: clock %+.1f ms against the coordinator's (±%.1f ms)%n", c.agent(),
                    c.offsetMs(), c.uncertaintyMs());
            if (Math.abs(c.offsetMs()) > MAX_CLOCK_OFFSET_MS) {
                throw new IllegalStateException(c.agent() + "'s clock is " + Math.round(c.offsetMs()) + " ms off the"
                        + " coordinator's, over the bound of " + Math.round(MAX_CLOCK_OFFSET_MS) + " ms: synchronise the"
                        + " hosts' clocks (chrony or NTP) and run again");
            }
        }
        return clocks;
    }

    /**
     * The barrier: waits until every agent has said it is ready (its clients connected; on a busy host that takes
     * seconds), or one failed, left or was stopped, or {@link #READY_BOUND} passed; then sends the start instant,
     * {@link #START_LEAD} ahead, and returns it ({@link System#nanoTime()} here). An agent that was not ready by then
     * starts as soon as it is, late: its lateness (when it began to measure) is in the merged result ({@link LoadMerge}).
     */
    private long startWhenReady(String id, java.util.Set<String> names, java.util.Set<String> ready,
                                Map<String, Future<String>> futures, java.util.function.LongConsumer onStart) {
        long deadline = System.nanoTime() + READY_BOUND.toNanos();
        while (!ready.containsAll(names) && !stopped && lost.isEmpty() && System.nanoTime() < deadline
                && futures.values().stream().noneMatch(Future::isDone)) {
            sleep(20);
        }
        long startsAt = System.nanoTime() + START_LEAD.toNanos();
        control.getTopic(ControlCluster.GO).publish(secret.seal(id + " " + (AgentState.nowMicros()
                + START_LEAD.toNanos() / 1000), ControlCluster.MESSAGE_VALID));
        onStart.accept(startsAt);
        return startsAt;
    }

    private Merged merge(LoadSpec spec, List<Clock> clocks, Map<String, Future<String>> futures, HistoryRecorder history,
                         String run, Map<String, Member> agents) {
        List<LoadMerge.Part> parts = new ArrayList<>();
        List<Event> events = history == null ? null : new ArrayList<>();
        long originMicros = history == null ? 0 : AgentState.nowMicros() - history.now() / 1000;
        int n = futures.size();
        List<LoadResult.AgentRow> rows = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, Future<String>> f : futures.entrySet()) {
            String agent = f.getKey();
            double offset = clocks.get(i++).offsetMs();
            AgentReport report = null;
            String why;
            if (f.getValue().isDone()) {
                try {
                    report = AgentTask.openReport(f.getValue().get(), secret, run, agent,
                            agents.get(agent).getUuid().toString());
                    why = report == null ? "returned a report not sealed with the secret for this run and agent: left out"
                            : report.error();
                } catch (ExecutionException e) {
                    why = lost.containsKey(agent) ? "left the control cluster mid-run" : "failed: " + Driver.describe(e.getCause());
                } catch (Exception e) {
                    why = "returned what the coordinator cannot read: " + Driver.describe(e);
                }
            } else {
                f.getValue().cancel(true);
                why = lost.containsKey(agent) ? "left the control cluster mid-run" : "did not report in time";
            }
            if (report != null && report.result() != null) {
                parts.add(new LoadMerge.Part(agent, report.result(), report.parts(), offset));
                if (events != null && report.history() != null) {
                    int index = i; // 1-based: i was incremented past this agent
                    events.addAll(report.history().events(originMicros, offset, p -> p >= 0 ? p * n + index - 1 : -index));
                }
                rows.add(new LoadResult.AgentRow(agent, report.host(), offset, report.result().outcome(),
                        report.result().reason(), report.result().total().all(), report.result().histograms(), null));
            } else {
                missing.add(agent + " " + why);
                rows.add(new LoadResult.AgentRow(agent, report == null ? null : report.host(), offset, null, why, null,
                        null, null));
            }
        }
        if (parts.isEmpty()) {
            throw new IllegalStateException("no agent returned a result: " + String.join("; ", missing));
        }
        if (events != null) {
            events.sort(java.util.Comparator.comparingLong(Event::time));
        }
        LoadResult merged = LoadMerge.merge(spec, parts, rows);
        if (missing.isEmpty()) {
            return new Merged(merged, events);
        }
        String reason = String.join("; ", missing) + "; the other agents' numbers are kept"
                + (merged.reason() == null ? "" : "; " + merged.reason());
        return new Merged(LoadResultBuilder.builder(merged).outcome(Status.worse(merged.outcome(), Status.INCOMPLETE))
                .reason(reason).build(), events);
    }

    private static <T> T get(Future<T> future, Duration timeout, String agent) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + agent + "'s clock", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read " + agent + "'s clock: " + Driver.describe(e), e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Leaves the control cluster; stops local agents: by closing their input, then at most 10 s later by force; at once
     * by force for an agent that left the control cluster (it died, or it hangs and would not hear its input close).
     */
    @Override
    public void close() {
        stop();
        for (int i = 0; i < processes.size(); i++) {
            if (lost.containsKey("agent-" + (i + 1))) {
                processes.get(i).destroyForcibly();
            }
        }
        for (Process p : processes) {
            try {
                p.getOutputStream().close();
            } catch (IOException e) {
                // it is stopped below either way
            }
        }
        try {
            control.shutdown();
        } catch (RuntimeException e) {
            // already down
        }
        if (logDir != null) {
            try {
                Files.deleteIfExists(logDir.resolve(SECRET_FILE)); // the run's own: of no use after it
            } catch (IOException e) {
                // a dead run's secret opens nothing
            }
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        for (Process p : processes) {
            try {
                if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
