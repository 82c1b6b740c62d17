package io.cpbench.bench.agents;

import java.util.List;

/**
 * One agent's part of a load, as the coordinator sends it through the control cluster's executor: as JSON, sealed
 * with the control secret ({@link AgentTask}).
 *
 * @param run           the run's id, which stop messages and interval numbers carry
 * @param agent         the agent's name
 * @param spec          the agent's slice of the load ({@code LoadSpec.describe()} as JSON)
 * @param scenario      how its clients connect
 * @param target        the cluster under test
 * @param offsetMicros  the agent's clock minus the coordinator's, as measured: the start instant the coordinator
 *                      sends (on its own clock, once every agent is ready) is this much later on the agent's
 * @param history       record every op as a history and send it back (chaos)
 * @param agentMember   the UUID of the agent's control member the job is for: an agent runs only its own jobs
 * @param coordinator   the UUID of the coordinator's control member: only its leaving stops the run on the agent
 */
public record AgentJob(String run, String agent, String spec, String scenario, Target target, long offsetMicros,
                       boolean history, String agentMember, String coordinator) {

    /**
     * @param clusterName the cluster under test's name
     * @param addresses   its members' addresses
     * @param connectMs   how long a client may take to connect
     * @param failover    the failover preset its clients use
     * @param atMostOnce  its members fail an op whose outcome is unknown rather than retry it
     *                    (fail-on-indeterminate-operation-state): the counter invariant then allows no duplicate
     */
    public record Target(String clusterName, List<String> addresses, long connectMs, String failover, boolean atMostOnce) {
        public Target {
            addresses = List.copyOf(addresses);
        }
    }
}
