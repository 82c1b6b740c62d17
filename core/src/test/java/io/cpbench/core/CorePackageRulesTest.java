package io.cpbench.core;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Core's packages, read from its bytecode (ArchUnit): they form no cycle; the load engine ({@code load}) names nothing
 * of the scenario-shaped front door that drives it ({@code run}) nor of the result files that hold its results
 * ({@code result}); {@code stats} and {@code status} name none of core's other packages. Core names no other module
 * of cp-bench (the build enforces that too: core depends on none).
 */
@AnalyzeClasses(packages = "io.cpbench.core", importOptions = ImportOption.DoNotIncludeTests.class)
class CorePackageRulesTest {

    @ArchTest
    static final ArchRule noCycles = slices().matching("io.cpbench.core.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule theLoadEngineNamesNeitherTheFrontDoorNorTheResultFiles = noClasses()
            .that().resideInAPackage("io.cpbench.core.load..")
            .should().dependOnClassesThat().resideInAnyPackage("io.cpbench.core.run..", "io.cpbench.core.result..");

    @ArchTest
    static final ArchRule statsNamesNoOtherPackageOfCore = noClasses()
            .that().resideInAPackage("io.cpbench.core.stats..")
            .should().dependOnClassesThat(otherPackagesOfCoreThan("stats"));

    @ArchTest
    static final ArchRule theStatusVocabularyNamesNoOtherPackageOfCore = noClasses()
            .that().resideInAPackage("io.cpbench.core.status..")
            .should().dependOnClassesThat(otherPackagesOfCoreThan("status"));

    @ArchTest
    static final ArchRule coreNamesNoOtherModule = noClasses()
            .should().dependOnClassesThat().resideInAnyPackage("io.cpbench.lb..", "io.cpbench.topology..", "io.cpbench.bench..");

    /** The rules read what they claim: core/run drives the engine, so a rule forbidding that finds it. */
    @ArchTest
    static void theRulesCanFail(JavaClasses core) {
        assertThat(noClasses().that().resideInAPackage("io.cpbench.core.run..")
                .should().dependOnClassesThat().resideInAPackage("io.cpbench.core.load..")
                .evaluate(core).hasViolation()).isTrue();
        assertThat(core.containPackage("io.cpbench.core.load")).as("the classes were imported").isTrue();
    }

    private static DescribedPredicate<JavaClass> otherPackagesOfCoreThan(String own) {
        return resideInAPackage("io.cpbench.core..").and(not(resideInAPackage("io.cpbench.core." + own + "..")))
                .as("classes of core outside core/" + own);
    }
}
