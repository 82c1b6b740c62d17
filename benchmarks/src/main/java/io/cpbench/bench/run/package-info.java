/**
 * What each kind of run does, outside the command line: a chaos run and its nemesis, a sweep and its grid, ab's
 * protocol with its client processes, the until-CI stopping rule, a load run's verdict. Commands in
 * {@code io.cpbench.bench.cli} parse options, start the cluster and call these; nothing here reads options or exits
 * the JVM, and every run can be stopped from another thread (a Ctrl-C hook) and still writes what it measured.
 */
package io.cpbench.bench.run;
