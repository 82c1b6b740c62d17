/**
 * The one lifecycle every run goes through ({@link io.cpbench.bench.service.RunService}): run directory, cluster start
 * with progress, Ctrl-C, agents, the run ({@link io.cpbench.bench.service.RunKind}), clean-up, writing what was
 * measured, exit code ({@link io.cpbench.bench.service.ExitCodes}). The only place that installs a Ctrl-C hook or
 * takes a cluster's shutdown over. docs/architecture.md, "Add a run kind", says how a new kind plugs in.
 */
package io.cpbench.bench.service;
