package io.cpbench.topology;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Faults on the AWS lab's member hosts, over SSH: the same {@link Faults} the local topology offers, made with
 * the lab's {@code cpbench-fault} script (installed on every member by Terraform, run with sudo):
 * <pre>
 * cpbench-fault kill                    systemctl kill -s SIGKILL cpbench-member
 * cpbench-fault start                   systemctl start cpbench-member (after a kill)
 * cpbench-fault pause SECONDS           systemctl kill -s SIGSTOP, and a systemd timer that sends SIGCONT after SECONDS
 * cpbench-fault resume                  systemctl kill -s SIGCONT
 * cpbench-fault isolate-members HOST... iptables: drop every packet to and from these hosts
 * cpbench-fault isolate-clients PORT MEMBER-HOST...
 *                                       iptables: drop packets to and from PORT unless they are a member's
 * cpbench-fault heal                    flush cp-bench's iptables chains
 * cpbench-fault slow DELAY | unslow     tc netem on the default route's device
 * </pre>
 * A partition drops packets at the members on the cut side, in both directions, so TCP retransmits until the
 * heal, as it would through a real partition; SSH (port 22, from the client host) is never cut. Every call has a
 * timeout, and a paused member resumes on its own even if this process dies. Needs one member per host.
 */
public final class FaultsOverSsh implements Faults {

    /**
     * Brings a killed member back into CP Subsystem (CP persistence is off: it comes back as a new member): its old
     * CP identity is removed before the restart ({@link CpRemoval}), and the new process promoted after it.
     */
    public interface Readmission {
        void forget(MemberRef member, Duration timeout);

        void readmit(MemberRef member, Duration timeout);
    }

    private final Ssh ssh;
    private final Inventory inventory;
    private final Readmission readmission;
    private final Set<Integer> paused = new TreeSet<>();
    private final Set<Integer> isolated = new TreeSet<>();
    private int slowed = -1;

    public FaultsOverSsh(Inventory inventory, Ssh.Shell shell, Readmission readmission) {
        if (!usable(inventory)) {
            throw new IllegalArgumentException("faults over SSH need an ssh section and one member per host (partitions"
                    + " drop packets by host, kills stop the host's member service)");
        }
        this.ssh = new Ssh(inventory, shell);
        this.inventory = inventory;
        this.readmission = readmission;
    }

    /** Whether the inventory has SSH and one member per host. */
    public static boolean usable(Inventory inventory) {
        return inventory.ssh() != null
                && inventory.members().stream().map(Inventory.Member::host).distinct().count() == inventory.members().size();
    }

    @Override
    public void kill(MemberRef member) {
        call(member.index(), "kill");
    }

    @Override
    public void restart(MemberRef member, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        readmission.forget(member, timeout);
        call(member.index(), "start");
        readmission.readmit(member, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
    }

    @Override
    public synchronized void pause(MemberRef member, Duration atMost) {
        call(member.index(), "pause " + Math.max(1, (atMost.toMillis() + 999) / 1000));
        paused.add(member.index());
    }

    @Override
    public synchronized void resume(MemberRef member) {
        call(member.index(), "resume");
        paused.remove(member.index());
    }

    @Override
    public synchronized void isolate(Collection<MemberRef> side, Cut cut) {
        Set<Integer> inside = side.stream().map(MemberRef::index).collect(Collectors.toCollection(TreeSet::new));
        List<String> others = hosts(i -> !inside.contains(i));
        for (int i : inside) {
            isolated.add(i);
            if (cut.members()) {
                call(i, "isolate-members " + String.join(" ", others));
            }
            if (cut.clients()) {
                call(i, "isolate-clients " + inventory.members().get(i).port() + " " + String.join(" ", hosts(j -> true)));
            }
        }
    }

    @Override
    public synchronized void heal() {
        RuntimeException first = null;
        for (int i : List.copyOf(isolated)) {
            try {
                call(i, "heal");
                isolated.remove(i);
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public synchronized void slow(MemberRef member, Duration delay) {
        if (slowed >= 0 && slowed != member.index()) {
            unslow();
        }
        call(member.index(), "slow " + NetemOverSsh.tcTime(delay));
        slowed = member.index();
    }

    @Override
    public synchronized void unslow() {
        if (slowed >= 0) {
            call(slowed, "unslow");
            slowed = -1;
        }
    }

    @Override
    public synchronized void healAll() {
        for (int i : List.copyOf(paused)) {
            quietly(() -> resume(memberRef(i)));
        }
        quietly(this::heal);
        quietly(this::unslow);
    }

    @Override
    public String method() {
        return "over SSH on the members' hosts: systemctl kill -s SIGKILL/SIGSTOP/SIGCONT, iptables DROP for partitions,"
                + " tc netem for delays";
    }

    /** The ssh command line that runs {@code cpbench-fault args} on member {@code index}'s host. */
    List<String> sshCommand(int index, String args) {
        return ssh.command(index, inventory.ssh().faultCommand() + " " + args);
    }

    private String call(int index, String args) {
        return ssh.call(index, inventory.ssh().faultCommand() + " " + args, "fault '" + args + "'");
    }

    private List<String> hosts(java.util.function.IntPredicate which) {
        return java.util.stream.IntStream.range(0, inventory.members().size()).filter(which)
                .mapToObj(i -> inventory.members().get(i).host()).toList();
    }

    private MemberRef memberRef(int index) {
        Inventory.Member m = inventory.members().get(index);
        return new MemberRef(index, m.address(), m.priority());
    }

    private static void quietly(Runnable heal) {
        try {
            heal.run();
        } catch (RuntimeException e) {
            System.err.println("cp-bench: could not undo a fault: " + e.getMessage());
        }
    }
}
