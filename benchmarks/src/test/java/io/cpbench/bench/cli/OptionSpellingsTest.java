package io.cpbench.bench.cli;

import io.cpbench.bench.service.ExitCodes;
import io.cpbench.bench.suite.ClusterWarmup;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.OpType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The shared options mean one thing in every command: {@code --cluster-warmup} is a duration (a bare number still
 * counts ops where it used to, with a deprecation line), {@code --scenario} takes one or more names (the old
 * spellings still work, with a deprecation line), and each is declared once, so every command's help says the same.
 */
class OptionSpellingsTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @BeforeEach
    void captureStderr() {
        Deprecated.reset(); // a deprecation line comes once per process, as a command runs once in it
        originalErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(originalErr);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static <T> T parse(String... args) {
        CommandLine.ParseResult result = CpBench.commandLine().parseArgs(args);
        return (T) result.subcommand().commandSpec().userObject();
    }

    @Test
    void scenarioTakesOneOrMoreNamesCommaSeparatedOrRepeated() {
        MatrixCommand matrix = parse("matrix", "--scenario", "client-leader,client-lb", "--scenario", "client-smart");
        assertThat(matrix.scenarioOption.names()).containsExactly("client-leader", "client-lb", "client-smart");
        RunCommand run = parse("run", "--scenario", "client-leader,client-follower");
        assertThat(run.scenarios()).extracting(s -> s.name()).containsExactly("client-leader", "client-follower");
        assertThat(stderr()).isEmpty();
    }

    @Test
    void abChaosAndEmulatorCostTakeOneOrMoreToo() {
        AbCommand ab = parse("ab");
        assertThat(ab.scenarioOption.scenariosOr("client-leader")).extracting(s -> s.name()).containsExactly("client-leader");
        ab = parse("ab", "--scenario", "client-lb,client-smart");
        assertThat(ab.scenarioOption.scenariosOr("client-leader")).extracting(s -> s.name())
                .containsExactly("client-lb", "client-smart");
        ChaosCommand chaos = parse("chaos", "--scenario", "client-lb", "--scenario", "client-leader-aware");
        assertThat(chaos.scenarioOption.scenariosOr("client-smart")).extracting(s -> s.name())
                .containsExactly("client-lb", "client-leader-aware");
        EmulatorCostCommand cost = parse("emulator-cost", "--scenarios", "client-follower");
        assertThat(cost.scenarioOption.scenariosOr("client-leader")).extracting(s -> s.name())
                .containsExactly("client-follower");
        assertThat(stderr()).isEqualTo("cpbench emulator-cost: --scenarios is deprecated; use --scenario, which takes"
                + " one or more names" + System.lineSeparator());
        ChaosCommand unknown = parse("chaos", "--scenario", "client-smart,client-nope");
        assertThatThrownBy(() -> unknown.scenarioOption.scenariosOr("client-smart"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("client-nope");
    }

    @Test
    void severalRunsEndWithTheWorstExitCode() {
        assertThat(ExitCodes.worse(ExitCodes.OK, ExitCodes.FAILED)).isEqualTo(ExitCodes.FAILED);
        assertThat(ExitCodes.worse(ExitCodes.FAILED, ExitCodes.OK)).isEqualTo(ExitCodes.FAILED);
        assertThat(ExitCodes.worse(ExitCodes.UNKNOWN, ExitCodes.FAILED)).as("not linearizable beats unknown")
                .isEqualTo(ExitCodes.FAILED);
        assertThat(ExitCodes.worse(ExitCodes.OK, ExitCodes.UNKNOWN)).isEqualTo(ExitCodes.UNKNOWN);
        assertThat(ExitCodes.worse(ExitCodes.FAILED, ExitCodes.INTERRUPTED)).isEqualTo(ExitCodes.INTERRUPTED);
        assertThat(ExitCodes.worse(ExitCodes.THRESHOLDS, ExitCodes.NOT_CLEAN)).isEqualTo(ExitCodes.THRESHOLDS);
    }

    @Test
    void oldScenarioSpellingsStillWorkWithADeprecationLine() {
        MatrixCommand matrix = parse("matrix", "--scenarios", "client-leader,client-lb");
        assertThat(matrix.scenarioOption.names()).containsExactly("client-leader", "client-lb");
        assertThat(stderr()).isEqualTo("cpbench matrix: --scenarios is deprecated; use --scenario, which takes one or"
                + " more names" + System.lineSeparator());
        err.reset();
        SweepCommand sweep = parse("sweep", "--routings", "client-smart");
        assertThat(sweep.grid().scenarios()).containsExactly("client-smart");
        assertThat(stderr()).contains("cpbench sweep: --routings is deprecated");
    }

    @Test
    void runWithoutAScenarioSaysSo() {
        RunCommand run = parse("run");
        assertThatThrownBy(run::scenarios).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("run needs --scenario NAME (see 'cpbench list')");
    }

    @Test
    void clusterWarmupIsADurationWithOneDefault() {
        MatrixCommand matrix = parse("matrix");
        assertThat(matrix.clusterWarmup.get()).isEqualTo(ClusterWarmup.of(Duration.ofSeconds(60)));
        assertThat(OptionSpellingsTest.<MatrixCommand>parse("matrix", "--quick").clusterWarmup.get()).as("the most; it ends when steady,"
                + " quick or not").isEqualTo(ClusterWarmup.of(Duration.ofSeconds(60)));
        LoadCommand load = parse("load", "--cluster-warmup", "1m30s");
        assertThat(load.clusterWarmup.length()).isEqualTo(Duration.ofSeconds(90));
        // In a command where it always was a duration, a bare number is seconds, as in every duration option.
        EngineCostCommand engineCost = parse("engine-cost", "--cluster-warmup", "20");
        assertThat(engineCost.clusterWarmupOption.length()).isEqualTo(Duration.ofSeconds(20));
        JmhCommand jmh = parse("jmh", "--cluster-warmup", "0");
        assertThat(jmh.clusterWarmup.get().none()).isTrue();
        assertThat(stderr()).isEmpty();
    }

    @Test
    void aBareNumberWhereItCountedOpsStillCountsOpsWithADeprecationLine() {
        RunCommand run = parse("run", "--scenario", "client-leader", "--cluster-warmup", "5000");
        assertThat(run.clusterWarmup.get()).isEqualTo(ClusterWarmup.ofOps(5000));
        assertThat(stderr()).isEqualTo("cpbench run: --cluster-warmup 5000 is read as 5000 ops, as before; a bare"
                + " number is deprecated here, give a duration such as 10s" + System.lineSeparator());
    }

    @Test
    void aScenariosWarmupIsADurationAndABareNumberStillCountsOps() throws Exception {
        MatrixCommand plain = parse("matrix");
        assertThat(plain.planOptions.plan().warmup()).isEqualTo(Duration.ofSeconds(10));
        MatrixCommand quick = parse("matrix", "--quick");
        assertThat(quick.planOptions.plan().warmup()).isEqualTo(Duration.ofSeconds(1));
        RunCommand timed = parse("run", "--scenario", "client-leader", "--warmup", "1500ms");
        assertThat(timed.planOptions.plan().warmup()).isEqualTo(Duration.ofMillis(1500));
        assertThat(timed.planOptions.plan().bounds().warmupOps()).isZero();
        MatrixCommand none = parse("matrix", "--warmup", "0");
        assertThat(none.planOptions.plan().warmup()).isZero();
        assertThat(stderr()).isEmpty();

        RunCommand counted = parse("run", "--scenario", "client-leader", "--warmup", "5000");
        assertThat(counted.planOptions.plan().bounds().warmupOps()).isEqualTo(5000);
        assertThat(counted.planOptions.plan().warmup()).isZero();
        assertThat(stderr()).isEqualTo("cpbench run: --warmup 5000 is read as 5000 ops, as before; a bare number is"
                + " deprecated here, give a duration such as 10s" + System.lineSeparator());
        assertThatThrownBy(() -> parse("matrix", "--warmup", "soon"))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageStartingWith("--warmup: 'soon' is not a duration");
    }

    @Test
    void aBadClusterWarmupIsAParameterError() {
        assertThatThrownBy(() -> parse("matrix", "--cluster-warmup", "-1"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("--cluster-warmup: '-1' is not a duration; write it like 30s, 500ms, 5m, 1m30s or 1h");
        assertThatThrownBy(() -> parse("load", "--cluster-warmup", "5000ops"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageStartingWith("--cluster-warmup: '5000ops' is not a duration");
    }

    @Test
    void warmupsRoundTripThroughTheirText() {
        for (ClusterWarmup w : List.of(ClusterWarmup.of(Duration.ofMillis(1500)), ClusterWarmup.ofOps(7),
                ClusterWarmup.NONE, ClusterWarmup.of(Duration.ofMinutes(2)))) {
            assertThat(ClusterWarmup.parse(w.toString())).isEqualTo(w);
        }
    }

    /** load and chaos share their workload options; each shows its own defaults, and load leaves a spec file's be. */
    @Test
    void loadAndChaosShareTheWorkloadOptionsEachWithItsDefaults(@TempDir Path dir) throws Exception {
        CommandLine cli = CpBench.commandLine();
        for (String name : List.of("--mix", "--objects", "--clients", "--threads", "--rate", "--seed", "--quiet")) {
            OptionSpec inLoad = cli.getSubcommands().get("load").getCommandSpec().findOption(name);
            OptionSpec inChaos = cli.getSubcommands().get("chaos").getCommandSpec().findOption(name);
            assertThat(withoutDefault(inLoad)).as(name).isEqualTo(withoutDefault(inChaos));
        }
        assertThat(help(cli, "load", "--threads")).isEqualTo("Worker threads per client (default: 1).");
        assertThat(help(cli, "load", "--mix")).startsWith("Ops and weights (default: cas);");
        assertThat(help(cli, "chaos", "--threads")).isEqualTo("Worker threads per client (default: 4).");
        assertThat(help(cli, "chaos", "--mix")).startsWith("Ops and weights (default: read=2,write=1,cmpset=1,increment=1);");

        ChaosCommand chaos = parse("chaos", "--threads", "3");
        LoadSpec chaosSpec = chaos.spec();
        assertThat(chaosSpec.clients()).isEqualTo(2);
        assertThat(chaosSpec.threads()).isEqualTo(3);
        assertThat(chaosSpec.objects()).isEqualTo(4);
        assertThat(chaosSpec.mix()).containsOnlyKeys(OpType.READ, OpType.WRITE, OpType.CMPSET, OpType.INCREMENT);

        Path file = dir.resolve("spec.yaml");
        Files.writeString(file, "mix: {get: 1}\nclients: 3\nthreads: 5\nobjects: {count: 2}\n");
        LoadCommand load = parse("load", "--spec", file.toString(), "--threads", "7", "--seed", "42");
        LoadSpec loadSpec = load.spec();
        assertThat(loadSpec.mix()).containsOnlyKeys(OpType.GET);
        assertThat(loadSpec.clients()).isEqualTo(3);
        assertThat(loadSpec.objects()).isEqualTo(2);
        assertThat(loadSpec.threads()).isEqualTo(7);
        assertThat(loadSpec.seed()).isEqualTo(42);
        LoadSpec plain = ((LoadCommand) parse("load")).spec();
        assertThat(plain.mix()).containsOnlyKeys(OpType.CAS);
        assertThat(plain.threads()).isEqualTo(1);
    }

    private static String help(CommandLine cli, String command, String option) {
        return String.join(" ", cli.getSubcommands().get(command).getCommandSpec().findOption(option).description());
    }

    /** An option's help with its default (which is the command's) replaced by D. */
    private static String withoutDefault(OptionSpec option) {
        return String.join(" ", option.description()).replace("(default: " + option.defaultValueString() + ")", "(default: D)");
    }

    /** Declared once: every command that has the option shows the same help for it. */
    @Test
    void sharedOptionsHaveOneHelpText() {
        for (String name : List.of("--cluster-warmup", "--out")) {
            Set<String> texts = new HashSet<>();
            List<String> commands = new ArrayList<>();
            CpBench.commandLine().getSubcommands().forEach((command, cli) -> {
                OptionSpec option = cli.getCommandSpec().findOption(name);
                if (option != null) {
                    texts.add(String.join(" ", option.description()));
                    commands.add(command);
                }
            });
            assertThat(texts).as(name + " in " + commands).hasSize(1);
            assertThat(commands).as(name).hasSizeGreaterThanOrEqualTo(name.equals("--out") ? 9 : 7);
        }
    }

    /** --delay meant the slow member's delay in run/matrix/load and a fault's in chaos: two names now, the old one kept. */
    @Test
    void delayIsSplitIntoTwoNamesAndTheOldOneStillWorksWithOneLine() {
        MatrixCommand matrix = parse("matrix", "--slow-delay", "20ms");
        assertThat(matrix.delay.value()).isEqualTo(Duration.ofMillis(20));
        LoadCommand load = parse("load", "--slow-delay", "30ms");
        assertThat(load.delay.value()).isEqualTo(Duration.ofMillis(30));
        ChaosCommand chaos = parse("chaos", "--fault-delay", "300ms");
        assertThat(chaos.delay).isEqualTo(Duration.ofMillis(300));
        assertThat(stderr()).isEmpty();

        assertThat(((MatrixCommand) parse("matrix", "--delay", "40ms")).delay.value()).isEqualTo(Duration.ofMillis(40));
        assertThat(((LoadCommand) parse("load", "--delay", "50ms")).delay.value()).isEqualTo(Duration.ofMillis(50));
        assertThat(((ChaosCommand) parse("chaos", "--delay", "500ms")).delay).isEqualTo(Duration.ofMillis(500));
        parse("chaos", "--delay", "600ms");
        assertThat(stderr().lines().toList()).containsExactly(
                "cpbench matrix: --delay is deprecated; use --slow-delay (the slow member's one-way delay)",
                "cpbench load: --delay is deprecated; use --slow-delay (the slow member's one-way delay)",
                "cpbench chaos: --delay is deprecated; use --fault-delay (the slow fault's one-way delay)");
        assertThat(CpBench.commandLine().getSubcommands().get("chaos").getUsageMessage()).doesNotContain("--delay")
                .contains("--fault-delay");
    }
}
