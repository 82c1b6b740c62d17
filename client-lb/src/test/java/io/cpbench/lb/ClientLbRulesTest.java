package io.cpbench.lb;

import com.hazelcast.cp.internal.RaftService;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The balancers ship to applications on their own, read from their bytecode (ArchUnit): they name no other module of
 * cp-bench; only {@link LeaderHint}, the one class that runs on members, reaches a member's runtime (its node engine,
 * instance and Raft service); and it names nothing but the JDK and Hazelcast, so a member that has it needs nothing
 * else of client-lb's.
 */
@AnalyzeClasses(packages = "io.cpbench.lb", importOptions = ImportOption.DoNotIncludeTests.class)
class ClientLbRulesTest {

    /** A member's node engine and instance, its Raft service and nodes (not the ids and values clients use too). */
    private static final DescribedPredicate<JavaClass> MEMBER_RUNTIME = resideInAnyPackage("com.hazelcast.instance.impl..",
            "com.hazelcast.spi.impl..", "com.hazelcast.cp.internal.raft..").or(type(RaftService.class))
            .as("a member's runtime");

    @ArchTest
    static final ArchRule namesNoOtherModule = noClasses().should().dependOnClassesThat()
            .resideInAnyPackage("io.cpbench.core..", "io.cpbench.topology..", "io.cpbench.bench..");

    @ArchTest
    static final ArchRule onlyTheHintReachesAMembersRuntime = noClasses().that(not(belongToAnyOf(LeaderHint.class))).should().dependOnClassesThat(MEMBER_RUNTIME)
            .because("the balancers run in applications' clients; LeaderHint alone runs on members");

    @ArchTest
    static final ArchRule theHintNamesOnlyTheJdkAndHazelcast = classes().that(belongToAnyOf(LeaderHint.class))
            .should().onlyDependOnClassesThat(resideInAnyPackage("java..", "com.hazelcast..").or(belongToAnyOf(LeaderHint.class)));

    /** The rule reads what it claims: the hint itself does reach a member's runtime. */
    @ArchTest
    static void theRulesCanFail(JavaClasses lb) {
        assertThat(noClasses().should().dependOnClassesThat(MEMBER_RUNTIME).evaluate(lb).hasViolation())
                .isTrue();
    }
}
