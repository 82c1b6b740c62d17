package io.cpbench.bench.cli;

import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.result.ResultFormatException;
import io.cpbench.topology.TopologyException;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

@Command(name = "cpbench", mixinStandardHelpOptions = true, versionProvider = CpBench.Version.class,
        description = "Measures how the way a client connects to a Hazelcast CP group changes throughput and latency.",
        subcommands = {ListCommand.class, RunCommand.class, MatrixCommand.class, LoadCommand.class, HistoryCommand.class, AgentCommand.class, SweepCommand.class, JmhCommand.class, ReportCommand.class, CompareCommand.class, AbCommand.class, AbWorkerCommand.class,
                LabCommand.class, StockClusterCommand.class, LbStudyCommand.class, EmulatorCostCommand.class, EngineCostCommand.class, LincheckCommand.class, ChaosCommand.class, CleanupCommand.class,
                CommandLine.HelpCommand.class,
                AutoComplete.GenerateCompletion.class},
        footer = {"", "Quick start (a local 5-member cluster, all scenarios, 3 rounds):", "  cpbench matrix --quick",
                "Help on a command:", "  cpbench help matrix", "Shell completion (bash, zsh):",
                "  source <(cpbench generate-completion)"})
public final class CpBench implements Runnable {

    /** Held so the level sticks: java.util.logging keeps loggers weakly. */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");
    /** The balancers log leader changes and exclusions at INFO; the CLI reports their conclusions in each result. */
    private static final Logger BALANCER_LOG = Logger.getLogger("io.cpbench.lb");
    /** --topology containers: Testcontainers and its Docker client; the topology prints its own progress. */
    private static final List<Logger> CONTAINER_LOGS = List.of(Logger.getLogger("org.testcontainers"),
            Logger.getLogger("com.github.dockerjava"), Logger.getLogger("tc"));
    /** Warns, in a banner, that Ryuk is off: cp-bench turns it off on purpose and removes its own containers. */
    private static final Logger RYUK_LOG = Logger.getLogger("org.testcontainers.utility.ResourceReaper");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the CLI and returns its exit code; {@link ExitCodes} lists them. */
    public static int execute(String... args) {
        System.setProperty("hazelcast.logging.type", "jdk");
        System.setProperty("hazelcast.phone.home.enabled", "false");
        HAZELCAST_LOG.setLevel(Level.SEVERE);
        BALANCER_LOG.setLevel(Level.WARNING);
        CONTAINER_LOGS.forEach(log -> log.setLevel(Level.WARNING));
        RYUK_LOG.setLevel(Level.SEVERE);
        OutOption.commandLine = "cpbench " + String.join(" ", args);
        CommandLine cli = commandLine();
        cli.setParameterExceptionHandler((e, a) -> {
            PrintWriter err = e.getCommandLine().getErr();
            // picocli words some messages about map options as "option option '--x'"
            String message = e.getMessage().replace("option option", "option");
            err.println("cpbench: " + message + " (see '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help')");
            return ExitCodes.BAD_INPUT;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (e instanceof IllegalArgumentException || e instanceof ResultFormatException) {
                err.println("cpbench: " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            if (e instanceof TopologyException || e instanceof UncheckedIOException || e instanceof IllegalStateException) {
                err.println("cpbench: " + e.getMessage());
                return ExitCodes.FAILED;
            }
            err.println("cpbench: unexpected error (a bug; please report it with this trace):");
            e.printStackTrace(err);
            return ExitCodes.FAILED;
        });
        try {
            return cli.execute(args);
        } catch (OutOfMemoryError e) {
            // what was held is unreachable once the command has unwound, so there is room to say so
            System.err.printf(java.util.Locale.ROOT, "cpbench: out of memory: the JVM's heap (at most %,d MB) is too small"
                    + " for this; give it more, e.g. CPBENCH_JAVA_OPTS=-Xmx8g ./cpbench ...%n",
                    Runtime.getRuntime().maxMemory() / (1024 * 1024));
            return ExitCodes.FAILED;
        }
    }

    /** The command tree, every command's help ending with the exit codes. */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new CpBench());
        addExitCodes(cli);
        return cli;
    }

    private static void addExitCodes(CommandLine command) {
        if (command.getCommandSpec().usageMessage().exitCodeList().isEmpty()) { // some commands list their own
            command.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodes.HELP);
        }
        command.getSubcommands().values().forEach(CpBench::addExitCodes);
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
