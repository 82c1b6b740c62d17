package io.cpbench.bench.run;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.IAtomicReference;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.service.RunContext;
import io.cpbench.bench.service.RunKind;
import io.cpbench.core.load.Durations;
import io.cpbench.core.status.Status;
import io.cpbench.lb.LeaderAwareLoadBalancer;
import io.cpbench.lb.ProbeSettings;
import io.cpbench.topology.StockCluster;
import io.soabase.recordbuilder.core.RecordBuilder;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How well the leader-aware balancer finds the CP leader with no help from the members: a stock cluster (the
 * Hazelcast jar alone), fresh application clients started one after another under load, judged against the leader
 * the members' own logs name. Starts fall in three phases: the first minute after a priority leadership transfer,
 * a settled cluster, and the first minute after the leader is killed. One long-lived client measures how fast an
 * application already running follows each change.
 */
public final class LbStudyRun extends StoppableRun implements RunKind {

    /**
     * @param starts         fresh client starts in all, 1-200
     * @param window         how long each fresh client runs; it must route to the leader within it and still at its end
     * @param afterChange    how long after each leadership change starts count as "after transfer" or "after kill"
     * @param threads        threads running the seed op in each client, 1-32
     * @param priorityMember the member with cp-member-priority 1, 0-4
     * @param metricsSeconds seconds between the members' metrics publications
     * @param basePort       the first member's port
     * @param goal           the hit rate the study must reach, 0-1
     */
    public record Config(int starts, Duration window, Duration afterChange, int threads, int priorityMember,
                         int metricsSeconds, int basePort, double goal) {
        public Config {
            if (starts < 1 || starts > 200) {
                throw new IllegalArgumentException("--starts must be 1-200, was " + starts);
            }
            if (window.toMillis() < 1_000 || window.toMinutes() > 10) {
                throw new IllegalArgumentException("--window must be 1s-10m, was " + Durations.human(window));
            }
            if (threads < 1 || threads > 32) {
                throw new IllegalArgumentException("--threads must be 1-32, was " + threads);
            }
            if (priorityMember < 0 || priorityMember > 4) {
                throw new IllegalArgumentException("--priority-member must be 0-4, was " + priorityMember);
            }
            if (!(goal >= 0 && goal <= 1)) {
                throw new IllegalArgumentException("--goal must be 0-1 (0.95 is 95 %), was " + goal);
            }
        }

        /** The stock cluster this study starts: its ports and periods are checked before any member starts. */
        StockCluster.Spec clusterSpec() {
            return new StockCluster.Spec(CLUSTER, 5, basePort, priorityMember, 5, metricsSeconds, Path.of("members"));
        }
    }

    private final Config config;
    private final StockCluster.Spec spec;
    private final PrintStream out;

    /** {@link #stop()} (Ctrl-C) lets no further fresh start begin; the study writes what it has, INCOMPLETE. */
    public LbStudyRun(Config config, PrintStream console) {
        super(console);
        this.config = config;
        this.spec = config.clusterSpec(); // its ports and periods are checked here, before any member starts
        this.out = console;
    }

    /** One fresh client: where it started, what it chose and when, against the truth from the logs. */
    @RecordBuilder
    public record Start(int n, String phase, double sinceChangeSeconds, String bootstrap, String truth, String chosen,
                 double firstHitSeconds, boolean hit, long changes, long ops, String source) {
    }

    /** How the long-lived client followed one leadership change. */
    public record Follow(String from, String to, String routedToAtChange, double followedAfterSeconds) {
    }

    @RecordBuilder
    public record Study(String cluster, int members, String priorityMember, int metricsPeriodSeconds, double windowSeconds,
                 List<Start> starts, List<Follow> follows, int hits, boolean complete) {
    }

    private static final String CLUSTER = "lb-study";
    private static final String GROUP = "default";
    private StockCluster cluster;
    private final List<Start> results = new ArrayList<>();
    private final List<Follow> follows = new ArrayList<>();
    /** When this thread last saw the logs name a new leader (the monitor may see it a poll later). */
    private volatile long seenChange = System.nanoTime();
    private volatile boolean passed;

