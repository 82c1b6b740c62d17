package io.cpbench.bench.run;

import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.check.ChaosDocument;
import io.cpbench.core.check.Checker;
import io.cpbench.core.history.HistoryRecorder;
import io.cpbench.core.status.Status;
import io.cpbench.topology.Faults;
import io.cpbench.topology.LeaderView;
import io.cpbench.topology.Leadership;
import io.cpbench.topology.MemberRef;
import io.cpbench.topology.Topology;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The nemesis's schedule when a fault aimed at the leader comes due while no member leads: it asks again for a bounded
 * while and injects once a leader shows; when none does, it skips the fault, says so, and its verdict is not OK. The
 * cluster is out of the picture: who leads is scripted, and the faults are recorded, not done.
 */
class ChaosNemesisTest {

    private static final List<MemberRef> FIVE = IntStream.range(0, 5)
            .mapToObj(i -> new MemberRef(i, "127.0.0.1:" + (5701 + i), i == 0)).toList();
    /** 20 ms on, 20 ms off, two faults at most; a fault with no target asks again every 20 ms. */
    private static final ChaosNemesis.Schedule SCHEDULE = new ChaosNemesis.Schedule(Duration.ofMillis(20),
            Duration.ofMillis(20), 2, true, Faults.Cut.MEMBERS, Duration.ZERO);
    private static final Duration RETRY = Duration.ofMillis(20);

