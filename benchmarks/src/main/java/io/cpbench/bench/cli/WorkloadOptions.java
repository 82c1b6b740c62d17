package io.cpbench.bench.cli;

import io.cpbench.core.load.LoadSpecBuilder;
import io.cpbench.core.load.LoadSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The workload a load engine run drives, spelled the same in {@code load} and {@code chaos}: the op mix, the objects,
 * clients x threads, an open-loop rate, the seed, and whether the live line is shown. Each command creates it with its
 * own defaults, which its help shows; {@code load} applies only what was given (a spec file's values stand otherwise),
 * {@code chaos} applies everything.
 */
final class WorkloadOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--mix", paramLabel = "OP=W,...", description = "Ops and weights (default: ${DEFAULT-VALUE}); ops: cas, get, set,"
            + " increment, lock, semaphore, read, write, cmpset (registers), noop (the engine alone).")
    String mix;

    @Option(names = "--objects", paramLabel = "N", description = "CP objects of each kind the ops spread over (default: ${DEFAULT-VALUE}).")
    int objects;

    @Option(names = "--clients", paramLabel = "N", description = "Client instances, each built for the scenario's routing (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--threads", paramLabel = "T", description = "Worker threads per client (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--rate", paramLabel = "OPS", description = "Open loop at this rate in op/s, ops timed from when they were due (default: closed loop).")
    Double rate;

    @Option(names = "--seed", paramLabel = "N", description = "Seed for op, object and value choices, and chaos's random targets, to repeat a run's sequence (default: a fresh one, kept in the result).")
    Long seed;

    @Option(names = "--quiet", description = "No live line each interval.")
    boolean quiet;

    WorkloadOptions(String mix, int objects, int clients, int threads) {
        this.mix = mix;
        this.objects = objects;
        this.clients = clients;
        this.threads = threads;
    }

    /** {@code load}'s defaults: the engine's own (the seed's cas op, one object, 1 client x 1 thread). */
    static WorkloadOptions engineDefaults() {
        return new WorkloadOptions("cas", 1, 1, 1);
    }

    /** Sets on {@code b} the options given on the command line, leaving the rest as {@code b} has them. */
    LoadSpecBuilder applyGiven(LoadSpecBuilder b) {
        return apply(b, true);
    }

    /** Sets on {@code b} every option, given or defaulted. */
    LoadSpecBuilder applyAll(LoadSpecBuilder b) {
        return apply(b, false);
    }

    private LoadSpecBuilder apply(LoadSpecBuilder b, boolean onlyGiven) {
        if (!onlyGiven || given("--mix")) {
            b.mix(mix);
        }
        if (!onlyGiven || given("--objects")) {
            b.objects(objects);
        }
        if (!onlyGiven || given("--clients")) {
            b.clients(clients);
        }
        if (!onlyGiven || given("--threads")) {
            b.threads(threads);
        }
        if (rate != null) {
            b.rate(rate);
        }
        if (seed != null) {
            b.seed(seed);
        }
        return b;
    }

    private boolean given(String option) {
        return mixee.commandLine().getParseResult().hasMatchedOption(option);
    }
}
