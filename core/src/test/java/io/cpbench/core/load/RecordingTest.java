package io.cpbench.core.load;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import static org.assertj.core.api.Assertions.assertThat;

/** Recording and InFlight together: who counts an op that ends as the run abandons it. */
class RecordingTest {

    private static final OpType[] ONE_OP = {OpType.GET};

    @Test
    void anAbandonedOpIsReportedOnceWithItsOpAndStartAndItsWorkerCannotRecordIt() {
        OpType[] ops = {OpType.GET, OpType.SET, OpType.CAS};
        InFlight slots = new InFlight(3);
        Recording recording = new Recording(ops, true, false, slots);
        slots.begin(0, 2, 1_000);
        slots.begin(2, 1, 5_000);
        slots.begin(1, 0, 7_000);
        recording.ok(1, 0, 7_000, 7_000, 9_000); // worker 1 ends its op before the run abandons
        List<String> abandoned = new ArrayList<>();

        int n = recording.abandon((op, since) -> abandoned.add(op + "@" + since));
        recording.ok(0, 2, 1_000, 1_000, 20_000); // too late: the run counted these two
        recording.error(2, 1, new IllegalStateException("late"));
        Tally tally = new Tally(ops, true);
        recording.take(tally);

        assertThat(n).isEqualTo(2);
        assertThat(abandoned).containsExactly("2@1000", "1@5000");
        assertThat(tally.latency[0].getTotalCount()).isEqualTo(1);
        assertThat(tally.latency[0].getMaxValue()).as("µs").isEqualTo(2);
        assertThat(tally.latency[2].getTotalCount()).as("abandoned: the worker must not record it").isZero();
        assertThat(tally.errors[1]).isZero();
        assertThat(recording.abandon((op, since) -> abandoned.add("again"))).as("reported once").isZero();
    }

    @Test
    void anOpenLoopRecordsLatencyAndServiceTimeApartAndTakeStartsAFreshInterval() {
        InFlight slots = new InFlight(1);
        Recording recording = new Recording(ONE_OP, false, true, slots);
        slots.begin(0, 0, 1_000_000);
        recording.ok(0, 0, 1_000_000, 4_000_000, 5_000_000); // due at 1 ms, started at 4 ms, ended at 5 ms
        recording.lag(3_000_000);
        Tally first = new Tally(ONE_OP, false);
        recording.take(first);
        slots.begin(0, 0, 6_000_000);
        recording.ok(0, 0, 6_000_000, 6_000_000, 6_500_000);
        Tally second = new Tally(ONE_OP, false);
        recording.take(second);

        assertThat(first.latency[0].valuesAreEquivalent(first.latency[0].getMaxValue(), 4_000)).as("max ≈ 4_000 µs").isTrue();
        assertThat(first.service[0].valuesAreEquivalent(first.service[0].getMaxValue(), 1_000)).as("max ≈ 1_000 µs").isTrue();
        assertThat(first.lag.getTotalCount()).isEqualTo(1);
        assertThat(recording.late.sum()).isEqualTo(1);
        assertThat(second.latency[0].getTotalCount()).as("the first interval's value is not taken twice").isEqualTo(1);
        assertThat(second.latency[0].valuesAreEquivalent(second.latency[0].getMaxValue(), 500)).as("max ≈ 500 µs").isTrue();
        assertThat(second.lag.getTotalCount()).isZero();
    }

    /**
     * Workers end ops as fast as they can while intervals are taken and the run abandons: every op begun before the
     * run abandoned is counted exactly once, recorded by its worker or reported by the run. Repeated, as the interleavings differ from one try
     * to the next; with several workers (atomic histograms) and with one.
     */
    @Test
    void underRacingWorkersEveryOpIsCountedOnceAsRecordedOrAsAbandoned() throws InterruptedException {
        for (int attempt = 0; attempt < 40; attempt++) {
            int workers = attempt % 2 == 0 ? 4 : 1;
            InFlight slots = new InFlight(workers);
            Recording recording = new Recording(ONE_OP, true, workers == 1, slots);
            LongAdder begun = new LongAdder();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int worker = w;
                Thread t = new Thread(() -> {
                    for (long k = 1; k <= 2_000_000 && !stop.get(); k++) {
                        slots.begin(worker, 0, k);
                        begun.increment();
                        if (k % 1000 == 0) {
                            recording.error(worker, 0, new IllegalStateException("every thousandth"));
                        } else {
                            recording.ok(worker, 0, k, k, k + 1_000);
                        }
                    }
                });
                threads.add(t);
                t.start();
            }
            Tally all = new Tally(ONE_OP, true);
            for (int i = 0; i < attempt % 4; i++) {
                recording.take(all); // intervals taken while workers record
                Thread.sleep(1);
            }
            stop.set(true);
            int abandoned = recording.abandon((op, since) -> { });
            recording.take(all);
            for (Thread t : threads) {
                t.join(10_000);
            }
            Tally after = new Tally(ONE_OP, true);
            recording.take(after);
            // A worker that passed its stop check as the run stopped may begin one op after the run's abandon looked
            // at its slot: that op is neither recorded nor reported, and still holds the slot.
            int late = slots.abandon((op, since) -> { });

            assertThat(all.latency[0].getTotalCount() + all.errors[0] + abandoned + late).as("attempt %d", attempt)
                    .isEqualTo(begun.sum());
            assertThat(late).isLessThanOrEqualTo(workers);
            assertThat(after.latency[0].getTotalCount() + after.errors[0])
                    .as("nothing is recorded after the run abandoned").isZero();
        }
    }
}
