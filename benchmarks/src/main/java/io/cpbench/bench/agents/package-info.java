/**
 * Many load generators: {@code cpbench agent} processes and the coordinator that splits a load between them, over a
 * small Hazelcast control cluster of their own ({@link io.cpbench.bench.agents.ControlCluster}).
 */
package io.cpbench.bench.agents;