    @Override
    public String name() {
        return "lb-study";
    }

    @Override
    public void announce(PrintStream console, Path dir) {
        console.println("lb-study: results in " + dir);
    }

    @Override
    public void run(RunContext context) throws IOException, InterruptedException {
        passed = run(context.runDir(), context);
    }

    /** OK when every start ran and the hit rate reached the goal, else FAIL. */
    @Override
    public Status status() {
        return passed ? Status.OK : Status.FAIL;
    }

    /**
     * Starts the stock cluster (its members log under {@code dir}/members), runs the study, writes {@code starts.json}
     * to {@code dir} (also when it could not finish) and prints the hit rate.
     *
     * @return whether every start ran and the hit rate reached the goal
     */
    private boolean run(Path dir, RunContext context) throws IOException, InterruptedException {
        boolean complete = false;
        // owned by the run's context: on Ctrl-C the members stop after starts.json is written, not before
        try (StockCluster c = context.own(StockCluster.start(spec.in(dir.resolve("members")), Duration.ofSeconds(180)))) {
            cluster = c;
            out.println("cluster up: " + String.join(",", c.addresses()) + "; priority member " + c.address(config.priorityMember())
                    + "; metrics every " + config.metricsSeconds() + " s");
            complete = study();
        } finally {
            write(dir, complete);
        }
        int hits = (int) results.stream().filter(Start::hit).count();
        out.printf(Locale.ROOT, "%nhit rate: %d of %d fresh starts routed to the leader within %.0f s and stayed (goal %.0f %%)%s%n",
                hits, results.size(), config.window().toMillis() / 1000.0, config.goal() * 100, complete ? "" : " (INCOMPLETE)");
        for (Follow f : follows) {
            out.printf(Locale.ROOT, "the running client (on %s then) followed %s -> %s: %s%n",
                    f.routedToAtChange().isEmpty() ? "no member yet" : f.routedToAtChange(), f.from(), f.to(),
                    f.followedAfterSeconds() < 0 ? "not followed" : String.format(Locale.ROOT, "%.2f s", f.followedAfterSeconds()));
        }
        out.println("written: " + dir.resolve("starts.json"));
        return hits >= Math.ceil(config.goal() * results.size()) && complete;
    }

    private boolean study() throws InterruptedException {
        // The default group forms on the first CP call; the priority member takes leadership a rebalance period later.
        HazelcastInstance seeder = client(cluster.address(0), null);
        Background background = null;
        try {
            seeder.getCPSubsystem().getAtomicReference("lb-study").set("start");
            String first = awaitLeader(null, Duration.ofSeconds(60));
            out.println("default group formed; first leader " + first);
            background = new Background();
            String priority = cluster.address(config.priorityMember());
            if (!addressOf(first).equals(priority)) {
                String moved = awaitLeader(first, Duration.ofSeconds(60));
                seenChange = System.nanoTime();
                out.println("priority transfer: " + first + " -> " + moved);
            } else {
                out.println("the priority member led from the start: no transfer to study this time");
            }
            int afterKill = Math.max(1, config.starts() / 3);
            Background watched = background;
            java.util.function.LongSupplier lastChange = () -> Math.max(watched.changedAt(), seenChange);
            runStarts(config.starts() - afterKill, lastChange, "after transfer", "settled");
            String leader = truth();
            int index = cluster.addresses().indexOf(addressOf(leader));
            out.println("kill -9 of the leader, member-" + index + " " + leader);
            cluster.kill(index);
            String elected = awaitLeader(leader, Duration.ofSeconds(60));
            seenChange = System.nanoTime();
            out.println("new leader " + elected);
            runStarts(afterKill, lastChange, "after kill", "settled after kill");
            return true;
        } finally {
            if (background != null) {
                background.close();
                follows.addAll(background.follows);
            }
            seeder.shutdown();
        }
    }

