package io.cpbench.topology;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;

import java.util.Optional;

/**
 * A tool some tests need that a machine may lack (a Docker engine, headless Chromium). Decided before the test
 * starts, never midway: where the tool is there the test runs; where it is missing the test is skipped with the
 * reason, unless the run requires it, where the test fails with one line saying what is missing. A run requires it
 * in CI ({@code CI=true}, which {@code .ci/run} runs under) or when {@code requiredVariable=true} is set.
 */
public final class Requirement {

    private Requirement() {
    }

    /**
     * @param tool            what is needed, as a person names it
     * @param missing         why it is not usable here, or empty if it is
     * @param requiredVariable the environment variable that makes it required outside CI
     */
    public static ConditionEvaluationResult decide(String tool, Optional<String> missing, String requiredVariable) {
        if (missing.isEmpty()) {
            return ConditionEvaluationResult.enabled(tool + " is available");
        }
        if (required(requiredVariable)) {
            // Thrown from a condition, this fails the test (JUnit reports it as failed, not skipped).
            throw new AssertionError(tool + " is required here (CI=true or " + requiredVariable + "=true) but "
                    + missing.get());
        }
        String reason = "skipped: " + tool + " is not available: " + missing.get();
        System.err.println(reason);
        return ConditionEvaluationResult.disabled(reason);
    }

    static boolean required(String variable) {
        return "true".equalsIgnoreCase(System.getenv("CI")) || "true".equalsIgnoreCase(System.getenv(variable))
                || Boolean.getBoolean(variable.toLowerCase(java.util.Locale.ROOT).replace('_', '.'));
    }
}
