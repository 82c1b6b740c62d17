package io.cpbench.bench.report;

import io.cpbench.topology.Requirement;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class or method that opens a page in headless Chromium ({@link Browser}). Without Chromium it is skipped
 * before it starts, with the reason; in CI ({@code CI=true}) or with {@code CPBENCH_BROWSER_REQUIRED=true} it fails
 * instead ({@link Requirement}). Put it on the test that uses the browser, so a run's other checks never depend on it.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(NeedsChromium.Condition.class)
public @interface NeedsChromium {

    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return Requirement.decide("headless Chromium", Browser.find().isPresent() ? java.util.Optional.empty()
                    : java.util.Optional.of("no chromium at " + Browser.CANDIDATES + " (apt-get install chromium; .ci/run does)"),
                    "CPBENCH_BROWSER_REQUIRED");
        }
    }
}
