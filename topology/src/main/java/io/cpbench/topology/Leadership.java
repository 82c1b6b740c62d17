package io.cpbench.topology;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Reads which member leads the CP {@code default} group, and in which term, by asking every live member
 * through a private admin client (see {@link LeaderQuery}). Used before and after every scenario; a change
 * in between makes the scenario UNSTABLE.
 */
public final class Leadership implements AutoCloseable {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(10);
    private static final long POLL_MILLIS = 250;

    private final HazelcastInstance admin;
    private volatile List<MemberRef> members;
    private volatile String lastQueryError;
    private final IExecutorService executor;

    private Leadership(HazelcastInstance admin, List<MemberRef> members) {
        this.admin = admin;
        this.members = List.copyOf(members);
        this.executor = admin.getExecutorService("cpbench-leadership");
    }

    /** Connects a private smart client to the cluster; fails with a clear message if no member answers in time. */
    public static Leadership connect(String clusterName, List<MemberRef> members, Duration connectTimeout) {
        ClientConfig config = ClusterClientConfig.forCluster(clusterName,
                members.stream().map(MemberRef::address).toList(), connectTimeout);
        config.setInstanceName("cpbench-admin-" + clusterName);
        config.setProperty("hazelcast.client.invocation.timeout.seconds", "30");
        try {
            return new Leadership(HazelcastClient.newHazelcastClient(config), members);
        } catch (IllegalStateException e) {
            throw new TopologyException("cannot reach cluster '" + clusterName + "' at "
                    + members.stream().map(MemberRef::address).toList() + " within " + connectTimeout.toSeconds() + " s", e);
        }
    }

    /**
     * Learns the members of a cluster this suite did not start: every member the admin client sees, in address
     * order, with the leadership priority each reports. From then on, leader addresses map to these refs.
     */
    List<MemberRef> discoverMembers() {
        List<LeaderQuery.Answer> answers = new ArrayList<>();
        Map<Member, Future<LeaderQuery.Answer>> pending = executor.submitToMembers(new LeaderQuery(),
                admin.getCluster().getMembers());
        for (Future<LeaderQuery.Answer> future : pending.values()) {
            try {
                answers.add(future.get(QUERY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TopologyException("interrupted while asking the members who they are");
            } catch (Exception e) {
                throw new TopologyException("a member did not answer cp-bench's query (" + e.getCause()
                        + "); members must run cp-bench's member launcher or have its jar on their classpath", e);
            }
        }
        answers.sort(java.util.Comparator.comparing(LeaderQuery.Answer::reporter));
        int top = answers.stream().mapToInt(LeaderQuery.Answer::priority).max().orElse(0);
        boolean anyPriority = answers.stream().filter(a -> a.priority() == top).count() == 1 && top > 0;
        List<MemberRef> discovered = new ArrayList<>();
        for (int i = 0; i < answers.size(); i++) {
            discovered.add(new MemberRef(i, answers.get(i).reporter(), anyPriority && answers.get(i).priority() == top));
        }
        members = List.copyOf(discovered);
        return members;
    }

    /** From now on, leader addresses map to these refs (an inventory's, in its order). */
    void adopt(List<MemberRef> refs) {
        members = List.copyOf(refs);
    }

    /** The cluster members the admin client currently sees, as this topology's refs. */
    public List<MemberRef> liveMembers() {
        List<MemberRef> live = new ArrayList<>();
        for (Member member : admin.getCluster().getMembers()) {
            MemberRef ref = byAddress(LeaderQuery.addressOf(member.getAddress()));
            if (ref != null) {
                live.add(ref);
            }
        }
        return live;
    }

    /** Asks every live member at once; members that do not answer in time are left out of the view. */
    public LeaderView read() {
        Map<Member, Future<LeaderQuery.Answer>> pending = executor.submitToMembers(new LeaderQuery(),
                admin.getCluster().getMembers());
        long deadline = System.nanoTime() + QUERY_TIMEOUT.toNanos();
        List<LeaderQuery.Answer> answers = new ArrayList<>();
        for (Future<LeaderQuery.Answer> future : pending.values()) {
            try {
                answers.add(future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (Exception unanswered) {
                lastQueryError = unanswered.getCause() == null ? unanswered.toString() : unanswered.getCause().toString();
                future.cancel(true);
            }
        }
        return viewOf(answers);
    }

    LeaderView viewOf(List<LeaderQuery.Answer> answers) {
        LeaderQuery.Answer best = null;
        for (LeaderQuery.Answer answer : answers) {
            if (answer.leader() != null && (best == null || answer.term() > best.term())) {
                best = answer;
            }
        }
        if (best == null) {
            return new LeaderView(null, -1, 0, answers.size(), answers);
        }
        int agreeing = 0;
        for (LeaderQuery.Answer answer : answers) {
            if (best.leader().equals(answer.leader()) && best.term() == answer.term()) {
                agreeing++;
            }
        }
        return new LeaderView(byAddress(best.leader()), best.term(), agreeing, answers.size(), answers);
    }

    /** The {@code default} CP group is created lazily by the first CP call (DESIGN.md, fact 5); make that call. */
    public void ensureDefaultGroup(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                admin.getCPSubsystem().getAtomicLong("cpbench-probe").get();
                return;
            } catch (RuntimeException e) {
                last = e;
                sleep(500);
            }
        }
        throw new TopologyException("the CP subsystem did not answer within " + timeout.toSeconds() + " s"
                + (last == null ? "" : ": " + last.getMessage()), last);
    }

    /**
     * Waits until all live members name a leader that satisfies {@code wanted}, and that leader and its term have
     * held still for {@code settle}. Election storms right after a rebalance are common (DESIGN.md, fact 7), so
     * a moment's agreement is not enough.
     */
    public LeaderView awaitStable(Predicate<LeaderView> wanted, String wantedText, Duration settle, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        LeaderView stableView = null;
        long stableSince = 0;
        LeaderView view = null;
        while (System.nanoTime() < deadline) {
            view = read();
            long now = System.nanoTime();
            if (view.unanimous() && wanted.test(view)) {
                if (!view.sameLeadershipAs(stableView)) {
                    stableView = view;
                    stableSince = now;
                }
                if (now - stableSince >= settle.toNanos()) {
                    return view;
                }
            } else {
                stableView = null;
            }
            sleep(POLL_MILLIS);
        }
        throw new TopologyException("leadership did not settle within " + timeout.toSeconds() + " s (wanted "
                + wantedText + "); last seen: " + (view == null ? "nothing" : view.describe())
                + (view != null && view.answered() == 0 && lastQueryError != null ? "; members failed to answer: " + lastQueryError : ""));
    }

    /** Waits until the priority member leads, unanimously, in a term that held still for {@code settle}. */
    public LeaderView awaitPriorityLeader(MemberRef priority, Duration settle, Duration timeout) {
        return awaitStable(view -> priority.equals(view.leader()), priority + " leading", settle, timeout);
    }

    /** Creates the {@code default} group if needed, then waits for the priority member to lead it, settled. */
    public LeaderView awaitReady(MemberRef priority, Duration settle, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        ensureDefaultGroup(timeout);
        return awaitPriorityLeader(priority, settle, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    public MemberRef byAddress(String address) {
        for (MemberRef member : members) {
            if (member.address().equals(address)) {
                return member;
            }
        }
        return null;
    }

    @Override
    public void close() {
        try {
            admin.getLifecycleService().terminate();
        } catch (RuntimeException ignored) {
            // Closing is best effort: the cluster may already be gone.
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopologyException("interrupted while waiting for the cluster");
        }
    }
}
