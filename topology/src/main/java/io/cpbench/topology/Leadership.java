package io.cpbench.topology;

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
        return new Leadership(ClusterClientConfig.admin(clusterName, members.stream().map(MemberRef::address).toList(),
                connectTimeout, "cpbench-admin-" + clusterName), members);
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
                if (!String.valueOf(e.getCause()).contains("ClassNotFoundException")) {
                    throw new TopologyException("a member did not answer cp-bench's query (" + e.getCause() + ")", e);
                }
                pending.values().forEach(f -> f.cancel(true));
                useMetrics();
                answers = prioritiesFromConfigs();
                break;
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

    /**
     * Each member's address and configured CP priority, from the configuration it reports to a client (the
     * client-protocol message Management Center uses, {@code MCGetMemberConfig}): no cp-bench class needed.
     */
    private List<LeaderQuery.Answer> prioritiesFromConfigs() {
        java.util.regex.Pattern priority = java.util.regex.Pattern.compile("<cp-member-priority>\\s*(-?\\d+)\\s*</cp-member-priority>");
        var client = ((com.hazelcast.client.impl.clientside.HazelcastClientProxy) admin).client;
        List<LeaderQuery.Answer> answers = new ArrayList<>();
        for (Member member : admin.getCluster().getMembers()) {
            String address = LeaderQuery.addressOf(member.getAddress());
            try {
                var response = new com.hazelcast.client.impl.spi.impl.ClientInvocation(client,
                        com.hazelcast.client.impl.protocol.codec.MCGetMemberConfigCodec.encodeRequest(), null,
                        member.getUuid()).invoke().get(QUERY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                String xml = com.hazelcast.client.impl.protocol.codec.MCGetMemberConfigCodec.decodeResponse(response);
                java.util.regex.Matcher m = priority.matcher(xml);
                answers.add(new LeaderQuery.Answer(address, false, null, -1, m.find() ? Integer.parseInt(m.group(1)) : 0));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TopologyException("interrupted while asking the members for their configuration");
            } catch (Exception e) {
                throw new TopologyException("member " + address + " did not report its configuration (" + e.getCause()
                        + "); without cp-bench's classes on the members, cp-bench needs Management Center's client"
                        + " messages (management-center trusted-interfaces must admit this host)", e);
            }
        }
        return answers;
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

    /** Leader and term from cp-bench's query on each member (exact, now). */
    public static final String MEMBERS = "members";
    /** Leader and term from the members' published Raft metrics (stock members; as of their last publication). */
    public static final String METRICS = "metrics";

    /** Set once the members turn out not to have cp-bench's query class: from then on, metrics. */
    private volatile boolean stockMembers;
    private volatile MetricsLeadership metrics;

    /** Where this leadership is read from: {@link #MEMBERS} or {@link #METRICS}. */
    public String source() {
        return stockMembers ? METRICS : MEMBERS;
    }

    /**
     * Asks every live member at once; members that do not answer in time are left out of the view. Members
     * without cp-bench's classes (a stock cluster) are read through their Raft metrics instead (see
     * {@link RaftMetrics}), from then on.
     */
    public LeaderView read() {
        if (stockMembers) {
            return readMetrics();
        }
        LeaderView view = readMembers();
        if (view.answered() == 0 && lastQueryError != null && lastQueryError.contains("ClassNotFoundException")) {
            useMetrics();
            return readMetrics();
        }
        return view;
    }

    /** Whether this process said it reads leadership from metrics: once is enough (a version axis reaches many clusters). */
    private static final java.util.concurrent.atomic.AtomicBoolean SAID_METRICS = new java.util.concurrent.atomic.AtomicBoolean();

    private void useMetrics() {
        if (!stockMembers) {
            stockMembers = true;
            if (SAID_METRICS.compareAndSet(false, true)) {
                System.err.println("cp-bench: the members do not have cp-bench's classes (a stock cluster): reading leader"
                        + " and term from their published Raft metrics, which can be up to one publication period old"
                        + " (hazelcast.diagnostics.metrics.period.seconds: 60 by default, " + StockTopology.METRICS_SECONDS
                        + " on the members --hazelcast-version starts)");
            }
        }
    }

    /** Leader and term as the members last published them ({@link MetricsLeadership}). */
    private LeaderView readMetrics() {
        MetricsLeadership reader = metrics;
        if (reader == null) {
            reader = new MetricsLeadership(admin, QUERY_TIMEOUT);
            metrics = reader;
        }
        MetricsLeadership.Readings readings = reader.read();
        if (readings.error() != null) {
            lastQueryError = readings.error();
        }
        List<LeaderQuery.Answer> answers = readings.answers();
        if (readings.leader() == null) {
            return new LeaderView(null, readings.term(), 0, answers.size(), answers, METRICS);
        }
        int agreeing = (int) answers.stream().filter(a -> a.term() == readings.term()).count();
        return new LeaderView(byAddress(readings.leader()), readings.term(), agreeing, answers.size(), answers, METRICS);
    }

    /** Whether every live member has published its Raft metrics since {@code nanoTime} (always true for {@link #MEMBERS}). */
    boolean freshSince(long nanoTime) {
        MetricsLeadership reader = metrics;
        return !stockMembers || reader != null && reader.freshSince(nanoTime);
    }

    /** How long {@link #readAfterRun()} waits for the members to republish their metrics. */
    public static final Duration METRICS_WAIT = Duration.ofSeconds(90);

    /**
     * Leader and term after a run: read at once from members with cp-bench's query; from metrics, only once every
     * member has published them after this call (up to {@link #METRICS_WAIT}), since an older publication would
     * hide a change during the run. Null when metrics did not come in time.
     */
    public LeaderView readAfterRun() {
        if (!stockMembers) {
            return read();
        }
        long since = System.nanoTime();
        long deadline = since + METRICS_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            LeaderView view = readMetrics();
            if (freshSince(since)) {
                return view;
            }
            sleep(POLL_MILLIS);
        }
        return null;
    }

    private LeaderView readMembers() {
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
                // Not cancelled: a cancel is itself a call to the member, which blocks up to the client's invocation
                // timeout when the member is gone without a word (a killed container); the query ends on its own.
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
            return new LeaderView(null, -1, 0, answers.size(), answers, MEMBERS);
        }
        int agreeing = 0;
        for (LeaderQuery.Answer answer : answers) {
            if (best.leader().equals(answer.leader()) && best.term() == answer.term()) {
                agreeing++;
            }
        }
        return new LeaderView(byAddress(best.leader()), best.term(), agreeing, answers.size(), answers, MEMBERS);
    }

    /** The {@code default} CP group is created lazily by the first CP call (docs/hazelcast-facts.md, fact 5); make that call. */
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
     * held still for {@code settle}. Election storms right after a rebalance are common (docs/hazelcast-facts.md, fact 7), so
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
                if (now - stableSince >= settle.toNanos() && freshSince(stableSince)) {
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

    /**
     * Waits until the priority member leads, unanimously, in a term that held still for {@code settle}; with no
     * priority member (null), until any member does.
     */
    public LeaderView awaitPriorityLeader(MemberRef priority, Duration settle, Duration timeout) {
        if (priority == null) {
            return awaitStable(view -> view.leader() != null, "a leader, any member", settle, timeout);
        }
        return awaitStable(view -> priority.equals(view.leader()), priority + " leading", settle, timeout);
    }

    /**
     * The leader of each named CP group, as the members see it (the member most of them name), or null for a group
     * none names yet: where a run's objects are led. Needs cp-bench's classes on the members.
     */
    public Map<String, MemberRef> leadersOf(List<String> groups) {
        Map<String, MemberRef> leaders = new java.util.LinkedHashMap<>();
        for (String group : groups) {
            Map<Member, Future<LeaderQuery.Answer>> pending = executor.submitToMembers(new LeaderQuery(group),
                    admin.getCluster().getMembers());
            Map<String, Integer> votes = new java.util.HashMap<>();
            long deadline = System.nanoTime() + QUERY_TIMEOUT.toNanos();
            for (Future<LeaderQuery.Answer> future : pending.values()) {
                try {
                    String leader = future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS).leader();
                    if (leader != null) {
                        votes.merge(leader, 1, Integer::sum);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                } catch (Exception unanswered) {
                    // Left to end on its own, as in readMembers().
                }
            }
            String top = votes.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
            leaders.put(group, top == null ? null : members.stream().filter(m -> m.address().equals(top)).findFirst()
                    .orElse(new MemberRef(-1, top, false)));
        }
        return leaders;
    }

    /** Creates the {@code default} group if needed, then waits for the priority member to lead it, settled. */
    public LeaderView awaitReady(MemberRef priority, Duration settle, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        ensureDefaultGroup(timeout);
        return awaitPriorityLeader(priority, settle, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    /**
     * Runs {@code task} on the member at {@code address}, waiting for it to be in the cluster's member list first.
     *
     * @throws TopologyException if the member does not appear, or the task fails or times out
     */
    public <T> T runOn(String address, java.util.concurrent.Callable<T> task, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Member target = null;
        while (target == null) {
            for (Member m : admin.getCluster().getMembers()) {
                if (LeaderQuery.addressOf(m.getAddress()).equals(address)) {
                    target = m;
                }
            }
            if (target == null) {
                if (System.nanoTime() > deadline) {
                    throw new TopologyException("member " + address + " did not join the cluster within " + timeout.toSeconds() + " s");
                }
                sleep(POLL_MILLIS);
            }
        }
        try {
            return executor.submitToMember(task, target).get(Math.max(1, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopologyException("interrupted while running a task on " + address);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new TopologyException("task on " + address + " failed: " + cause, cause);
        }
    }

    /**
     * Runs {@code task} as {@link #runOn} does, on the member {@code on} names for each attempt (0, 1, ...), and tries
     * again half a second after a failure, until {@code timeout}: for tasks that fail until the cluster catches up
     * (a killed member still listed, a restarted one not yet joined).
     *
     * @throws TopologyException with the last failure when time runs out
     */
    public <T> T runOnRetrying(java.util.function.IntFunction<String> on, java.util.concurrent.Callable<T> task, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int attempt = 0; ; attempt++) {
            try {
                return runOn(on.apply(attempt), task, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            } catch (TopologyException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                sleep(500);
            }
        }
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
