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
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator's side of many load generators: a member of the control cluster ({@link ControlCluster}), the
 * agents that joined it, and a load run split between them. {@link #local} also starts the agents, as processes on
 * this machine's loopback, and stops them on {@link #close()}.
 *
 * <p>A run: each agent's clock offset is measured (best of 5 round trips; an offset over {@link AgentClocks#MAX_OFFSET_MS}
 * refuses the run), the load is split ({@link LoadSplit#split}), each agent gets its slice, connects its clients and says it is
 * ready; once all are (a barrier: on a busy host connecting takes seconds), they get one shared start instant
 * {@link #START_LEAD} ahead, each corrected by its offset; a live line sums their interval numbers; the results merge
 * exactly ({@link LoadMerge}). An agent that leaves the control cluster mid-run (it died, or was cut off) stops the
 * others; the run returns within 10 s of its leaving, INTERRUPTED, with every other agent's numbers and a row naming
 * the lost one.
 */
public final class AgentPool implements AutoCloseable {

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
    private final Pinning pinning = new Pinning();
    private final PrintStream console;
    private final Map<String, Long> lost = new ConcurrentHashMap<>();
    /** The members admitted as agents: only these count, get jobs, and stop anything by leaving. */
    private final Admissions admissions;
    private volatile String run;
    private volatile boolean stopped;

    private AgentPool(HazelcastInstance control, ControlSecret secret, List<Process> processes, Path logDir,
                      PrintStream console) {
        this.control = control;
        this.secret = secret;
        this.processes = processes;
        this.logDir = logDir;
        this.console = console;
        this.admissions = new Admissions(control, secret, console);
        ControlCluster.onLeave(control, member -> {
            String name = ControlCluster.name(member);
            if (name != null && admissions.isAdmitted(name, member)) {
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
            if (!m.equals(self) && ControlCluster.isCoordinator(m) && admissions.admit(m, ControlCluster.COORDINATOR).admitted()) {
                throw new IllegalStateException("these agents serve another coordinator, at " + m.getAddress().getHost()
                        + ":" + m.getAddress().getPort() + " (an agent serves one at a time); run again when its run ends");
            }
        }
    }

    /** The admitted agents in the control cluster now, by name ({@link Admissions#agents}). */
    public Map<String, Member> agents() {
        return admissions.agents();
    }

    /**
     * Measures each agent's clock offset, in the order of {@code agents}: 5 round trips each, the one with the
     * shortest round trip kept.
     */
    public List<AgentClocks.Clock> clocks(Map<String, Member> agents) {
        return new AgentClocks(control, secret).measure(agents);
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
        List<String> changed = pinning.pin(agents);
        List<AgentClocks.Clock> clocks = AgentClocks.checked(clocks(agents), console);
        List<LoadSpec> slices = LoadSplit.split(spec, agents.size());
        int k = 0;
        for (String agent : agents.keySet()) {
            console.printf(Locale.ROOT, "    %s: %s%n", agent, LoadSplit.describeShare(slices.get(k++)));
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
        UUID readyListener = listenForReady(id, ready);
        try {
            Map<String, Future<String>> futures = sendJobs(id, agents, clocks, slices,
                    new JobTemplate(scenario, target, history != null));
            if (stopped) {
                stop();
            }
            long startsAt = startWhenReady(id, agents.keySet(), ready, futures, onStart);
            awaitReports(spec, startsAt, futures, live);
            Merged merged = new ReportMerge(secret, lost).merge(spec, clocks, futures, history, id, agents);
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

    /** Collects the agents that said they are ready for run {@code id} (their clients connected) into {@code ready}. */
    private UUID listenForReady(String id, java.util.Set<String> ready) {
        return control.<String>getTopic(ControlCluster.READY).addMessageListener(m -> {
            String word = secret.open(m.getMessageObject());
            if (word == null) {
                return;
            }
            String[] parts = word.split(" ");
            if (parts.length == 2 && parts[0].equals(id)) {
                ready.add(parts[1]);
            }
        });
    }

    /** What every agent's job of one run shares: the scenario its clients connect as, where, whether it records. */
    private record JobTemplate(String scenario, AgentJob.Target target, boolean recordHistory) {
    }

    /** Sends each agent its slice, sealed for it; returns each one's report to come, by agent. */
    private Map<String, Future<String>> sendJobs(String id, Map<String, Member> agents, List<AgentClocks.Clock> clocks,
                                                 List<LoadSpec> slices, JobTemplate template)
            throws com.fasterxml.jackson.core.JsonProcessingException {
        IExecutorService executor = control.getExecutorService(ControlCluster.EXECUTOR);
        Map<String, Future<String>> futures = new LinkedHashMap<>();
        int i = 0;
        for (Map.Entry<String, Member> agent : agents.entrySet()) {
            String json = AgentTask.JSON.writeValueAsString(slices.get(i).describe());
            AgentJob job = new AgentJob(id, agent.getKey(), json, template.scenario(), template.target(),
                    Math.round(clocks.get(i).offsetMs() * 1000), template.recordHistory(),
                    agent.getValue().getUuid().toString(), control.getCluster().getLocalMember().getUuid().toString());
            futures.put(agent.getKey(), executor.submitToMember(AgentTask.of(job, secret), agent.getValue()));
            i++;
        }
        return futures;
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
