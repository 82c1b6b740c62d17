package io.cpbench.topology;

import com.github.dockerjava.api.command.InspectContainerResponse;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;

import java.nio.file.Path;

/**
 * Ready when the member's log says so (cp-bench's ready line; a stock member's join of the whole cluster); failed
 * as soon as its container has exited. Testcontainers' log-message wait alone can sit out its whole startup
 * timeout on a container that exited before the wait began following its log: a member JVM refusing an option
 * failed at once in one CI run and waited out 90 s in the next.
 */
final class ContainerReady extends AbstractWaitStrategy {
    private final Path log;
    private final java.util.function.Predicate<Path> ready;

    /** @param log the member log its {@link ContainerLog} writes; {@code ready}: whether that log says the member is */
    ContainerReady(Path log, java.util.function.Predicate<Path> ready) {
        this.log = log;
        this.ready = ready;
    }

    @Override
    protected void waitUntilReady() {
        long deadline = System.nanoTime() + startupTimeout.toNanos();
        while (!ready.test(log)) {
            InspectContainerResponse.ContainerState state = waitStrategyTarget.getCurrentContainerInfo().getState();
            if (!Boolean.TRUE.equals(state.getRunning()) && !ready.test(log)) {
                throw new ContainerLaunchException("the member's container exited (code " + state.getExitCodeLong()
                        + ") before the member was ready");
            }
            if (System.nanoTime() > deadline) {
                throw new ContainerLaunchException("the member printed no ready line within "
                        + startupTimeout.toSeconds() + " s");
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ContainerLaunchException("interrupted while waiting for the member");
            }
        }
    }
}
