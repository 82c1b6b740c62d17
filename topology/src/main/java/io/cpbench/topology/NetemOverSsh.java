package io.cpbench.topology;

import io.cpbench.topology.net.NetworkControl;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/**
 * Network (b) on real hosts: Linux {@code tc qdisc ... netem delay} on the slow member's host, switched over SSH
 * between scenarios. The member host runs the inventory's {@code netemCommand} ({@code on <delay> | off | show});
 * the AWS lab installs it as {@code /usr/local/bin/cpbench-netem} on the slow member only. Every SSH call has a
 * timeout; a failure names the host and what it said.
 */
public final class NetemOverSsh implements NetworkControl {

    private final Inventory inventory;
    private final Ssh ssh;
    private int slow = -1;
    private Duration delay = Duration.ZERO;

    public NetemOverSsh(Inventory inventory, Ssh.Shell shell) {
        if (inventory.ssh() == null) {
            throw new IllegalArgumentException("the inventory has no ssh section, so network (b) cannot be switched");
        }
        this.inventory = inventory;
        this.ssh = new Ssh(inventory, shell);
    }

    public static NetemOverSsh of(Inventory inventory) {
        return new NetemOverSsh(inventory, Ssh.Shell.PROCESS);
    }

    @Override
    public synchronized void slowDown(int memberIndex, Duration newDelay) {
        if (slow >= 0 && slow != memberIndex) {
            clear();
        }
        call(memberIndex, "on " + tcTime(newDelay));
        String shown = call(memberIndex, "show");
        if (!shown.contains("netem")) {
            throw new TopologyException("netem is not in place on " + ssh.host(memberIndex) + " after switching it on; tc shows: "
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
        return ssh.command(index, inventory.ssh().netemCommand() + " " + args);
    }

    private String call(int index, String args) {
        return ssh.call(index, inventory.ssh().netemCommand() + " " + args, "netem '" + args + "'");
    }

    /** tc's time syntax: whole milliseconds as "10ms", anything finer in microseconds. */
    public static String tcTime(Duration delay) {
        long micros = delay.toNanos() / 1000;
        return micros % 1000 == 0 ? (micros / 1000) + "ms" : micros + "us";
    }
}
