package io.cpbench.bench.agents;

import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.suite.ScenarioSession;
import io.cpbench.core.history.Event;
import io.cpbench.core.history.HistoryRecorder;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.topology.Topology;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Where a load runs: {@link #here() in this process}, on the clients of the scenario's session, or
 * {@link #on(AgentPool) split between agents}, each with clients of its own. The run kinds (load, sweep, chaos) drive
 * a load through this alone, with the same code wherever it runs.
 */
public interface LoadSite {

    /** In this process: the engine drives the session's clients. */
    static LoadSite here() {
        return Here.INSTANCE;
    }

    /** On {@code agents}: the load is split between them and merged back ({@link AgentPool#run}). */
    static LoadSite on(AgentPool agents) {
        return new OnAgents(agents);
    }

    /**
     * How many clients this process's session opens for a load of {@code clients}: all of them here; one on agents,
     * which only waits for the leadership and reads it and the routing before and after, for the result's checks.
     */
    int sessionClients(int clients);

    /** One load, ready to run; nothing is sent before {@link Load#run}. */
    Load prepare(Job job);

    /** How the load reached the cluster, for the line under its summary: the client target, or the agents. */
    String ranOn(LoadResult load, String clientTarget);

    /** For messages: {@code ""} here, {@code " on the agents"} there. */
    String where();

    /**
     * Whether a load writes the engine's files into the job's directory ({@code load.csv} and an HdrHistogram log per
     * op): here it does; on agents it does not, their results are merged in memory.
     */
    boolean writesLoadFiles();

    /**
     * One load.
     *
     * @param spec          what to run
     * @param scenario      the scenario whose routing the clients use (agents build their own clients for it)
     * @param topology      the cluster
     * @param cluster       the cluster's client settings
     * @param atMostOnce    the members in force fail an op whose outcome is unknown rather than retry it (their
     *                      fail-on-indeterminate-operation-state), so that an increment applied twice is a violation
     * @param session       this process's session on the scenario (its clients drive the load here); may be null on
     *                      agents
     * @param dir           where the engine writes its files here
     * @param listener      the engine's progress here, or null
     * @param quiet         on agents: no live line
     * @param recordHistory record every op as a history ({@link Load#history()}), on {@link Load#clock()}'s clock
     */
    record Job(LoadSpec spec, String scenario, Topology topology, ClusterChoice cluster, boolean atMostOnce,
               ScenarioSession session, Path dir, LoadEngine.Listener listener, boolean quiet, boolean recordHistory) {
        public Job {
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(scenario, "scenario");
            Objects.requireNonNull(topology, "topology");
            Objects.requireNonNull(cluster, "cluster");
        }
    }

    /** A prepared load. */
    interface Load {

        /**
         * The clock the history is on (null unless recorded): a fault injector stamps its events with its
         * {@code now()}, before and while the load runs.
         */
        HistoryRecorder clock();

        /**
         * Runs the load; blocks until it ended. {@code onStart} gets the instant its measured ops start from
         * ({@link System#nanoTime()}): at once here, when every agent is ready there.
         */
        LoadResult run(LongConsumer onStart);

        /** The recorded history, by time, once {@link #run} returned; null unless recorded. */
        List<Event> history();

        /** Ends the load after its ops in flight; what was measured is kept. Any thread. */
        void stop();
    }

    /** In this process. */
    final class Here implements LoadSite {

        static final Here INSTANCE = new Here();

        private Here() {
        }

        @Override
        public int sessionClients(int clients) {
            return clients;
        }

        @Override
        public Load prepare(Job job) {
            if (job.session() == null) {
                throw new IllegalArgumentException("a load in this process needs the session's clients");
            }
            LoadEngine engine = new LoadEngine(job.spec(), job.session().clients(), job.dir(), job.listener())
                    .routeByGroup(job.session().clientsByGroup())
                    .atMostOnce(job.atMostOnce());
            if (job.recordHistory()) {
                engine.recordHistory();
            }
            HistoryRecorder clock = engine.historyRecorder();
            return new Load() {
                @Override
                public HistoryRecorder clock() {
                    return clock;
                }

                @Override
                public LoadResult run(LongConsumer onStart) {
                    onStart.accept(System.nanoTime());
                    return engine.run();
                }

                @Override
                public List<Event> history() {
                    return clock == null ? null : clock.events();
                }

                @Override
                public void stop() {
                    engine.stop();
                }
            };
        }

        @Override
        public String ranOn(LoadResult load, String clientTarget) {
            return "via " + clientTarget;
        }

        @Override
        public String where() {
            return "";
        }

        @Override
        public boolean writesLoadFiles() {
            return true;
        }
    }

    /** Split between agents. */
    final class OnAgents implements LoadSite {

        private final AgentPool agents;

        private OnAgents(AgentPool agents) {
            this.agents = Objects.requireNonNull(agents, "agents");
        }

        @Override
        public int sessionClients(int clients) {
            return 1;
        }

        @Override
        public Load prepare(Job job) {
            // The agents record their ops; this recorder is only the clock their histories are moved onto.
            HistoryRecorder clock = job.recordHistory() ? new HistoryRecorder(0) : null;
            AgentJob.Target target = AgentPool.target(job.topology(), job.cluster(), job.atMostOnce());
            return new Load() {
                private volatile List<Event> history;

                @Override
                public HistoryRecorder clock() {
                    return clock;
                }

                @Override
                public LoadResult run(LongConsumer onStart) {
                    AgentPool.Merged merged = agents.run(job.spec(), job.scenario(), target, job.quiet(), clock, onStart);
                    history = merged.history();
                    return merged.load();
                }

                @Override
                public List<Event> history() {
                    return history;
                }

                @Override
                public void stop() {
                    agents.stop();
                }
            };
        }

        @Override
        public String ranOn(LoadResult load, String clientTarget) {
            return "on " + load.agents().size() + " agents";
        }

        @Override
        public String where() {
            return " on the agents";
        }

        @Override
        public boolean writesLoadFiles() {
            return false;
        }
    }
}