    /** Runs {@code count} fresh starts, each labelled by how long after the latest leadership change it began. */
    private void runStarts(int count, java.util.function.LongSupplier changedAt, String recentPhase, String settledPhase)
            throws InterruptedException {
        for (int i = 0; i < count; i++) {
            if (stopped()) {
                throw new InterruptedException("stopped");
            }
            double since = (System.nanoTime() - changedAt.getAsLong()) / 1e9;
            results.add(freshStart(results.size() + 1, since < config.afterChange().toSeconds() ? recentPhase : settledPhase, since));
        }
    }

    private Start freshStart(int n, String phase, double since) throws InterruptedException {
        String truthAtStart = addressOf(truth());
        List<String> live = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            if (cluster.isAlive(i) && !cluster.address(i).equals(truthAtStart)) {
                live.add(cluster.address(i));
            }
        }
        String bootstrap = live.get(n % live.size()); // a follower first, as most clients' address lists would have it
        LeaderAwareLoadBalancer balancer = new LeaderAwareLoadBalancer(ProbeSettings.defaults());
        long t0 = System.nanoTime();
        HazelcastInstance client = client(bootstrap, balancer);
        Load load = new Load(client, "lb-study-" + n);
        double firstHit = -1;
        String chosen = null;
        String truth = truthAtStart;
        try {
            long end = t0 + config.window().toNanos();
            while (System.nanoTime() < end) {
                truth = addressOf(truth());
                chosen = balancer.leader().map(m -> m.getAddress().getHost() + ":" + m.getAddress().getPort()).orElse(null);
                if (firstHit < 0 && truth.equals(chosen)) {
                    firstHit = (System.nanoTime() - t0) / 1e9;
                }
                Thread.sleep(100);
            }
        } finally {
            load.close();
            client.shutdown();
        }
        boolean hit = firstHit >= 0 && truth.equals(chosen);
        Start start = LbStudyRunStartBuilder.builder().n(n).phase(phase)
                .sinceChangeSeconds(Math.round(since * 10) / 10.0).bootstrap(bootstrap).truth(truth).chosen(chosen)
                .firstHitSeconds(Math.round(firstHit * 100) / 100.0).hit(hit).changes(balancer.leaderChanges())
                .ops(load.ops.get()).source(balancer.leaderSource()).build();
        out.printf(Locale.ROOT, "start %2d  %-18s %5.1f s after change  via %-15s -> %-15s truth %-15s %s%s  %,d ops  (%s)%n",
                n, phase, since, bootstrap, chosen, truth, hit ? "HIT" : "MISS",
                firstHit >= 0 ? String.format(Locale.ROOT, " at %.2f s", firstHit) : "", load.ops.get(), balancer.leaderSource());
        return start;
    }

    private String truth() {
        return cluster.leaderInLogs(GROUP).orElse("none@-1");
    }

    private static String addressOf(String truth) {
        return truth.substring(0, truth.indexOf('@'));
    }

    /** Waits until the logs name a leader other than {@code previous} (any leader when it is null). */
    private String awaitLeader(String previous, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<String> now = cluster.leaderInLogs(GROUP);
            if (now.isPresent() && (previous == null || !addressOf(now.get()).equals(addressOf(previous)))) {
                return now.get();
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no " + (previous == null ? "" : "new ") + "leader of the default group in the"
                + " members' logs within " + timeout.toSeconds() + " s");
    }

    private HazelcastInstance client(String address, LeaderAwareLoadBalancer balancer) {
        ClientConfig config = new ClientConfig().setClusterName(CLUSTER);
        config.getNetworkConfig().addAddress(address);
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(30_000);
        config.setProperty("hazelcast.client.invocation.timeout.seconds", "30");
        if (balancer != null) {
            config.setLoadBalancer(balancer);
        }
        return HazelcastClient.newHazelcastClient(config);
    }

    /** The seed's op (get, then compareAndSet) in a few threads until closed; errors during elections are skipped. */
    private final class Load implements AutoCloseable {
        final AtomicLong ops = new AtomicLong();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<Thread> workers = new ArrayList<>();

        Load(HazelcastInstance client, String name) {
            IAtomicReference<String> ref = client.getCPSubsystem().getAtomicReference(name);
            long limit = System.nanoTime() + Duration.ofMinutes(15).toNanos(); // bounded even if never closed
            for (int t = 0; t < config.threads(); t++) {
                Thread worker = new Thread(() -> {
                    while (!stop.get() && System.nanoTime() < limit) {
                        try {
                            String seen = ref.get();
                            ref.compareAndSet(seen, Long.toString(ops.get()));
                            ops.incrementAndGet();
                        } catch (RuntimeException duringElection) {
                            if (stop.get()) {
                                return;
                            }
                        }
                    }
                }, "lb-study-load-" + t);
                worker.setDaemon(true);
                worker.start();
                workers.add(worker);
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread worker : workers) {
                worker.join(35_000);
            }
        }
    }

    /**
     * The application already running: one leader-aware client under load for the whole study, and a monitor that
     * notes each leadership change in the logs and how long this client took to route to the new leader.
     */
    private final class Background implements AutoCloseable {
        private final LeaderAwareLoadBalancer balancer = new LeaderAwareLoadBalancer(ProbeSettings.defaults());
        private final HazelcastInstance client;
        private final Load load;
        private final Thread monitor;
        private final AtomicBoolean stop = new AtomicBoolean();
        final List<Follow> follows = java.util.Collections.synchronizedList(new ArrayList<>());
        private volatile long changedAt = System.nanoTime();

        Background() {
            String leader = addressOf(truth());
            String bootstrap = cluster.addresses().stream().filter(a -> !a.equals(leader)).findFirst().orElseThrow();
            client = client(bootstrap, balancer);
            load = new Load(client, "lb-study-background");
            monitor = new Thread(this::watch, "lb-study-monitor");
            monitor.setDaemon(true);
            monitor.start();
        }

        /** When the logs last named a new leader (or when this client started, before any change). */
        long changedAt() {
            return changedAt;
        }

        private void watch() {
            String truth = addressOf(truth());
            String from = null;
            String atChange = null;
            boolean pending = false;
            long end = System.nanoTime() + Duration.ofMinutes(30).toNanos();
            while (!stop.get() && System.nanoTime() < end) {
                String now = addressOf(truth());
                String chosen = balancer.leader().map(m -> m.getAddress().getHost() + ":" + m.getAddress().getPort()).orElse("");
                if (!now.equals(truth)) {
                    if (pending) {
                        follows.add(new Follow(from, truth, atChange, -1)); // superseded before followed
                    }
                    from = truth;
                    atChange = chosen;
                    truth = now;
                    changedAt = System.nanoTime();
                    pending = true;
                }
                if (pending && chosen.equals(truth)) {
                    follows.add(new Follow(from, truth, atChange,
                            Math.round((System.nanoTime() - changedAt) / 1e7) / 100.0));
                    out.printf(Locale.ROOT, "  the running client (on %s then) followed %s -> %s after %.2f s%n",
                            atChange.isEmpty() ? "no member yet" : atChange, from, truth, (System.nanoTime() - changedAt) / 1e9);
                    pending = false;
                } else if (pending && System.nanoTime() - changedAt > Duration.ofSeconds(60).toNanos()) {
                    follows.add(new Follow(from, truth, atChange, -1));
                    pending = false;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (pending) {
                follows.add(new Follow(from, truth, atChange, -1));
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            monitor.join(5_000);
            load.close();
            client.shutdown();
        }
    }

    private void write(Path dir, boolean complete) {
        int hits = (int) results.stream().filter(Start::hit).count();
        Study study = LbStudyRunStudyBuilder.builder().cluster(CLUSTER).members(5)
                .priorityMember(cluster == null ? null : cluster.address(config.priorityMember()))
                .metricsPeriodSeconds(config.metricsSeconds()).windowSeconds(config.window().toMillis() / 1000.0)
                .starts(results).follows(follows).hits(hits).complete(complete).build();
        RunDirectory.writeJson(dir, "starts.json", study);
    }
}
