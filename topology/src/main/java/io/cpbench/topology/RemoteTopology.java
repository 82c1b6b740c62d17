package io.cpbench.topology;

import io.cpbench.topology.net.NetworkControl;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Members named by an {@link Inventory} (the AWS lab's Terraform output, or a file of your own), started by someone
 * else with cp-bench's member launcher. Starts and stops no member; checks that the cluster has exactly the
 * inventory's members and that the members agree which one has leadership priority, then waits for it to lead like
 * every other topology. Network (b) is tc netem on the slow member's host, switched over SSH ({@link NetemOverSsh}),
 * where the inventory has an {@code ssh} section; so are the chaos runs' faults ({@link FaultsOverSsh}).
 */
final class RemoteTopology extends ReachedTopology {

    private final Inventory inventory;
    private final NetemOverSsh netem;
    private final Faults faults;

    private RemoteTopology(Inventory inventory, List<MemberRef> members, Leadership leadership, NetemOverSsh netem) {
        super(inventory.clusterName(), members, members.get(inventory.priorityIndex()), leadership);
        this.inventory = inventory;
        this.netem = netem;
        this.faults = !FaultsOverSsh.usable(inventory) ? null : new FaultsOverSsh(inventory, Ssh.Shell.PROCESS,
                new FaultsOverSsh.Readmission() {
                    @Override
                    public void forget(MemberRef member, Duration timeout) {
                        CpRemoval.forget(leadership, member, leadership.liveMembers(), timeout);
                    }

                    @Override
                    public void readmit(MemberRef member, Duration timeout) {
                        // until the killed instance has left the member list, its address may still name it
                        leadership.runOnRetrying(attempt -> member.address(), new CpReadmission(), timeout);
                    }
                });
    }

    @Override
    public Optional<Faults> faults() {
        return Optional.ofNullable(faults);
    }

    static Topology attach(Inventory inventory, Duration connectTimeout, Duration settle, Duration timeout) {
        List<MemberRef> refs = new ArrayList<>();
        for (int i = 0; i < inventory.members().size(); i++) {
            Inventory.Member m = inventory.members().get(i);
            refs.add(new MemberRef(i, m.address(), m.priority()));
        }
        Leadership leadership = Leadership.connect(inventory.clusterName(), refs, connectTimeout);
        try {
            checkMembersMatch(inventory, awaitMembers(inventory, leadership, timeout));
            leadership.adopt(refs);
            NetemOverSsh netem = inventory.ssh() == null ? null : NetemOverSsh.of(inventory);
            if (netem != null) {
                netem.reset();
            }
            MemberRef priority = refs.get(inventory.priorityIndex());
            leadership.awaitReady(priority, settle, timeout);
            return new RemoteTopology(inventory, List.copyOf(refs), leadership, netem);
        } catch (RuntimeException e) {
            leadership.close();
            throw e;
        }
    }

    /** The members as they join: until every member the inventory lists is in the cluster, or the timeout. */
    private static List<MemberRef> awaitMembers(Inventory inventory, Leadership leadership, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        TreeSet<String> listed = new TreeSet<>(inventory.addresses());
        while (true) {
            List<MemberRef> discovered = leadership.discoverMembers();
            if (new TreeSet<>(discovered.stream().map(MemberRef::address).toList()).containsAll(listed)
                    || System.nanoTime() > deadline) {
                return discovered;
            }
            Leadership.sleep(500);
        }
    }

    /** The inventory must name the cluster's members, and its priority member must be the one the members say. */
    static void checkMembersMatch(Inventory inventory, List<MemberRef> discovered) {
        TreeSet<String> listed = new TreeSet<>(inventory.addresses());
        TreeSet<String> running = new TreeSet<>(discovered.stream().map(MemberRef::address).toList());
        if (!listed.equals(running)) {
            throw new TopologyException("the inventory lists " + listed + " but cluster '" + inventory.clusterName()
                    + "' has " + running + " (waited for the rest to join)");
        }
        String expected = inventory.members().get(inventory.priorityIndex()).address();
        Optional<MemberRef> reported = discovered.stream().filter(MemberRef::priority).findFirst();
        if (reported.isEmpty() || !reported.get().address().equals(expected)) {
            throw new TopologyException("the inventory gives " + expected + " leadership priority, but the members report "
                    + reported.map(MemberRef::address).orElse("no single priority member")
                    + "; start them with the commands 'cpbench lab member-commands' writes for this inventory");
        }
    }

    @Override
    public String kind() {
        return "remote";
    }

    @Override
    public Optional<NetworkControl> network() {
        return Optional.ofNullable(netem);
    }

    @Override
    public MemberRef defaultSlowMember() {
        int slow = inventory.slowIndex();
        return slow < 0 ? super.defaultSlowMember() : members().get(slow);
    }

    @Override
    public void close() {
        try {
            if (netem != null) {
                netem.clear();
            }
        } catch (RuntimeException e) {
            System.err.println("cp-bench: could not switch netem off on the slow member: " + e.getMessage());
        } finally {
            super.close();
        }
    }
}
