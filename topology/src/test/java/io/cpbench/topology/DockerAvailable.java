package io.cpbench.topology;

import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;

/**
 * Whether the container tests can run. Without a Docker engine they are skipped with the reason printed, unless
 * {@code CPBENCH_CONTAINERS_REQUIRED=true} in the environment (or {@code -Dcpbench.containers.required=true}), which
 * {@code .ci/run} sets once it has started Docker: then a missing engine fails them, so a suite that was meant to run
 * containers never passes silently without them.
 */
public final class DockerAvailable {

    private DockerAvailable() {
    }

    public static void assumeOrFail() {
        String reason = null;
        if (!"true".equalsIgnoreCase(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))) {
            reason = "TESTCONTAINERS_RYUK_DISABLED is not true (the build sets it for tests)";
        } else if (!DockerClientFactory.instance().isDockerAvailable()) {
            reason = "no Docker engine answers (start dockerd; .ci/run does)";
        }
        if (reason == null) {
            return;
        }
        if (Boolean.getBoolean("cpbench.containers.required")
                || "true".equalsIgnoreCase(System.getenv("CPBENCH_CONTAINERS_REQUIRED"))) {
            throw new AssertionError("container tests are required here (-Dcpbench.containers.required) but " + reason);
        }
        System.out.println("container tests skipped: " + reason);
        System.err.println("container tests skipped: " + reason);
        Assumptions.abort("container tests skipped: " + reason);
    }
}
