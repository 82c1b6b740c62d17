package io.cpbench.topology;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.ExecCreateCmdResponse;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Container;
import org.testcontainers.containers.Network;
import org.testcontainers.DockerClientFactory;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Docker calls the container topology makes besides starting members: a command in a container, whether netem
 * works here, the labels that mark what cp-bench created (and the sweep of what a killed run left), and removing a
 * network whose endpoints Docker still counts.
 */
final class DockerOps {

    private DockerOps() {
    }

    /** Runs a command in a container; its exit code. */
    static int exec(DockerClient docker, String containerId, String... command) {
        ExecCreateCmdResponse created = docker.execCreateCmd(containerId).withCmd(command)
                .withAttachStdout(true).withAttachStderr(true).exec();
        try {
            docker.execStartCmd(created.getId()).exec(new com.github.dockerjava.api.async.ResultCallback.Adapter<>())
                    .awaitCompletion(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopologyException("interrupted running " + String.join(" ", command));
        }
        Long code = docker.inspectExecCmd(created.getId()).exec().getExitCodeLong();
        return code == null ? -1 : code.intValue();
    }

    /** Whether {@code tc netem} works in a container on this kernel: a throwaway container tries it. */
    static boolean netemWorks(DockerClient docker, String image) {
        String id = null;
        try {
            id = docker.createContainerCmd(image).withCmd("sleep", "30").withLabels(labels("netem-probe"))
                    .withHostConfig(com.github.dockerjava.api.model.HostConfig.newHostConfig().withCapAdd(Capability.NET_ADMIN))
                    .exec().getId();
            docker.startContainerCmd(id).exec();
            return exec(docker, id, "tc", "qdisc", "add", "dev", "eth0", "root", "netem", "delay", "1ms") == 0;
        } catch (RuntimeException e) {
            return false;
        } finally {
            if (id != null) {
                try {
                    docker.removeContainerCmd(id).withForce(true).exec();
                } catch (RuntimeException ignored) {
                    // Swept at the next start.
                }
            }
        }
    }

    static Map<String, String> labels(String clusterName) {
        return Map.of(ContainerTopology.LABEL, "true", ContainerTopology.LABEL_CLUSTER, clusterName, ContainerTopology.LABEL_PID, Long.toString(ProcessHandle.current().pid()));
    }

    /**
     * A Docker client, or a clear error: Ryuk must be off (its image cannot be pulled; cp-bench removes its own
     * containers), and a Docker engine must answer.
     */
    static DockerClient dockerClient() {
        if (!"true".equalsIgnoreCase(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))) {
            throw new TopologyException("--topology containers needs TESTCONTAINERS_RYUK_DISABLED=true in the"
                    + " environment (./cpbench sets it): Testcontainers' Ryuk image cannot be pulled without a registry,"
                    + " and cp-bench removes its own containers");
        }
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new TopologyException("--topology containers needs a running Docker engine, and none answered"
                    + " (start one: dockerd, or systemctl start docker)");
        }
        return DockerClientFactory.instance().client();
    }

    /** Removes labelled containers and networks whose creating process is gone (a run killed outright). */
    static int sweepStale(DockerClient docker, PrintStream log) {
        int removed = 0;
        for (Container c : docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(ContainerTopology.LABEL, "true")).exec()) {
            if (!ownerAlive(c.getLabels())) {
                try {
                    docker.removeContainerCmd(c.getId()).withForce(true).exec();
                    removed++;
                } catch (RuntimeException ignored) {
                    // Gone meanwhile.
                }
            }
        }
        for (com.github.dockerjava.api.model.Network n : docker.listNetworksCmd().withFilter("label", List.of(ContainerTopology.LABEL + "=true")).exec()) {
            if (!ownerAlive(n.getLabels())) {
                try {
                    docker.removeNetworkCmd(n.getId()).exec();
                    removed++;
                } catch (RuntimeException ignored) {
                    // In use or gone.
                }
            }
        }
        if (removed > 0) {
            log.println("[containers] removed " + removed + " container(s)/network(s) left by runs that no longer exist");
        }
        return removed;
    }

    private static boolean ownerAlive(Map<String, String> labels) {
        try {
            long pid = Long.parseLong(labels == null ? "" : labels.getOrDefault(ContainerTopology.LABEL_PID, ""));
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * Removes the run's network. Right after its containers are force-removed, Docker can still count their
     * endpoints ("has active endpoints"), so it disconnects what remains and tries again, for at most 10 s.
     */
    static void removeNetwork(DockerClient docker, Network network) {
        String id;
        try {
            id = network.getId();
        } catch (RuntimeException neverCreated) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (int attempt = 0; attempt < 40; attempt++) {
            try {
                docker.removeNetworkCmd(id).exec();
                return;
            } catch (com.github.dockerjava.api.exception.NotFoundException gone) {
                return;
            } catch (RuntimeException inUse) {
                if (System.nanoTime() > deadline) {
                    System.err.println("[containers] could not remove network " + id + ": "
                            + ContainerImage.rootMessage(inUse) + " (the next start removes it)");
                    return;
                }
                disconnectAll(docker, id);
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static void disconnectAll(DockerClient docker, String networkId) {
        try {
            var containers = docker.inspectNetworkCmd().withNetworkId(networkId).exec().getContainers();
            if (containers != null) {
                for (String container : containers.keySet()) {
                    try {
                        docker.disconnectFromNetworkCmd().withNetworkId(networkId).withContainerId(container)
                                .withForce(true).exec();
                    } catch (RuntimeException ignored) {
                        // Gone meanwhile.
                    }
                }
            }
        } catch (RuntimeException ignored) {
            // The next attempt says.
        }
    }
}
