package io.cpbench.bench.run;

import io.cpbench.bench.service.RunContext;
import io.cpbench.bench.service.RunKind;
import io.cpbench.core.status.Status;
import io.cpbench.topology.StockCluster;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code stock-cluster}: members running the stock Hazelcast jar alone, kept up until Ctrl-C or {@code --for}, then
 * stopped. A run like the others: its directory holds the members' configurations and logs ({@code members/}), and
 * its members are the run's (Ctrl-C stops them through the run service, after the last line is printed). It measures
 * nothing, so the results history has nothing to record of it.
 */
public final class StockClusterRun implements RunKind {

    /** How long the members may take to form the cluster. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private final StockCluster.Spec spec;
    private final Duration limit;
    private final PrintStream console;
    /** Counted down by {@link #stop()} alone: a run that reached its {@code --for} was not stopped. */
    private final CountDownLatch stop = new CountDownLatch(1);
    private volatile Status status;

    /**
     * @param spec  the cluster (its directory is replaced by the run directory's {@code members/})
     * @param limit how long to keep it up; null for until Ctrl-C
     */
    public StockClusterRun(StockCluster.Spec spec, Duration limit, PrintStream console) {
        this.spec = spec;
        this.limit = limit;
        this.console = console;
    }

    @Override
    public String name() {
        return "stock-cluster";
    }

    @Override
    public void announce(PrintStream out, Path runDir) {
        out.println("starting " + spec.members() + " stock members (" + spec.memberJar().getFileName()
                + ", configs and logs in " + runDir.resolve("members") + ") ...");
    }

    @Override
    public void run(RunContext context) throws InterruptedException {
        StockCluster cluster = context.own(StockCluster.start(spec.in(context.runDir().resolve("members")), START_TIMEOUT));
        console.println("cluster '" + spec.clusterName() + "' up: " + String.join(",", cluster.addresses())
                + (spec.priorityMember() >= 0 ? "; priority member " + cluster.address(spec.priorityMember()) : ""));
        console.println("attach with: --topology attach --cluster-name " + spec.clusterName() + " --connect "
                + cluster.address(0));
        if (limit == null) {
            console.println("Ctrl-C stops every member.");
            stop.await();
        } else {
            console.println("stopping in " + limit.toSeconds() + " s.");
            stop.await(limit.toMillis(), TimeUnit.MILLISECONDS);
        }
        status = Status.OK;
    }

    @Override
    public void stop() {
        stop.countDown();
    }

    /** Ctrl-C is how this run is meant to end: it measured nothing, so nothing is kept. */
    @Override
    public String interruptedLine() {
        return "stopping the members ...";
    }

    @Override
    public boolean stopped() {
        return stop.getCount() == 0;
    }

    /** OK once the members were up for as long as asked (Ctrl-C ends the run with 130 whatever this says). */
    @Override
    public Status status() {
        return status;
    }
}
