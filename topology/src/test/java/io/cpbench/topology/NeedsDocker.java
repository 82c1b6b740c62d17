package io.cpbench.topology;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Optional;

/**
 * A test class or method that needs a Docker engine (the containers topology). Without one it is skipped before it
 * starts, with the reason; in CI ({@code CI=true}) or with {@code CPBENCH_CONTAINERS_REQUIRED=true} it fails instead
 * ({@link Requirement}).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(NeedsDocker.Condition.class)
public @interface NeedsDocker {

    final class Condition implements ExecutionCondition {

        /** Asked once per test JVM: Testcontainers caches its own answer too. */
        private static volatile Optional<String> missing;

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return Requirement.decide("a Docker engine", missing(), "CPBENCH_CONTAINERS_REQUIRED");
        }

        static synchronized Optional<String> missing() {
            if (missing == null) {
                if (!"true".equalsIgnoreCase(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))) {
                    missing = Optional.of("TESTCONTAINERS_RYUK_DISABLED is not true (the build sets it for tests)");
                } else if (!DockerClientFactory.instance().isDockerAvailable()) {
                    missing = Optional.of("no Docker engine answers (start dockerd; .ci/run does)");
                } else {
                    missing = Optional.empty();
                }
            }
            return missing;
        }
    }
}