    @Test
    void aLeaderAimedFaultWaitsForALeaderAndIsInjectedOnceOneShows() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        // no leader for the first 3 reads (an election), then member 2
        Run run = run(() -> reads.incrementAndGet() <= 3 ? noLeader() : leader(FIVE.get(2)));
        assertThat(run.faults.kills).as("both faults hit the leader once it was known").containsExactly(2, 2);
        assertThat(run.nemesis.verdict().status()).isEqualTo(Status.OK);
        assertThat(run.nemesis.verdict().evidence()).isEqualTo("2 faults injected; none skipped");
        assertThat(run.console).doesNotContain("no target");
    }

    @Test
    void aFaultThatNeverFindsALeaderIsSkippedSaidAndTheVerdictIsNotOk() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        Run run = run(() -> {
            reads.incrementAndGet();
            return noLeader();
        });
        assertThat(run.faults.kills).isEmpty();
        // the load ends 3 s in: every fault due until then (about one per 11 x 20 ms + 20 ms, fewer on a slow machine)
        // is skipped, each after asking 11 times, but the last, which the load's end cuts short
        List<String> noTarget = run.console.lines().map(String::strip).filter(l -> l.startsWith("nemesis no target: "))
                .toList();
        long skipped = noTarget.size();
        assertThat(skipped).as(run.console).isBetween(2L, 14L);
        assertThat(noTarget.get(0)).startsWith("nemesis no target: no member leads the CP group now (asked 11 times over 0.");
        assertThat(reads.get()).as("asked at most 11 times per fault").isBetween((int) skipped, (int) (11 * skipped));
        Checker.Verdict verdict = run.nemesis.verdict();
        assertThat(verdict.status()).isEqualTo(Status.UNKNOWN);
        assertThat(verdict.evidence()).isEqualTo("0 faults injected, " + skipped + " skipped for want of a target (last:"
                + " no member leads the CP group now): the run tested fewer faults than it was due to");
        // and the nemesis's last line says the same, where its faults are listed
        assertThat(run.console.lines().map(String::strip).toList()).last().isEqualTo("nemesis " + verdict.evidence());
    }

    @Test
    void aRunStoppedWhileAFaultWaitsForALeaderEndsThereAndSkipsNothing() throws Exception {
        CountDownLatch stop = new CountDownLatch(1);
        AtomicInteger reads = new AtomicInteger();
        long started = System.nanoTime();
        // Ctrl-C on the second read: the fault stops waiting, and a stop is not a skipped fault
        Run run = run(() -> {
            if (reads.incrementAndGet() == 2) {
                stop.countDown();
            }
            return noLeader();
        }, stop);
        assertThat(reads.get()).isEqualTo(2);
        assertThat(System.nanoTime() - started).as("ended at once, not at the load's end 3 s in")
                .isLessThan(Duration.ofSeconds(2).toNanos());
        assertThat(run.faults.kills).isEmpty();
        assertThat(run.console).doesNotContain("no target");
        assertThat(run.nemesis.verdict().evidence()).isEqualTo("0 faults injected; none skipped");
    }

    @Test
    void theVerdictCountsTheSkippedFaultsAndDecidesARunThatPassedTheRest() {
        Checker.Verdict clean = ChaosNemesis.verdict(10, 0, null);
        assertThat(clean.status()).isEqualTo(Status.OK);
        assertThat(clean.evidence()).isEqualTo("10 faults injected; none skipped");
        Checker.Verdict skipped = ChaosNemesis.verdict(1, 9, "no member leads the CP group now");
        assertThat(skipped.status()).isEqualTo(Status.UNKNOWN);
        assertThat(skipped.evidence()).isEqualTo("1 fault injected, 9 skipped for want of a target (last: no member leads"
                + " the CP group now): the run tested fewer faults than it was due to");
        // beside passing checks it decides the run, and a failed check still beats it
        var passed = new Checker.Verdict("linearizability", Status.OK, "linearizable");
        var run = ChaosDocument.verdictOf(List.of(passed, skipped));
        assertThat(run.status()).isEqualTo(Status.UNKNOWN);
        assertThat(run.reason()).startsWith("nemesis: 1 fault injected, 9 skipped");
        assertThat(ExitCodes.of(run.status(), false, false)).isEqualTo(3);
        var broken = new Checker.Verdict("counter", Status.FAIL, "lost 1");
        assertThat(ChaosDocument.verdictOf(List.of(broken, skipped)).status()).isEqualTo(Status.FAIL);
        assertThat(ChaosDocument.verdictOf(List.of(passed, clean)).status()).isEqualTo(Status.OK);
    }

    private record Run(ChaosNemesis nemesis, RecordedFaults faults, String console) {
    }

    private static Run run(java.util.function.Supplier<LeaderView> leaderRead) throws InterruptedException {
        return run(leaderRead, new CountDownLatch(1));
    }

    private static Run run(java.util.function.Supplier<LeaderView> leaderRead, CountDownLatch stop)
            throws InterruptedException {
        RecordedFaults faults = new RecordedFaults();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);
        ChaosNemesis nemesis = new ChaosNemesis(ChaosNemesis.Plan.parse("kill-leader"), SCHEDULE, new FiveMembers(),
                faults, new HistoryRecorder(1), console, stop, new ChaosNemesis.LeaderWait(leaderRead, RETRY));
        nemesis.run(System.nanoTime() + Duration.ofSeconds(3).toNanos(), 1);
        return new Run(nemesis, faults, out.toString(StandardCharsets.UTF_8));
    }

    private static LeaderView noLeader() {
        return new LeaderView(null, 0, 0, 5, List.of(), "members");
    }

    private static LeaderView leader(MemberRef member) {
        return new LeaderView(member, 1, 5, 5, List.of(), "members");
    }

    /** Five members, all up; who leads comes from the test's script, not from here. */
    private static final class FiveMembers implements Topology {
        @Override
        public String kind() {
            return "scripted";
        }

        @Override
        public String clusterName() {
            return "scripted";
        }

        @Override
        public List<MemberRef> members() {
            return FIVE;
        }

        @Override
        public Leadership leadership() {
            throw new UnsupportedOperationException("the test scripts who leads");
        }

        @Override
        public void kill(MemberRef member) {
            throw new UnsupportedOperationException("faults go through Faults");
        }

        @Override
        public boolean isAlive(MemberRef member) {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /** Records the members killed and restarted; does nothing else. */
    private static final class RecordedFaults implements Faults {
        final List<Integer> kills = new ArrayList<>();

        @Override
        public void kill(MemberRef member) {
            kills.add(member.index());
        }

        @Override
        public void restart(MemberRef member, Duration timeout) {
        }

        @Override
        public void pause(MemberRef member, Duration atMost) {
        }

        @Override
        public void resume(MemberRef member) {
        }

        @Override
        public void isolate(Collection<MemberRef> side, Cut cut) {
        }

        @Override
        public void heal() {
        }

        @Override
        public void slow(MemberRef member, Duration delay) {
        }

        @Override
        public void unslow() {
        }

        @Override
        public void healAll() {
        }

        @Override
        public String method() {
            return "recorded";
        }
    }
}
