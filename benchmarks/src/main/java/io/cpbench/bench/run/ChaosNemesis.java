package io.cpbench.bench.run;

import io.cpbench.core.check.Availability;
import io.cpbench.core.check.Checker;
import io.cpbench.core.history.HistoryRecorder;
import io.cpbench.core.load.Durations;
import io.cpbench.core.status.Status;
import io.cpbench.topology.Faults;
import io.cpbench.topology.LeaderView;
import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The nemesis of a chaos run, Jepsen's role: which fault, whom it hits, and the schedule (wait {@code interval},
 * inject, hold for {@code faultFor}, heal, repeat) until the load ends or the run is stopped. It touches the cluster
 * only through {@link Faults}, and tells the checkers when each fault was in force as {@link Availability.Window}s.
 */
public final class ChaosNemesis {

    /** What a fault does to a member. */
    public enum Fault { KILL, PAUSE, PARTITION, SLOW }

    /** Whom it hits. Minority and majority always include the leader. */
    public enum Target {
        LEADER, FOLLOWER, RANDOM, MINORITY, MAJORITY;

        /** How many members of a cluster of {@code n} it hits. */
        public int size(int n) {
            return switch (this) {
                case MINORITY -> Math.max(1, (n - 1) / 2);
                case MAJORITY -> n / 2 + 1;
                default -> 1;
            };
        }
    }

