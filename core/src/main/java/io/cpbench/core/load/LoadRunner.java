package io.cpbench.core.load;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Runs a load from an application, as JMH's {@code Runner} runs a benchmark: immutable options (a
 * {@link LoadSpec}), one call that returns the result.
 *
 * <pre>{@code
 * LoadSpec spec = LoadSpec.builder()
 *         .mix("cas=3,increment=1").clients(2).threads(4)
 *         .rate(500).duration(Duration.ofSeconds(20))
 *         .threshold("cas:p99<50ms").threshold("error_rate<1%")
 *         .build();
 * LoadResult result = new LoadRunner(spec, clientConfig).run();
 * }</pre>
 *
 * With a {@link ClientConfig}, the runner starts {@link LoadSpec#clients()} clients from copies of it and shuts
 * them down at the end; with clients of the application's own, it uses them and leaves them running.
 */
public final class LoadRunner {

    private final LoadSpec spec;
    private final ClientConfig config;
    private final List<HazelcastInstance> clients;
    private final Path output;
    private final LoadEngine.Listener listener;
    private volatile LoadEngine engine;
    private volatile boolean stopped;

    /** Starts {@code spec.clients()} clients from copies of {@code config} (each with its own instance name). */
    public LoadRunner(LoadSpec spec, ClientConfig config) {
        this(spec, Objects.requireNonNull(config, "config"), null, null, null);
    }

    /** Uses the application's connected clients, one per {@code spec.clients()}, and leaves them running. */
    public LoadRunner(LoadSpec spec, List<HazelcastInstance> clients) {
        this(spec, null, List.copyOf(clients), null, null);
    }

    private LoadRunner(LoadSpec spec, ClientConfig config, List<HazelcastInstance> clients, Path output,
                       LoadEngine.Listener listener) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.config = config;
        this.clients = clients;
        this.output = output;
        this.listener = listener;
    }

    /** The same runner, also writing {@code load.csv} and one {@code .hlog} per op into {@code dir}. */
    public LoadRunner output(Path dir) {
        return new LoadRunner(spec, config, clients, dir, listener);
    }

    /** The same runner, reporting each interval (and a few messages) to {@code to}. */
    public LoadRunner listener(LoadEngine.Listener to) {
        return new LoadRunner(spec, config, clients, output, to);
    }

    /** Runs the load; blocks until it ends. Thresholds and invariants are judged in the result. */
    public LoadResult run() {
        List<HazelcastInstance> started = new ArrayList<>();
        try {
            List<HazelcastInstance> use = clients;
            if (use == null) {
                boolean noop = spec.mix().containsKey(OpType.NOOP);
                for (int i = 0; !noop && i < spec.clients() && !stopped; i++) {
                    ClientConfig copy = new ClientConfig(config);
                    copy.setInstanceName((config.getInstanceName() == null ? "cpbench-load" : config.getInstanceName())
                            + "-" + i + "-" + System.nanoTime());
                    started.add(HazelcastClient.newHazelcastClient(copy));
                }
                use = started;
            }
            engine = new LoadEngine(spec, use, output, listener);
            if (stopped) {
                engine.stop();
            }
            return engine.run();
        } finally {
            started.forEach(c -> {
                try {
                    c.shutdown();
                } catch (RuntimeException ignored) {
                    // already down
                }
            });
        }
    }

    /** Ends a run in progress after the ops in flight; its result is kept, INTERRUPTED. */
    public void stop() {
        stopped = true;
        LoadEngine e = engine;
        if (e != null) {
            e.stop();
        }
    }
}
