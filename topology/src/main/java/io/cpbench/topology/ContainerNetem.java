package io.cpbench.topology;

import com.github.dockerjava.api.DockerClient;
import io.cpbench.topology.net.NetworkControl;

import java.time.Duration;
import java.util.OptionalInt;
import java.util.function.IntFunction;

/** Network (b) with {@code tc netem} on the slow member's eth0: all it sends, to members and clients alike. */
final class ContainerNetem implements NetworkControl {
    private final DockerClient docker;
    /** A member's container id, by the member's index. */
    private final IntFunction<String> containerOf;

    private volatile int slow = -1;
    private volatile Duration delay = Duration.ZERO;

    ContainerNetem(DockerClient docker, IntFunction<String> containerOf) {
        this.docker = docker;
        this.containerOf = containerOf;
    }

    @Override
    public synchronized void slowDown(int memberIndex, Duration newDelay) {
        clear();
        exec(memberIndex, "tc", "qdisc", "replace", "dev", "eth0", "root", "netem", "delay",
                newDelay.toNanos() / 1000 + "us");
        slow = memberIndex;
        delay = newDelay;
    }

    @Override
    public synchronized void clear() {
        if (slow >= 0) {
            exec(slow, "tc", "qdisc", "del", "dev", "eth0", "root");
        }
        slow = -1;
        delay = Duration.ZERO;
    }

    @Override
    public OptionalInt slowMember() {
        return slow < 0 ? OptionalInt.empty() : OptionalInt.of(slow);
    }

    @Override
    public Duration delay() {
        return delay;
    }

    @Override
    public String method() {
        return "tc netem in the slow member's container";
    }

    private void exec(int member, String... command) {
        int code = DockerOps.exec(docker, containerOf.apply(member), command);
        if (code != 0) {
            throw new TopologyException(String.join(" ", command) + " in member " + member + "'s container exited " + code);
        }
    }
}
