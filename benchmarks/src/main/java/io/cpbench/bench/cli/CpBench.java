package io.cpbench.bench.cli;

import io.cpbench.core.result.ResultFormatException;
import io.cpbench.topology.TopologyException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.logging.Level;
import java.util.logging.Logger;

@Command(name = "cpbench", mixinStandardHelpOptions = true, versionProvider = CpBench.Version.class,
        description = "Measures how the way a client connects to a Hazelcast CP group changes throughput and latency.",
        subcommands = {ListCommand.class, RunCommand.class, MatrixCommand.class, JmhCommand.class, ReportCommand.class,
                LabCommand.class, StockClusterCommand.class, LbStudyCommand.class},
        footer = {"", "Quick start:  cpbench matrix --quick      (a local 5-member cluster, all scenarios, 3 rounds)"})
public final class CpBench implements Runnable {

    /** Held so the level sticks: java.util.logging keeps loggers weakly. */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");
    /** The balancers log leader changes and exclusions at INFO; the CLI reports their conclusions in each result. */
    private static final Logger BALANCER_LOG = Logger.getLogger("io.cpbench.lb");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the CLI and returns its exit code: 0 done, 1 failed, 2 bad input, 130 interrupted. */
    public static int execute(String... args) {
        System.setProperty("hazelcast.logging.type", "jdk");
        System.setProperty("hazelcast.phone.home.enabled", "false");
        HAZELCAST_LOG.setLevel(Level.SEVERE);
        BALANCER_LOG.setLevel(Level.WARNING);
        CommandLine cli = new CommandLine(new CpBench());
        cli.setParameterExceptionHandler((e, a) -> {
            PrintWriter err = e.getCommandLine().getErr();
            err.println("cpbench: " + e.getMessage() + " (see 'cpbench " + commandPath(e.getCommandLine()) + "--help')");
            return 2;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (e instanceof IllegalArgumentException) {
                err.println("cpbench: " + e.getMessage());
                return 2;
            }
            if (e instanceof TopologyException || e instanceof ResultFormatException || e instanceof UncheckedIOException
                    || e instanceof IllegalStateException) {
                err.println("cpbench: " + e.getMessage());
                return 1;
            }
            err.println("cpbench: unexpected error (a bug; please report it with this trace):");
            e.printStackTrace(err);
            return 1;
        });
        return cli.execute(args);
    }

    private static String commandPath(CommandLine commandLine) {
        String name = commandLine.getCommandName();
        return "cpbench".equals(name) ? "" : name + " ";
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = CpBench.class.getPackage().getImplementationVersion();
            return new String[]{"cp-bench " + (version == null ? "dev" : version) + ", Hazelcast "
                    + com.hazelcast.instance.BuildInfoProvider.getBuildInfo().getVersion()};
        }
    }
}
