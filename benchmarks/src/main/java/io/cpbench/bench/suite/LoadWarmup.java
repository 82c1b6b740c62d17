package io.cpbench.bench.suite;

import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.core.load.Durations;
import io.cpbench.core.load.LoadEngine;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.Stage;
import io.cpbench.topology.Topology;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The cluster warm-up of load runs and sweeps: their mix, closed loop, through one smart client with up to 16
 * threads, untimed, so that members JIT-compile their CP paths here rather than in the first measured run.
 */
public final class LoadWarmup {

    /** More threads than this add contention, not warmth. */
    public static final int MAX_THREADS = 16;

    private LoadWarmup() {
    }

    /** The warm-up's spec for a run described by {@code base}: its mix and objects, none of its timing. */
    public static LoadSpec spec(LoadSpec base, Duration length) {
        int threads = Math.min(MAX_THREADS, base.workers());
        return base.toBuilder().clients(1).threads(threads).duration(length).stages((List<Stage>) null).open(false)
                .start(threads).warmup(Duration.ZERO).clearThresholds().abortOnFail(false).build();
    }

    /**
     * Runs the warm-up of a run described by {@code base} for {@code length} and prints its rate. {@code running} is
     * told the engine while it runs (and null after), so that Ctrl-C can stop it.
     */
    public static void run(PrintStream console, LoadSpec base, Duration length, Topology topology, SuiteOptions options,
                           Consumer<LoadEngine> running) {
        LoadSpec warm = spec(base, length);
        console.printf(Locale.ROOT, "warming the cluster up for %s: the mix through a smart client, %d threads ...%n",
                Durations.format(length), warm.workers());
        try (ScenarioSession session = ScenarioSession.open(Scenarios.byName("client-smart"), topology, options, null, 1)) {
            LoadEngine engine = new LoadEngine(warm, session.clients(), null, null);
            running.accept(engine);
            try {
                console.printf(Locale.ROOT, "warm-up ran at %,.0f op/s%n", engine.run().total().all().opsPerSecond());
            } finally {
                running.accept(null);
            }
        }
    }
}
