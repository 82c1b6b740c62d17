package io.cpbench.bench;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.cpbench.bench.agents.Agent;
import io.cpbench.bench.cluster.ClusterChoice;
import io.cpbench.bench.cluster.SideBySide;
import io.cpbench.bench.cluster.StartProgress;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.service.RunContext;
import io.cpbench.topology.StartedMembers;
import io.cpbench.topology.StockCluster;
import io.cpbench.topology.TopologyKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmarks module's rules, read from its bytecode (ArchUnit).
 *
 * <p><b>Layers.</b> Its packages are layered, so they form no cycle: each names only packages of a lower layer.
 * {@code scenario} (the client topologies) ← {@code suite} (sessions, the scenario runner) ← {@code cluster} (the
 * cluster a run starts or reaches) ← {@code agents}, {@code jmh}, {@code results} (each kind of result: its verdict,
 * history run and report section) ← {@code report} (what a run writes and shows), {@code history} (the results
 * history), neither naming the other ← {@code service} (the run lifecycle) ← {@code run} (the run kinds) ←
 * {@code cli} (options, then one call).
 *
 * <p><b>One lifecycle.</b> Only the run service takes a cluster's shutdown over (its Ctrl-C hook then stops the
 * members after what was measured is written); besides its hook, only the start progress's notice and a serving
 * agent (a process of its own, not a run) install one. Commands choose no run directory and start no cluster, but
 * for the one named below; a run kind that starts a cluster itself hands it to {@link RunContext#own} in the same
 * method.
 */
@AnalyzeClasses(packages = "io.cpbench.bench", importOptions = ImportOption.DoNotIncludeTests.class)
class BenchRulesTest {

    static final Map<String, Integer> LAYERS = Map.ofEntries(Map.entry("scenario", 0), Map.entry("suite", 1),
            Map.entry("cluster", 2), Map.entry("agents", 3), Map.entry("jmh", 3), Map.entry("results", 3), Map.entry("report", 4),
            Map.entry("history", 4), Map.entry("service", 5), Map.entry("run", 6), Map.entry("cli", 7));

    /**
     * The one command that reaches a cluster itself: ab's worker, a child process of an ab run speaking its protocol on
     * standard input, which attaches to the cluster its parent run started (a run of its own would be recorded twice).
     * A new one fails the rule.
     */
    static final Set<String> COMMANDS_THAT_START_A_CLUSTER = Set.of("io.cpbench.bench.cli.AbWorkerCommand");

    /** What starts a cluster: a topology, a stock cluster, clusters side by side, a cluster choice. */
    private static final DescribedPredicate<JavaAccess<?>> STARTS = call(TopologyKind.class, "start", "startStock")
            .or(call(StockCluster.class, "start")).or(call(SideBySide.class, "start"))
            .or(call(ClusterChoice.class, "start", "startAnnounced"));

    /** {@code RunDirectory.create(out, name)}: chooses a run directory and makes it (the one-argument one only makes). */
    private static final DescribedPredicate<JavaAccess<?>> CHOOSES_AND_MAKES = call(RunDirectory.class, "create").and(
            DescribedPredicate.describe("with two arguments", (JavaAccess<?> a) ->
                    a instanceof JavaMethodCall m && m.getTarget().getRawParameterTypes().size() == 2));

    @ArchTest
    static void everyPackageIsInALayer(JavaClasses bench) {
        Set<String> packages = new TreeSet<>();
        bench.forEach(c -> packages.add(c.getPackageName().replaceFirst("^io\\.cpbench\\.bench\\.?", "").split("\\.")[0]));
        assertThat(packages).containsExactlyInAnyOrderElementsOf(LAYERS.keySet());
    }

    @ArchTest
    static final ArchRule eachPackageNamesOnlyLowerLayers = layered(LAYERS);

    @ArchTest
    static final ArchRule noCycles = slices().matching("io.cpbench.bench.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule onlyTheServiceTakesAClustersShutdownOver = noClasses()
            .that().resideOutsideOfPackage("io.cpbench.bench.service..")
            .should().callMethodWhere(call(StartedMembers.class, "takeOverShutdown"));

    @ArchTest
    static final ArchRule hooksAreTheServicesTheStartNoticesAndAServingAgents = noClasses()
            .that().resideOutsideOfPackage("io.cpbench.bench.service..").and(not(belongToAnyOf(StartProgress.class, Agent.class)))
            .should().callMethod(Runtime.class, "addShutdownHook", Thread.class);

    @ArchTest
    static final ArchRule commandsChooseNoRunDirectoryAndAnnounceNoCluster = noClasses()
            .that().resideOutsideOfPackages("io.cpbench.bench.service..", "io.cpbench.bench.run..", "io.cpbench.bench.cluster..")
            .and(not(belongToAnyOf(RunDirectory.class)))
            .should().callMethodWhere(call(ClusterChoice.class, "startAnnounced", "printReady")
                    .or(call(RunDirectory.class, "choose")).or(CHOOSES_AND_MAKES));


    @ArchTest
    static final ArchRule commandsStartNoCluster = noClasses().that().resideInAPackage("io.cpbench.bench.cli..")
            .and(not(DescribedPredicate.describe("named gaps", (JavaClass c) ->
                    COMMANDS_THAT_START_A_CLUSTER.contains(outermost(c)))))
            .should().callMethodWhere(STARTS);

    @ArchTest
    static final ArchRule aKindThatStartsAClusterOwnsIt = codeUnits()
            .that(DescribedPredicate.describe("start a cluster in a run kind", (JavaCodeUnit u) ->
                    u.getOwner().getPackageName().startsWith("io.cpbench.bench.run")
                            && u.getMethodCallsFromSelf().stream().anyMatch(STARTS)))
            .should(handItToRunContextOwn()).allowEmptyShould(true);

    /** The rules read what they claim: the layers inverted, a hook anywhere, a start owned by nobody. */
    @ArchTest
    static void theRulesCanFail(JavaClasses bench) {
        assertThat(layered(Map.of("run", 0, "service", 1)).evaluate(bench).hasViolation())
                .as("run implements the service's RunKind").isTrue();
        assertThat(noClasses().should().callMethod(Runtime.class, "addShutdownHook", Thread.class).evaluate(bench)
                .hasViolation()).as("the service installs one").isTrue();
        assertThat(codeUnits().that(DescribedPredicate.describe("start a cluster", (JavaCodeUnit u) ->
                        u.getMethodCallsFromSelf().stream().anyMatch(STARTS))).should(handItToRunContextOwn())
                .evaluate(bench).hasViolation()).as("ClusterChoice's own starts hand nothing over").isTrue();
    }

    /** A call of one of {@code names} on {@code owner} (or a subtype's inherited one). */
    private static DescribedPredicate<JavaAccess<?>> call(Class<?> owner, String... names) {
        List<String> wanted = List.of(names);
        return DescribedPredicate.describe("a call of " + owner.getSimpleName() + "." + String.join("/", names),
                access -> wanted.contains(access.getName()) && access.getTargetOwner().isAssignableTo(owner));
    }

    private static ArchCondition<JavaCodeUnit> handItToRunContextOwn() {
        return new ArchCondition<>("hand it to RunContext.own") {
            @Override
            public void check(JavaCodeUnit unit, ConditionEvents events) {
                boolean owns = unit.getAccessesFromSelf().stream().anyMatch(call(RunContext.class, "own"));
                if (!owns) {
                    events.add(SimpleConditionEvent.violated(unit, unit.getFullName()
                            + " starts a cluster and does not hand it to RunContext.own"));
                }
            }
        };
    }

    /** Each package may name only packages of a lower layer (and itself). */
    static ArchRule layered(Map<String, Integer> layers) {
        List<ArchRule> rules = new ArrayList<>();
        for (Map.Entry<String, Integer> from : layers.entrySet()) {
            List<String> notBelow = layers.entrySet().stream()
                    .filter(e -> !e.getKey().equals(from.getKey()) && e.getValue() >= from.getValue())
                    .map(e -> "io.cpbench.bench." + e.getKey() + "..").toList();
            if (!notBelow.isEmpty()) {
                rules.add(noClasses().that().resideInAPackage("io.cpbench.bench." + from.getKey() + "..")
                        .should().dependOnClassesThat().resideInAnyPackage(notBelow.toArray(String[]::new)));
            }
        }
        return CompositeArchRule.of(rules);
    }

    /** The top-level class's name: a nested or anonymous class belongs to it. */
    private static String outermost(JavaClass c) {
        return c.getName().replaceFirst("\\$.*", "");
    }
}
