package io.cpbench.topology;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a command on a lab member's host over SSH, the way network (b) and the faults do: batch mode (no password
 * prompt), a connect timeout, and a timeout on the whole call. A failure names the host and the last line it said.
 */
public final class Ssh {

    /** Runs a command and returns its exit code and output; the real one runs a process, tests pass their own. */
    public interface Shell {
        Result run(List<String> argv, Duration timeout);

        record Result(int exitCode, String output) {
        }

        /** The {@code ssh} program. */
        Shell PROCESS = Ssh::runProcess;
    }

    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final Inventory inventory;
    private final Shell shell;

    public Ssh(Inventory inventory, Shell shell) {
        if (inventory.ssh() == null) {
            throw new IllegalArgumentException("the inventory has no ssh section, so cp-bench cannot reach the member hosts");
        }
        this.inventory = inventory;
        this.shell = shell;
    }

    public Inventory inventory() {
        return inventory;
    }

    /** The ssh command line that runs {@code remote} on member {@code index}'s host. */
    public List<String> command(int index, String remote) {
        Inventory.Ssh ssh = inventory.ssh();
        List<String> argv = new ArrayList<>(List.of("ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10"));
        if (ssh.knownHostsFile() != null) {
            // Pinned: a host whose key is not the one in the file is refused, never learned.
            argv.addAll(List.of("-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + ssh.knownHostsFile()));
        } else {
            argv.addAll(List.of("-o", "StrictHostKeyChecking=accept-new"));
        }
        if (ssh.identityFile() != null && !ssh.identityFile().isBlank()) {
            argv.addAll(List.of("-i", ssh.identityFile()));
        }
        argv.add(ssh.user() + "@" + inventory.members().get(index).sshTarget());
        argv.add(remote);
        return argv;
    }

    /**
     * Runs {@code remote} on member {@code index}'s host; returns what it printed.
     *
     * @param what names the call in errors: "netem 'on 10ms'"
     * @throws TopologyException when it exits non-zero or times out
     */
    public String call(int index, String remote, String what) {
        Shell.Result result = shell.run(command(index, remote), CALL_TIMEOUT);
        if (result.exitCode() != 0) {
            throw new TopologyException(what + " on " + host(index) + " failed (exit " + result.exitCode() + "): "
                    + lastLine(result.output()));
        }
        return result.output();
    }

    /** "member-4 (10.42.1.15)". */
    public String host(int index) {
        return "member-" + index + " (" + inventory.members().get(index).sshTarget() + ")";
    }

    private static String lastLine(String output) {
        List<String> lines = output.strip().lines().toList();
        return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
    }

    private static Shell.Result runProcess(List<String> argv, Duration timeout) {
        try {
            Process process = new ProcessBuilder(argv).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.PIPE).start();
            process.getOutputStream().close();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                return new Shell.Result(124, "timed out after " + timeout.toSeconds() + " s");
            }
            return new Shell.Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Shell.Result(127, "cannot run " + argv.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Shell.Result(130, "interrupted");
        }
    }
}
