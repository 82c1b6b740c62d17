package io.cpbench.core.load;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import static org.assertj.core.api.Assertions.assertThat;

class InFlightTest {

    @Test
    void anAbandonedOpIsReportedOnceWithItsOpAndStartAndTheWorkerCannotRecordIt() {
        InFlight slots = new InFlight(3);
        slots.begin(0, 2, 1_000);
        slots.begin(2, 1, 5_000);
        slots.begin(1, 0, 7_000);
        assertThat(slots.ending(1, 7_000)).isTrue(); // worker 1 ends its op before the run abandons
        slots.ended(1);
        List<String> abandoned = new ArrayList<>();

        int n = slots.abandon((op, since) -> abandoned.add(op + "@" + since));

        assertThat(n).isEqualTo(2);
        assertThat(abandoned).containsExactly("2@1000", "1@5000");
        assertThat(slots.ending(0, 1_000)).as("the run counted it: the worker must not").isFalse();
        assertThat(slots.ending(2, 5_000)).isFalse();
        assertThat(slots.abandon((op, since) -> abandoned.add("again"))).as("claimed once").isZero();
    }

    /**
     * Workers end ops as fast as they can while the run abandons: every op begun is counted exactly once, either by
     * its worker or by the run. Repeated, as the interleavings differ from one try to the next.
     */
    @Test
    void underRacingWorkersEveryOpIsCountedOnceAsDoneOrAsAbandoned() throws InterruptedException {
        int workers = 4;
        for (int attempt = 0; attempt < 50; attempt++) {
            InFlight slots = new InFlight(workers);
            LongAdder begun = new LongAdder();
            LongAdder recorded = new LongAdder();
            LongAdder refused = new LongAdder();
            AtomicLong abandoned = new AtomicLong();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int worker = w;
                Thread t = new Thread(() -> {
                    for (long k = 1; k <= 2_000_000 && !stop.get(); k++) {
                        slots.begin(worker, 0, k);
                        begun.increment();
                        if (slots.ending(worker, k)) {
                            recorded.increment();
                            slots.ended(worker);
                        } else {
                            refused.increment();
                        }
                    }
                });
                threads.add(t);
                t.start();
            }
            Thread.sleep(attempt % 3);
            stop.set(true);
            abandoned.set(slots.abandon((op, since) -> { }));
            for (Thread t : threads) {
                t.join(10_000);
            }

            assertThat(recorded.sum() + abandoned.get()).as("attempt %d", attempt).isEqualTo(begun.sum());
            assertThat(refused.sum()).as("a worker is refused exactly the ops the run took").isEqualTo(abandoned.get());
        }
    }
}
