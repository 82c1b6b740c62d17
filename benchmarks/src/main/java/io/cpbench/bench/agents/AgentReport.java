package io.cpbench.bench.agents;

import io.cpbench.core.load.LoadParts;
import io.cpbench.core.load.LoadResult;

/**
 * What an agent sends back for its part of a load (as JSON): its own result and its numbers in a form that adds up,
 * or why it could not run.
 *
 * @param host  where it ran
 * @param error why it did not run its part; null when it did
 */
record AgentReport(String agent, String host, LoadResult result, LoadParts parts, String error) {
}
