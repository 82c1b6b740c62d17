package io.cpbench.core.workload;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.IAtomicReference;
import io.cpbench.core.run.Driver;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.status.Status;
import io.cpbench.core.load.LoadSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The seed's op on a real 3-member CP group while another writer keeps changing the reference: it must re-read,
 * count its retries, end every op, and give up with a clear error after its bound.
 */
class CasWorkloadIT {

    private static final List<HazelcastInstance> MEMBERS = new ArrayList<>();

    @BeforeAll
    static void cluster() {
        MEMBERS.addAll(io.cpbench.core.TestCluster.cpGroup("cas-it-" + ProcessHandle.current().pid(), 6301, 3));
    }

    @AfterAll
    static void stop() {
        MEMBERS.forEach(m -> m.getLifecycleService().terminate());
    }

    /** Keeps setting the reference to new values until stopped. */
    private static Thread writer(IAtomicReference<String> reference, AtomicBoolean stop, AtomicLong writes) {
        Thread thread = new Thread(() -> {
            for (long i = 0; !stop.get() && i < 10_000_000; i++) {
                reference.set("writer-" + i);
                writes.incrementAndGet();
            }
        }, "cas-it-writer");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static LoadResult drive(Workload workload, long ops) {
        LoadSpec plan = LoadSpec.scenario().warmupOps(0).ops(ops).threads(2).timebox(Duration.ofSeconds(60)).build();
        return assertTimeoutPreemptively(Duration.ofSeconds(90), () -> new Driver(plan).run(workload, null, null));
    }

    @Test
    void aWriterElsewhereMakesTheOpRetryNotSpin() throws Exception {
        IAtomicReference<String> reference = MEMBERS.get(0).getCPSubsystem().getAtomicReference("cas-it-contended");
        CasWorkload workload = new CasWorkload(reference).initialise();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong writes = new AtomicLong();
        Thread writer = writer(reference, stop, writes);
        LoadResult m;
        try {
            m = drive(workload, 600);
        } finally {
            stop.set(true);
            writer.join(10_000);
        }
        assertEquals(Status.OK, m.outcome(), m.reason());
        assertEquals(600, m.ops() + m.errors(), "every op ended, as a success or an error");
        assertTrue(writes.get() > 100, "the writer wrote meanwhile: " + writes.get());
        long retries = m.counters().get("casRetries");
        assertTrue(retries > 0, "with a writer changing the value, some CAS failed and were retried: " + m.counters());
        assertEquals(m.errors(), m.counters().get("casGaveUp"), "only the bound turns retries into errors");
    }

    @Test
    void afterItsBoundAnOpIsAnErrorWithAClearReason() throws Exception {
        IAtomicReference<String> reference = MEMBERS.get(0).getCPSubsystem().getAtomicReference("cas-it-bounded");
        CasWorkload workload = new CasWorkload(reference, 0).initialise();
        AtomicBoolean stop = new AtomicBoolean();
        Thread writer = writer(reference, stop, new AtomicLong());
        LoadResult m;
        try {
            m = drive(workload, 300);
        } finally {
            stop.set(true);
            writer.join(10_000);
        }
        // Either every op ended, or 100 in a row gave up and the driver ended the run as failed, for this reason.
        assertTrue(m.ops() + m.errors() == 300 || m.outcome() == Status.FAIL
                && m.reason().contains("ops in a row failed; last: ContendedException: compareAndSet failed"), m.reason());
        assertTrue(m.errors() > 0, "with no retries allowed and a busy writer, some op must give up");
        assertEquals(m.errors(), m.counters().get("casGaveUp"));
        assertEquals(0L, m.counters().get("casRetries"));
        assertNotNull(m.caveats().firstError());
        assertTrue(m.caveats().firstError().contains("compareAndSet failed 1 times in a row"), m.caveats().firstError());
    }

    @Test
    void alone_theOpNeverRetries() {
        IAtomicReference<String> reference = MEMBERS.get(0).getCPSubsystem().getAtomicReference("cas-it-alone");
        LoadResult m = drive(new CasWorkload(reference).initialise(), 300);
        assertEquals(300, m.ops());
        assertEquals(0, m.errors());
        assertEquals(0L, m.counters().get("casRetries"));
    }
}