    public record Plan(Fault fault, Target target) {
        public static Plan parse(String text) {
            String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
            int dash = t.lastIndexOf('-');
            try {
                return new Plan(Fault.valueOf(t.substring(0, Math.max(0, dash)).toUpperCase(Locale.ROOT)),
                        Target.valueOf(t.substring(dash + 1).toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException | StringIndexOutOfBoundsException e) {
                throw new IllegalArgumentException("--nemesis: unknown '" + text + "'; give FAULT-TARGET, FAULT one of"
                        + " kill, pause, partition, slow, TARGET one of leader, follower, random, minority, majority"
                        + " (e.g. kill-leader)");
            }
        }

        /** Refuses plans that cannot be carried out, or could not be healed, on {@code members} members. */
        public void validate(int members) {
            if (fault == Fault.SLOW && target.size(members) > 1) {
                throw new IllegalArgumentException("slow delays one member; give slow-leader, slow-follower or slow-random");
            }
            if (fault == Fault.KILL && target == Target.MAJORITY) {
                throw new IllegalArgumentException("kill-majority would end the CP group for good: without CP persistence a"
                        + " killed member comes back as a new one, and CP cannot re-admit members without a majority; use"
                        + " pause-majority or partition-majority");
            }
        }

        public String text() {
            return fault.name().toLowerCase(Locale.ROOT) + "-" + target.name().toLowerCase(Locale.ROOT);
        }
    }

    /** How the faults are held and healed. */
    public record Schedule(Duration faultFor, Duration interval, int maxFaults, boolean restart, Faults.Cut cut, Duration delay) {

        /** For the header: "kill-leader (restart), 20s on, 20s off, for 2m". */
        public String describe(Plan plan, Duration duration) {
            return plan.text() + (plan.fault() == Fault.KILL && restart ? " (restart)" : "")
                    + (plan.fault() == Fault.PARTITION ? " (cut " + cut.name().toLowerCase(Locale.ROOT) + ")" : "")
                    + (plan.fault() == Fault.SLOW ? " (" + Durations.format(delay) + ")" : "")
                    + ", " + Durations.format(faultFor) + " on, " + Durations.format(interval) + " off, for "
                    + Durations.format(duration);
        }
    }

    private final Plan plan;
    private final Schedule schedule;
    private final Topology topology;
    private final Faults faults;
    private final HistoryRecorder recorder;
    private final PrintStream console;
    private final CountDownLatch stop;
    private final LeaderWait leaderWait;
    private final List<String> log = new ArrayList<>();
    private final List<Availability.Window> windows = new ArrayList<>();
    /** Faults due that found no target, and why the last did not: said at the end of the run, and in its verdict. */
    private int skipped;
    private String lastSkip;

    /** How often a fault that finds no target (no leader yet) asks again before it is skipped, and how far apart. */
    static final int TARGET_ATTEMPTS = 11;
    static final Duration TARGET_RETRY = Duration.ofMillis(500);

    public ChaosNemesis(Plan plan, Schedule schedule, Topology topology, Faults faults, HistoryRecorder recorder,
                        PrintStream console, CountDownLatch stop) {
        this(plan, schedule, topology, faults, recorder, console, stop,
                new LeaderWait(() -> topology.leadership().read(), TARGET_RETRY));
    }

    /**
     * Who leads now, and how far apart a fault with no target asks again: the topology's leadership read and
     * {@link #TARGET_RETRY}, or a test's script and its own pace.
     */
    record LeaderWait(java.util.function.Supplier<LeaderView> read, Duration retry) {
    }

    ChaosNemesis(Plan plan, Schedule schedule, Topology topology, Faults faults, HistoryRecorder recorder,
                 PrintStream console, CountDownLatch stop, LeaderWait leaderWait) {
        this.leaderWait = leaderWait;
        this.plan = plan;
        this.schedule = schedule;
        this.topology = topology;
        this.faults = faults;
        this.recorder = recorder;
        this.console = console;
        this.stop = stop;
    }

    /** What the nemesis did, a line each, for the result. */
    public List<String> log() {
        return log;
    }

    /**
     * The faults injected, each judged until the next one is injected or {@code historyEnd}: the last window
     * stays open until the history ends.
     */
    public List<Availability.Window> windows(long historyEnd) {
        List<Availability.Window> closed = new ArrayList<>();
        for (int i = 0; i < windows.size(); i++) {
            Availability.Window w = windows.get(i);
            closed.add(new Availability.Window(w.fault(), w.target(), w.injected(), w.healed(),
                    i + 1 < windows.size() ? windows.get(i + 1).injected() : historyEnd + 1));
        }
        return closed;
    }

    /**
     * The nemesis's own check, once it has run: OK when every fault that came due was injected; UNKNOWN when some
     * found no target (the leader-aimed ones while no member led): nothing failed, but the run tested fewer faults
     * than its schedule asked for, so it cannot stand for a run that did. ({@code --faults 10} that injected 1 used to
     * end OK "over 1 fault".)
     */
    public Checker.Verdict verdict() {
        return verdict(windows.size(), skipped, lastSkip);
    }

    static Checker.Verdict verdict(int injected, int skipped, String lastSkip) {
        String faults = injected + " fault" + (injected == 1 ? "" : "s") + " injected";
        if (skipped == 0) {
            return new Checker.Verdict("nemesis", Status.OK, faults + "; none skipped");
        }
        return new Checker.Verdict("nemesis", Status.UNKNOWN, faults + ", " + skipped + " skipped for want of a target"
                + " (last: " + lastSkip + "): the run tested fewer faults than it was due to");
    }

    /** Injects and heals on the schedule until {@code loadEndNanos} (System.nanoTime) or until stopped. */
    public void run(long loadEndNanos, long seed) throws InterruptedException {
        try {
            injectOnSchedule(loadEndNanos, seed);
        } finally {
            if (skipped > 0) {
                // said at the end too, where the faults are counted: a run that asked for 10 and injected 1 must say so
                line(verdict().evidence());
            }
        }
    }

    private void injectOnSchedule(long loadEndNanos, long seed) throws InterruptedException {
        SplittableRandom random = new SplittableRandom(seed);
        int killed = 0;
        int n = topology.members().size();
        while (!stop.await(schedule.interval().toMillis(), TimeUnit.MILLISECONDS)) {
            if (System.nanoTime() + schedule.faultFor().toNanos() > loadEndNanos
                    || (schedule.maxFaults() > 0 && windows.size() >= schedule.maxFaults())) {
                return;
            }
            if (plan.fault() == Fault.KILL && !schedule.restart() && killed + plan.target().size(n) > (n - 1) / 2) {
                line("not killing more: " + killed + " of " + n + " are down, and the group must keep its majority (use --restart)");
                return;
            }
            List<MemberRef> side = findTarget(random, n, loadEndNanos);
            if (side == null) {
                continue; // skipped, or stopped (the loop's wait then ends it)
            }
            String name = describe(side);
            inject(side);
            // the fault is in force from here: an op invoked while the nemesis was still injecting (a pause spawns
            // its watchdog first) may have succeeded, and must not count as the first success after it
            long at = recorder.now();
            line(String.format(Locale.ROOT, "%7.1fs  %s %s", at / 1e9, plan.fault().name().toLowerCase(Locale.ROOT), name));
            boolean stopped = stop.await(schedule.faultFor().toMillis(), TimeUnit.MILLISECONDS);
            long healed = heal(side, name);
            if (plan.fault() == Fault.KILL) {
                killed += healed == Long.MAX_VALUE ? side.size() : 0;
            } else {
                line(String.format(Locale.ROOT, "%7.1fs  healed %s", healed / 1e9, name));
            }
            windows.add(new Availability.Window(plan.fault().name().toLowerCase(Locale.ROOT), name, at, healed, Long.MAX_VALUE));
            if (stopped) {
                return;
            }
        }
    }

    /**
     * Whom the fault that came due hits. One due just after an election may find no leader yet: it asks again
     * {@link LeaderWait#retry} apart, {@link #TARGET_ATTEMPTS} times at most and while the fault still fits before the
     * load ends. Null when none was found (that is said, and counted as skipped: the run's verdict is then not OK, it
     * did not test what it was asked to), and when the run was stopped meanwhile (not counted).
     */
    private List<MemberRef> findTarget(SplittableRandom random, int n, long loadEndNanos) throws InterruptedException {
        long since = System.nanoTime();
        String noTarget = null;
        int asked = 0;
        while (asked < TARGET_ATTEMPTS) {
            asked++;
            try {
                List<MemberRef> alive = topology.members().stream().filter(topology::isAlive).toList();
                MemberRef leader = plan.target() == Target.RANDOM ? null : leaderNow();
                return pick(plan.target(), alive, leader, n, random);
            } catch (RuntimeException e) {
                noTarget = e.getMessage();
            }
            Duration retry = leaderWait.retry();
            boolean fits = System.nanoTime() + retry.toNanos() + schedule.faultFor().toNanos() <= loadEndNanos;
            if (!fits || asked == TARGET_ATTEMPTS) {
                break;
            }
            if (stop.await(retry.toMillis(), TimeUnit.MILLISECONDS)) {
                return null;
            }
        }
        line(String.format(Locale.ROOT, "no target: %s (asked %d time%s over %.1f s); skipping this fault", noTarget,
                asked, asked == 1 ? "" : "s", (System.nanoTime() - since) / 1e9));
        skipped++;
        lastSkip = noTarget;
        return null;
    }

    private MemberRef leaderNow() {
        LeaderView view = leaderWait.read().get();
        if (view.leader() == null) {
            throw new IllegalStateException("no member leads the CP group now");
        }
        return view.leader();
    }

    private void inject(List<MemberRef> side) {
        switch (plan.fault()) {
            case KILL -> side.forEach(faults::kill);
            case PAUSE -> side.forEach(m -> faults.pause(m, schedule.faultFor()));
            case PARTITION -> faults.isolate(side, schedule.cut());
            case SLOW -> faults.slow(side.get(0), schedule.delay());
        }
    }

    /** Heals the fault; returns when (on the history's clock), or {@code Long.MAX_VALUE} if it stays in force. */
    private long heal(List<MemberRef> side, String name) {
        switch (plan.fault()) {
            case KILL -> {
                if (!schedule.restart()) {
                    return Long.MAX_VALUE;
                }
                for (MemberRef m : side) {
                    try {
                        faults.restart(m, Duration.ofSeconds(120));
                    } catch (RuntimeException e) {
                        line("restart of member " + m.index() + " failed: " + e.getMessage());
                        return Long.MAX_VALUE;
                    }
                }
                long healed = recorder.now();
                line(String.format(Locale.ROOT, "%7.1fs  restarted %s, back in CP", healed / 1e9, name));
                return healed;
            }
            case PAUSE -> side.forEach(faults::resume);
            case PARTITION -> faults.heal();
            case SLOW -> faults.unslow();
        }
        return recorder.now();
    }

    private void line(String text) {
        console.println("  nemesis " + text);
        log.add(text.trim());
    }

    /**
     * Whom a fault hits: the leader; one follower; any live member; or a minority or majority of the cluster's
     * {@code n} members, the leader among them (for a partition: the leader's side is the minority, or keeps the
     * majority).
     */
    public static List<MemberRef> pick(Target target, List<MemberRef> alive, MemberRef leader, int n, SplittableRandom random) {
        if (target == Target.RANDOM) {
            return List.of(alive.get(random.nextInt(alive.size())));
        }
        if (leader == null) {
            throw new IllegalStateException("no member leads the CP group now");
        }
        List<MemberRef> followers = new ArrayList<>(alive.stream().filter(m -> m.index() != leader.index()).toList());
        if (target == Target.LEADER) {
            return List.of(leader);
        }
        if (target == Target.FOLLOWER) {
            return List.of(followers.get(random.nextInt(followers.size())));
        }
        int size = target.size(n);
        if (followers.size() < size - 1) {
            throw new IllegalStateException("only " + (followers.size() + 1) + " members are up, fewer than the " + size + " to hit");
        }
        List<MemberRef> side = new ArrayList<>(List.of(leader));
        while (side.size() < size) {
            side.add(followers.remove(random.nextInt(followers.size())));
        }
        side.sort(Comparator.comparingInt(MemberRef::index));
        return List.copyOf(side);
    }

    /** "member 2 (127.0.0.1:5703)" or "members 0, 2". */
    public static String describe(List<MemberRef> side) {
        if (side.size() == 1) {
            return "member " + side.get(0).index() + " (" + side.get(0).address() + ")";
        }
        return "members " + side.stream().map(m -> Integer.toString(m.index())).collect(Collectors.joining(", "));
    }
}
