package io.cpbench.topology;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Starts one cp-bench CP member in this JVM. The local topology runs it as a child process; the AWS lab
 * runs the very same command on each member host.
 */
@Command(name = "cpbench-member", mixinStandardHelpOptions = true,
        description = "Runs one CP member of a cp-bench cluster until it is stopped.")
public final class MemberLauncher implements Callable<Integer> {

    /** Printed to standard output once the member has joined; the local topology waits for it. */
    public static final String READY_LINE = "cpbench-member-ready";

    /** Whether a member's log (its standard output, as the topologies keep it) has the ready line yet. */
    public static boolean printedReady(java.nio.file.Path log) {
        try {
            return java.nio.file.Files.readString(log, java.nio.charset.StandardCharsets.UTF_8).contains(READY_LINE);
        } catch (IOException | java.io.UncheckedIOException notYet) {
            return false;
        }
    }

    @Option(names = "--cluster-name", required = true, description = "Hazelcast cluster name.")
    String clusterName;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind and announce (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", required = true, description = "Member port.")
    int port;

    @Option(names = "--public-port", description = "Port to announce, when a proxy stands in front of the member (default: --port).")
    Integer publicPort;

    @Option(names = "--outbound-ports", paramLabel = "FROM-TO", description = "Ports to open connections to other members from (default: any).")
    String outboundPorts;

    @Option(names = "--members", required = true, split = ",", description = "All members as host:port, comma separated.")
    List<String> members;

    @Option(names = "--priority", defaultValue = "0", description = "CP leadership priority; the highest leads (default: ${DEFAULT-VALUE}).")
    int priority;

    @Option(names = "--rebalance-period", defaultValue = "5",
            description = "Seconds between leadership rebalances toward the priority member (default: ${DEFAULT-VALUE}).")
    int rebalancePeriodSeconds;

    @Option(names = "--failover", defaultValue = "default",
            description = "Failure detection preset: default (Hazelcast's) or fast (default: ${DEFAULT-VALUE}).")
    String failover;

    @Option(names = "--tune", paramLabel = "KNOB=VALUE",
            description = "A member setting, repeatable: operation-threads, generic-threads, io-threads, raft-uncommitted-entries,"
                    + " raft-append-batch, fail-on-indeterminate-operation-state, session-ttl-seconds,"
                    + " session-heartbeat-seconds, missing-member-removal-seconds.")
    List<String> tune;

    @Option(names = "--client-port", description = "Accept clients on this port, apart from members (Hazelcast's advanced networking).")
    Integer clientPort;

    @Option(names = "--client-public-address", paramLabel = "HOST:PORT",
            description = "With --client-port: the address clients are told to use (a container's published port).")
    String clientPublicAddress;

    @Option(names = "--bind-address", paramLabel = "ADDRESS",
            description = "With --client-port: bind both endpoints to this address alone and announce --host, a name, to members.")
    String bindAddress;

    @Option(names = "--exit-with-parent",
            description = "Exit when standard input closes, so the member dies with the process that started it, "
                    + "and leave Ctrl-C (SIGINT) to that process.")
    boolean exitWithParent;

    private static final String LOG_FORMAT = "java.util.logging.SimpleFormatter.format";

    public static void main(String[] args) {
        // Millisecond timestamps in the member's log: failover is judged in ms, and JUL's default shows seconds.
        if (System.getProperty(LOG_FORMAT) == null) {
            System.setProperty(LOG_FORMAT, "%1$tF %1$tT.%1$tL %4$s %3$s: %5$s%6$s%n");
        }
        System.exit(new CommandLine(new MemberLauncher()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        MemberSettings settings = settings();
        HazelcastInstance instance = Hazelcast.newHazelcastInstance(settings.toConfig());
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            instance.getLifecycleService().terminate();
            stop.countDown();
        }, "cpbench-member-shutdown"));
        if (exitWithParent) {
            // Ctrl-C in a terminal reaches the whole process group; the parent decides when its members stop.
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), sun.misc.SignalHandler.SIG_IGN);
            Thread watcher = new Thread(() -> {
                awaitEndOfInput(System.in);
                System.exit(0);
            }, "cpbench-parent-watch");
            watcher.setDaemon(true);
            watcher.start();
        }
        System.out.println(READY_LINE + " " + settings.address() + " " + instance.getCluster().getLocalMember().getUuid());
        System.out.flush();
        stop.await();
        return 0;
    }

    MemberSettings settings() {
        if ((clientPort == null) != (clientPublicAddress == null)) {
            throw new IllegalArgumentException("--client-port and --client-public-address go together");
        }
        return MemberSettings.builder(clusterName, host, port, members).publicPort(publicPort == null ? port : publicPort)
                .outboundPorts(outboundPorts).priority(priority).rebalancePeriodSeconds(rebalancePeriodSeconds)
                .failover(FailoverPreset.of(failover)).tuning(MemberTuning.parse(tune))
                .clientEndpoint(clientPort == null ? null : new MemberSettings.ClientEndpoint(clientPort, clientPublicAddress))
                .bindAddress(bindAddress).build();
    }

    private static void awaitEndOfInput(InputStream in) {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // The parent never writes; anything read is ignored until the pipe closes.
            }
        } catch (IOException closed) {
            // A broken pipe means the parent is gone, as EOF does.
        }
    }
}
