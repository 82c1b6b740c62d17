/**
 * The run kinds, each a {@link io.cpbench.bench.service.RunKind}: a matrix, a load, a sweep and its grid, a chaos run
 * and its nemesis, ab and its protocol with its client processes, jmh, engine-cost, emulator-cost, lb-study; and what
 * they share (the version axis, the until-CI stopping rule, a load run's verdict, run directories, progress lines).
 * Nothing here reads options, installs a Ctrl-C hook or exits the JVM: {@link io.cpbench.bench.service.RunService}
 * runs each kind, and every kind can be stopped from another thread (a Ctrl-C hook) and still writes what it measured.
 */
package io.cpbench.bench.run;
