package io.cpbench.bench.agents;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.bench.suite.SuiteOptions;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.run.Driver;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.Topology;

import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Runs on an agent, through the control cluster's executor: connects the job's clients to the cluster under test,
 * waits for the shared start instant, runs the engine and returns an {@link AgentReport} as JSON. Each interval's
 * numbers go out on the control cluster's interval topic, for the coordinator's live line.
 * <p>
 * It travels as one string: the job as JSON, sealed with the control secret ({@link ControlSecret#seal}). An agent
 * runs it only when the seal opens under its own secret, in time, and the job's run has not been sent to it before;
 * else it logs one line and returns why it refused.
 */
final class AgentTask implements Callable<String>, Serializable, HazelcastInstanceAware {

    private static final long serialVersionUID = 1L;
    static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();
    /** How long a ready agent waits for the coordinator's start instant (the others may still be connecting). */
    static final Duration READY_WAIT = Duration.ofSeconds(120);

    /** How long a sealed job may take to reach its agent. */
    static final Duration JOB_VALID = Duration.ofSeconds(60);

    private final String sealed;
    private transient AgentJob job;
    private transient HazelcastInstance control;

    /** A task carrying {@code sealed} as it came: {@link #of} seals it; the strangers test sends it unsealed. */
    AgentTask(String sealed) {
        this.sealed = sealed;
    }

    /** The task that runs {@code job} on an agent, sealed under {@code secret}. */
    static AgentTask of(AgentJob job, ControlSecret secret) {
        try {
            return new AgentTask(secret.seal(JSON.writeValueAsString(job), JOB_VALID));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write a job for an agent: " + e.getMessage(), e);
        }
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance instance) {
        control = instance;
    }

    /** How long a report stays valid: it may wait for the other agents' before the coordinator reads it. */
    static final Duration REPORT_VALID = Duration.ofMinutes(10);

    @Override
    public String call() throws Exception {
        String text = AgentState.open(sealed);
        String refused = null;
        if (text == null) {
            refused = "a job not sealed with this control cluster's secret, or past its deadline";
        } else {
            job = readJob(text);
            if (job == null) {
                refused = "a sealed message that is not a job";
            } else if (!job.agent().equals(myName()) || !myMember().equals(job.agentMember())) {
                refused = "a job for " + job.agent() + " (member " + job.agentMember() + "), not for this agent, "
                        + myName();
            } else if (!AgentState.firstTime(job.run(), job.agent())) {
                refused = "a job for run " + job.run() + " that it was sent before (a replay)";
            }
        }
        if (refused != null) {
            System.out.println("refused " + refused); // one line in the agent's log
            return sealReport(job == null ? "-" : job.run(), new AgentReport(null, AgentState.host(), "refused " + refused));
        }
        return sealReport(job.run(), run());
    }

    /**
     * The name of the agent this runs on: its control member's, read from the member itself (the job may come in the
     * moment the member has joined, before the agent's own start-up has returned); {@link AgentState}'s where there is
     * no member (a test calling the task directly).
     */
    private String myName() {
        return control != null ? ControlCluster.name(control.getCluster().getLocalMember()) : AgentState.name();
    }

    /** The UUID of the control member this runs on, as {@link #myName()}. */
    private String myMember() {
        return String.valueOf(control != null ? control.getCluster().getLocalMember().getUuid() : AgentState.self());
    }

    /** The job {@code text} holds; null when it holds another message (an interval, a report, a ready word). */
    private static AgentJob readJob(String text) {
        try {
            return JSON.readValue(text, AgentJob.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }

    /**
     * {@code report} as it travels back: sealed under the secret and bound to the run, this agent's name and its
     * member, so that the coordinator merges only what this agent sent for this run ({@link #openReport}).
     */
    String sealReport(String run, AgentReport report) throws com.fasterxml.jackson.core.JsonProcessingException {
        return AgentState.seal(reportHeader(run, myName(), myMember()) + "\n"
                + JSON.writeValueAsString(report), REPORT_VALID);
    }

    /**
     * The report {@code sealed} holds when it was sealed under {@code secret} by {@code agent}'s member
     * {@code member} for {@code run}; else null.
     */
    static AgentReport openReport(String sealed, ControlSecret secret, String run, String agent, String member)
            throws com.fasterxml.jackson.core.JsonProcessingException {
        String text = secret.open(sealed);
        String header = reportHeader(run, agent, member) + "\n";
        if (text == null || !text.startsWith(header)) {
            return null;
        }
        return JSON.readValue(text.substring(header.length()), AgentReport.class);
    }

    private static String reportHeader(String run, String agent, String member) {
        return "cpbench-report " + run + " " + agent + " " + member;
    }

    private AgentReport run() {
        String host = AgentState.host();
        LoadSpec spec;
        try {
            spec = LoadSpec.fromTree(JSON.readTree(job.spec()), Set.of()).build();
        } catch (Exception e) {
            return new AgentReport(job.agent(), host, "the spec it was sent is not one it reads: " + Driver.describe(e));
        }
        AgentJob.Target target = job.target();
        Topology topology = null;
        ScenarioSession session = null;
        AgentState.Running running = AgentState.begin(job.run(), uuid(job.coordinator()));
        try {
            ClusterChoice cluster = ClusterChoice.builder().topology("attach").clusterName(target.clusterName())
                    .connect(target.addresses()).failover(target.failover())
                    .connectTimeout(Duration.ofMillis(target.connectMs())).settle(Duration.ofSeconds(1)).build();
            topology = cluster.start(null);
            SuiteOptions options = cluster.suiteOptions(-1, SuiteOptions.SEED_DELAY, ProbeSettings.defaults());
            session = ScenarioSession.open(Scenarios.byName(job.scenario()), topology, options, null, spec.clients(),
                    spec.objectGroups());
            LoadEngine engine = new LoadEngine(spec, session.clients(), null, new Intervals(control, job))
                    .routeByGroup(session.clientsByGroup()).atMostOnce(target.atMostOnce());
            if (job.history()) {
                engine.recordHistory();
            }
            if (!running.engine(engine)) {
                return new AgentReport(job.agent(), host, "stopped before it started");
            }
            long startAt = awaitGo(running);
            if (startAt < 0) {
                return new AgentReport(job.agent(), host, running.stopped() ? "stopped before it started"
                        : "no start instant came from the coordinator within " + READY_WAIT.toSeconds() + " s of being ready");
            }
            if (!waitUntil(startAt, running)) {
                return new AgentReport(job.agent(), host, "stopped before it started");
            }
            // the agent's own log: when its part of a run began (a test kills an agent mid-run on this line)
            System.out.printf(java.util.Locale.ROOT, "%s: started run %s%n", job.agent(), job.run());
            LoadResult result = engine.run();
            session.finish(running.stopped());
            // the agent's own log: what each run did, and whether it was stopped (a stop message, the coordinator gone)
            System.out.printf(java.util.Locale.ROOT, "%s: run %s ended%s: %,d ops, %,d errors, %s%n", job.agent(), job.run(),
                    running.stopped() ? " (stopped)" : "", result.total().all().ops(), result.total().all().errors(),
                    result.outcome());
            return new AgentReport(job.agent(), host, result, engine.parts(), null, job.history() ? history(engine) : null);
        } catch (RuntimeException e) {
            return new AgentReport(job.agent(), host, "could not run its part: " + Driver.describe(e));
        } finally {
            AgentState.end(running);
            if (session != null) {
                session.close();
            }
            if (topology != null) {
                topology.close();
            }
        }
    }

    private static AgentReport.History history(LoadEngine engine) {
        io.cpbench.core.history.HistoryRecorder recorder = engine.historyRecorder();
        List<AgentReport.Line> lines = recorder.events().stream().map(AgentReport.Line::of).toList();
        return new AgentReport.History(AgentState.nowMicros() - recorder.now() / 1000, lines);
    }

    /**
     * Says on the ready topic that this agent's clients are connected, then waits for the coordinator's start instant
     * (sent once every agent said so): that instant on this agent's clock, or -1 when the run was stopped first or no
     * instant came within {@link #READY_WAIT}. The listener is in place before the word goes out, so the instant
     * cannot pass unheard.
     */
    private long awaitGo(AgentState.Running running) {
        if (control == null) {
            return -1;
        }
        java.util.concurrent.CompletableFuture<Long> go = new java.util.concurrent.CompletableFuture<>();
        java.util.UUID listener = control.<String>getTopic(ControlCluster.GO).addMessageListener(m -> {
            String instant = AgentState.open(m.getMessageObject());
            if (instant == null) {
                System.out.println("refused a start instant not sealed with this control cluster's secret");
                return;
            }
            String[] parts = instant.split(" ");
            if (parts.length == 2 && parts[0].equals(job.run())) {
                go.complete(Long.parseLong(parts[1]));
            }
        });
        try {
            control.getTopic(ControlCluster.READY).publish(AgentState.seal(job.run() + " " + job.agent()));
            long deadline = System.nanoTime() + READY_WAIT.toNanos();
            while (!running.stopped() && System.nanoTime() < deadline) {
                try {
                    return go.get(100, TimeUnit.MILLISECONDS) + job.offsetMicros();
                } catch (java.util.concurrent.TimeoutException notYet) {
                    // keep waiting, and keep checking for a stop
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return -1;
                } catch (java.util.concurrent.ExecutionException cannot) {
                    return -1;
                }
            }
            return -1;
        } finally {
            control.getTopic(ControlCluster.GO).removeMessageListener(listener);
        }
    }

    /** Sleeps until {@code startAt} on this agent's clock; false when the run was stopped first. */
    private static boolean waitUntil(long startAt, AgentState.Running running) {
        while (!running.stopped()) {
            long left = startAt - AgentState.nowMicros();
            if (left <= 0) {
                return true;
            }
            try {
                TimeUnit.MICROSECONDS.sleep(Math.min(left, 100_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private static java.util.UUID uuid(String text) {
        try {
            return text == null ? null : java.util.UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Each interval's numbers, on the control cluster's interval topic. */
    private record Intervals(HazelcastInstance control, AgentJob job) implements LoadEngine.Listener {
        @Override
        public void interval(LoadEngine.IntervalReport report) {
            if (control == null) {
                return;
            }
            try {
                control.getTopic(ControlCluster.INTERVALS).publish(AgentState.seal(JSON.writeValueAsString(new Interval(
                        job.run(), job.agent(), report.elapsed(), report.opsPerSecond(), report.errors(),
                        report.latency().p50(), report.latency().p99(), report.done()))));
            } catch (Exception e) {
                // the live line misses one interval; the result does not depend on it
            }
        }
    }

    /** One interval of one agent, as the coordinator's live line reads it. */
    record Interval(String run, String agent, double elapsed, double opsPerSecond, long errors, long p50, long p99,
                    long done) {
    }
}
