package io.cpbench.topology.net;

import io.cpbench.topology.Inventory;
import io.cpbench.topology.TopologyException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * Network (b) on real hosts: Linux {@code tc qdisc ... netem delay} on the slow member's host, switched over SSH
 * between scenarios. The member host runs the inventory's {@code netemCommand} ({@code on <delay> | off | show});
 * the AWS lab installs it as {@code /usr/local/bin/cpbench-netem} on the slow member only. Every SSH call has a
 * timeout; a failure names the host and what it said.
 */
public final class NetemOverSsh implements NetworkControl {

    /** Runs a command and returns its exit code and output; the real one runs a process, tests pass their own. */
    public interface Shell {
        Result run(List<String> argv, Duration timeout);

        record Result(int exitCode, String output) {
        }
    }

    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final Inventory inventory;
    private final Shell shell;
    private int slow = -1;
    private Duration delay = Duration.ZERO;

    public NetemOverSsh(Inventory inventory, Shell shell) {
        if (inventory.ssh() == null) {
            throw new IllegalArgumentException("the inventory has no ssh section, so network (b) cannot be switched");
        }
        this.inventory = inventory;
        this.shell = shell;
    }

    public static NetemOverSsh of(Inventory inventory) {
        return new NetemOverSsh(inventory, NetemOverSsh::runProcess);
    }

    @Override
    public synchronized void slowDown(int memberIndex, Duration newDelay) {
        if (slow >= 0 && slow != memberIndex) {
            clear();
        }
        call(memberIndex, "on " + tcTime(newDelay));
        String shown = call(memberIndex, "show");
        if (!shown.contains("netem")) {
            throw new TopologyException("netem is not in place on " + host(memberIndex) + " after switching it on; tc shows: "
                    + shown.strip());
        }
        slow = memberIndex;
        delay = newDelay;
    }

    @Override
    public synchronized void clear() {
        if (slow >= 0) {
            call(slow, "off");
        }
        slow = -1;
        delay = Duration.ZERO;
    }

    /** Switches netem off on the inventory's slow member, whatever an earlier run left behind. */
    public synchronized void reset() {
        int designated = inventory.slowIndex();
        if (designated >= 0) {
            call(designated, "off");
        }
        slow = -1;
        delay = Duration.ZERO;
    }

    @Override
    public synchronized OptionalInt slowMember() {
        return slow < 0 ? OptionalInt.empty() : OptionalInt.of(slow);
    }

    @Override
    public synchronized Duration delay() {
        return delay;
    }

    @Override
    public String method() {
        return "tc netem on the member's host, switched over SSH";
    }

    /** The ssh command line that runs {@code netemCommand args} on member {@code index}'s host. */
    List<String> sshCommand(int index, String args) {
        Inventory.Ssh ssh = inventory.ssh();
        List<String> argv = new ArrayList<>(List.of("ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
                "-o", "StrictHostKeyChecking=accept-new"));
        if (ssh.identityFile() != null && !ssh.identityFile().isBlank()) {
            argv.addAll(List.of("-i", ssh.identityFile()));
        }
        argv.add(ssh.user() + "@" + inventory.members().get(index).sshTarget());
        argv.add(ssh.netemCommand() + " " + args);
        return argv;
    }

    private String call(int index, String args) {
        Shell.Result result = shell.run(sshCommand(index, args), CALL_TIMEOUT);
        if (result.exitCode() != 0) {
            throw new TopologyException("netem '" + args + "' on " + host(index) + " failed (exit " + result.exitCode() + "): "
                    + lastLine(result.output()));
        }
        return result.output();
    }

    private String host(int index) {
        return "member-" + index + " (" + inventory.members().get(index).sshTarget() + ")";
    }

    /** tc's time syntax: whole milliseconds as "10ms", anything finer in microseconds. */
    static String tcTime(Duration delay) {
        long micros = delay.toNanos() / 1000;
        return micros % 1000 == 0 ? (micros / 1000) + "ms" : micros + "us";
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
