package io.cpbench.topology;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Topology's packages, read from its bytecode (ArchUnit): {@code net} (the network's emulation and control: what a
 * topology is given) names nothing of the topologies themselves, so the two form no cycle (the SSH classes, which
 * read an {@link Inventory}, live beside it); topology names no module above it (core's runs, the benchmarks); and
 * only the three owners of member processes install a shutdown hook: a started cluster and a stock cluster stop their
 * members when the JVM ends unless a run has taken that over ({@link Topology#takeOverShutdown()}), and a member
 * process leaves its cluster.
 */
@AnalyzeClasses(packages = "io.cpbench.topology", importOptions = ImportOption.DoNotIncludeTests.class)
class TopologyRulesTest {

    @ArchTest
    static final ArchRule theNetworkNamesNoTopology = noClasses().that().resideInAPackage("io.cpbench.topology.net..")
            .should().dependOnClassesThat().resideInAPackage("io.cpbench.topology");

    @ArchTest
    static final ArchRule noCyclesBelow = slices().matching("io.cpbench.topology.(**)").should().beFreeOfCycles()
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule namesNoModuleAbove = noClasses().should().dependOnClassesThat()
            .resideInAnyPackage("io.cpbench.core..", "io.cpbench.bench..");

    @ArchTest
    static final ArchRule onlyMemberOwnersInstallShutdownHooks = noClasses()
            .that(not(belongToAnyOf(StartedTopology.class, StockCluster.class, MemberLauncher.class)))
            .should().callMethod(Runtime.class, "addShutdownHook", Thread.class);

    /** The rules read what they claim: the topologies do use the network package, and their owners install hooks. */
    @ArchTest
    static void theRulesCanFail(JavaClasses topology) {
        assertThat(noClasses().that().resideInAPackage("io.cpbench.topology").should().dependOnClassesThat()
                .resideInAPackage("io.cpbench.topology.net..").evaluate(topology).hasViolation()).isTrue();
        assertThat(noClasses().should().callMethod(Runtime.class, "addShutdownHook", Thread.class).evaluate(topology)
                .hasViolation()).isTrue();
    }
}
