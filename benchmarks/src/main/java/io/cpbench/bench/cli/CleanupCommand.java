package io.cpbench.bench.cli;

import com.hazelcast.core.HazelcastInstance;
import io.cpbench.bench.cluster.DurationConverter;
import io.cpbench.bench.service.ExitCodes;
import io.cpbench.topology.ClusterClientConfig;
import io.cpbench.topology.CpObjects;
import io.cpbench.topology.TopologyException;
import io.cpbench.topology.TopologyKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Lists, and with {@code --destroy} destroys, the CP objects cp-bench left in a cluster it attached to
 * (docs/stock-clusters.md, "Attaching to your own cluster").
 */
@Command(name = "cleanup", mixinStandardHelpOptions = true,
        description = {"Lists the CP objects cp-bench left in a cluster it attached to (names starting with a --prefix,"
                + " in every CP group but METADATA), and destroys them with --destroy. Needs members of Hazelcast 5.4"
                + " or later (the first to list CP objects to a client).",
                "A destroyed CP name cannot be used again in its group: Hazelcast keeps it as a tombstone until the"
                + " group is destroyed, so a later cp-bench run on this cluster that uses the same names fails on them."},
        footer = {"", "Examples:", "  cpbench cleanup --connect 10.0.0.11:5701 --cluster-name prod-cp",
                "  cpbench cleanup --connect 10.0.0.11:5701 --cluster-name prod-cp --destroy"})
final class CleanupCommand implements Callable<Integer> {

    @Option(names = "--connect", paramLabel = "HOST:PORT", split = ",", required = true,
            description = "Members to connect to (one is enough).")
    List<String> connect;

    @Option(names = "--cluster-name", paramLabel = "NAME", defaultValue = "dev",
            description = "The cluster's name (default: ${DEFAULT-VALUE}).")
    String clusterName;

    @Option(names = "--connect-timeout", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "20s",
            description = "How long to try to connect (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout;

    @Option(names = "--prefix", paramLabel = "TEXT", split = ",", defaultValue = "cpbench-,__cpbench_",
            description = "Names that are cp-bench's start with one of these; add load's objects.prefix if a spec set"
                    + " one (default: ${DEFAULT-VALUE}).")
    List<String> prefixes;

    @Option(names = "--destroy", description = "Destroy what is listed (without it, nothing is changed).")
    boolean destroy;

    @Override
    public Integer call() {
        connect.forEach(TopologyKind::checkAddress);
        if (prefixes.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("--prefix: an empty prefix would match every CP object in the cluster");
        }
        PrintStream out = System.out;
        HazelcastInstance client = ClusterClientConfig.admin(clusterName, connect, connectTimeout,
                "cpbench-cleanup-" + ProcessHandle.current().pid());
        try {
            List<CpObjects.Found> found = CpObjects.find(client, prefixes);
            out.printf("cluster '%s': %d CP object%s of cp-bench's (names starting %s)%n", clusterName, found.size(),
                    found.size() == 1 ? "" : "s", String.join(", ", prefixes));
            if (found.isEmpty()) {
                return ExitCodes.OK;
            }
            int groupWidth = Math.max(5, found.stream().mapToInt(f -> f.group().length()).max().orElse(0));
            int typeWidth = found.stream().mapToInt(f -> f.type().length()).max().orElse(0);
            out.printf("  %-" + groupWidth + "s  %-" + typeWidth + "s  %s%n", "group", "type", "name");
            for (CpObjects.Found f : found) {
                out.printf("  %-" + groupWidth + "s  %-" + typeWidth + "s  %s%n", f.group(), f.type(), f.name());
            }
            if (!destroy) {
                out.println("nothing changed; --destroy destroys them. A destroyed CP name cannot be used again in its"
                        + " group (Hazelcast keeps it as a tombstone), so a later cp-bench run here that uses the same"
                        + " names would fail on them.");
                return ExitCodes.OK;
            }
            int done = 0;
            for (CpObjects.Found f : found) {
                try {
                    CpObjects.destroy(client, f);
                } catch (RuntimeException e) {
                    throw new TopologyException("destroying " + f.type() + " " + f.name() + " in group " + f.group()
                            + " failed (" + done + " of " + found.size() + " destroyed before it): "
                            + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
                }
                done++;
            }
            long groups = found.stream().map(CpObjects.Found::group).distinct().count();
            out.printf("destroyed %d CP object%s in %d group%s; their names are tombstones now: a cp-bench run here"
                            + " that uses them fails on them%n", found.size(), found.size() == 1 ? "" : "s", groups,
                    groups == 1 ? "" : "s");
            return ExitCodes.OK;
        } finally {
            client.shutdown();
        }
    }
}
