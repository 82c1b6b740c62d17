package io.cpbench.core.load;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPSubsystem;
import com.hazelcast.cp.IAtomicLong;
import com.hazelcast.cp.IAtomicReference;
import com.hazelcast.cp.ISemaphore;
import com.hazelcast.cp.lock.FencedLock;
import io.cpbench.core.workload.CasWorkload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The CP objects of a load run and its ops on them, through each client's own proxies. Object names carry a
 * per-run suffix, so a run starts from fresh objects and no other writer touches them: what the invariants
 * check is this run's doing alone.
 */
final class LoadOps {

    /** The constant value the references hold; {@code cas} (the seed's op, {@link CasWorkload}) and {@code set} keep it. */
    static final String VALUE = CasWorkload.INITIAL_VALUE;

    private final LoadSpec spec;
    private final List<HazelcastInstance> clients;
    /** Clients for the objects of particular CP groups (a per-group route); other groups' objects use {@link #clients}. */
    private java.util.Map<String, List<HazelcastInstance>> groupClients = java.util.Map.of();
    private final String[] names;
    private final String[] registerNames;
    private final IAtomicReference<String>[][] refs;
    private final CasWorkload[][] cas;
    private final IAtomicLong[][] counters;
    private final IAtomicLong[][] registers;
    private final FencedLock[][] locks;
    private final ISemaphore[][] semaphores;
    /** Per counter: increments started, and acknowledged. */
    final LongAdder[] incrementsStarted;
    final LongAdder[] incrementsAcked;
    private long[] countersAtStart;
    private volatile boolean atMostOnce;

    @SuppressWarnings("unchecked")
    LoadOps(LoadSpec spec, List<HazelcastInstance> clients, String runSuffix) {
        this.spec = spec;
        this.clients = List.copyOf(clients);
        int n = spec.objects();
        names = new String[n];
        for (int j = 0; j < n; j++) {
            String group = spec.groups().get(j % spec.groups().size());
            String groupSuffix = group.equals("default") ? "" : "@" + group;
            if (!spec.names().isEmpty()) {
                String given = spec.names().get(j);
                names[j] = given.contains("@") ? given : given + groupSuffix;
            } else {
                names[j] = spec.prefix() + "-" + runSuffix + "-" + j + groupSuffix;
            }
        }
        registerNames = new String[n];
        for (int j = 0; j < n; j++) {
            int at = names[j].indexOf('@');
            registerNames[j] = at < 0 ? names[j] + "-reg" : names[j].substring(0, at) + "-reg" + names[j].substring(at);
        }
        int c = clients.size();
        refs = new IAtomicReference[c][];
        cas = new CasWorkload[c][];
        counters = new IAtomicLong[c][];
        registers = new IAtomicLong[c][];
        locks = new FencedLock[c][];
        semaphores = new ISemaphore[c][];
        incrementsStarted = new LongAdder[n];
        incrementsAcked = new LongAdder[n];
        for (int j = 0; j < n; j++) {
            incrementsStarted[j] = new LongAdder();
            incrementsAcked[j] = new LongAdder();
        }
    }

    void routeByGroup(java.util.Map<String, List<HazelcastInstance>> byGroup) {
        groupClients = java.util.Map.copyOf(byGroup);
    }

    /** The client instance {@code c} uses for object {@code j}. */
    private HazelcastInstance clientFor(int c, int j) {
        List<HazelcastInstance> forGroup = groupClients.get(spec.objectGroup(j));
        return forGroup != null ? forGroup.get(c) : clients.get(c);
    }

    String objectName(int j) {
        return names[j];
    }

    /** The register of object {@code j}: an {@code IAtomicLong} apart from the counter of the same object. */
    String registerName(int j) {
        return registerNames[j];
    }

    int clientCount() {
        return clients.size();
    }

    /**
     * Creates every client's proxies, gives references their value, registers 0 and semaphores their permits.
     *
     * @param history where the registers' initial writes are recorded, or null
     */
    void setUp(io.cpbench.core.history.HistoryRecorder.Lane history) {
        boolean ref = uses(OpType.CAS) || uses(OpType.GET) || uses(OpType.SET);
        for (int c = 0; c < clients.size(); c++) {
            proxies(c, ref);
        }
        if (clients.isEmpty()) {
            return;
        }
        for (int j = 0; j < names.length; j++) {
            if (ref) {
                refs[0][j].set(VALUE);
            }
            if (semaphores[0] != null) {
                semaphores[0][j].init(spec.workers());
            }
            if (registers[0] != null) {
                if (history != null) {
                    history.invoke("write", registerName(j), 0L);
                }
                registers[0][j].set(0);
                if (history != null) {
                    history.complete(io.cpbench.core.history.Event.Type.OK, 0L, null);
                }
            }
        }
        if (counters.length > 0 && counters[0] != null) {
            countersAtStart = new long[names.length];
            for (int j = 0; j < names.length; j++) {
                countersAtStart[j] = counters[0][j].get();
            }
        }
    }

    /** Client {@code c}'s proxies of every object the mix uses. */
    private void proxies(int c, boolean ref) {
        int n = names.length;
        if (ref) {
            refs[c] = new IAtomicReference[n];
            cas[c] = new CasWorkload[n];
        }
        if (uses(OpType.INCREMENT)) {
            counters[c] = new IAtomicLong[n];
        }
        if (uses(OpType.READ) || uses(OpType.WRITE) || uses(OpType.CMPSET)) {
            registers[c] = new IAtomicLong[n];
        }
        if (uses(OpType.LOCK)) {
            locks[c] = new FencedLock[n];
        }
        if (uses(OpType.SEMAPHORE)) {
            semaphores[c] = new ISemaphore[n];
        }
        for (int j = 0; j < n; j++) {
            CPSubsystem cp = clientFor(c, j).getCPSubsystem();
            if (ref) {
                refs[c][j] = cp.getAtomicReference(names[j]);
                cas[c][j] = new CasWorkload(refs[c][j]);
            }
            if (counters[c] != null) {
                counters[c][j] = cp.getAtomicLong(names[j]);
            }
            if (registers[c] != null) {
                registers[c][j] = cp.getAtomicLong(registerName(j));
            }
            if (locks[c] != null) {
                locks[c][j] = cp.getLock(names[j]);
            }
            if (semaphores[c] != null) {
                semaphores[c][j] = cp.getSemaphore(names[j]);
            }
        }
    }

    private boolean uses(OpType op) {
        return spec.mix().containsKey(op);
    }

    /** How many values (0 to this, exclusive) registers take: few, so that reads and cas often meet a write. */
    static final int REGISTER_VALUES = 5;

    /**
     * Runs one op; a lock op appends its hold to {@code locks}.
     *
     * @param a a write's value, a cmpset's expected value
     * @param b a cmpset's new value
     * @return a read's value, 1 or 0 for a cmpset that swapped or did not, an increment's new value; else 0
     */
    long execute(OpType op, int client, int object, LockLog lockLog, long a, long b) throws Exception {
        switch (op) {
            case CAS -> cas[client][object].execute();
            case GET -> refs[client][object].get();
            case SET -> refs[client][object].set(VALUE);
            case READ -> {
                return registers[client][object].get();
            }
            case WRITE -> registers[client][object].set(a);
            case CMPSET -> {
                return registers[client][object].compareAndSet(a, b) ? 1 : 0;
            }
            case INCREMENT -> {
                incrementsStarted[object].increment();
                long value = counters[client][object].incrementAndGet();
                incrementsAcked[object].increment();
                return value;
            }
            case LOCK -> {
                FencedLock lock = locks[client][object];
                long fence = lock.lockAndGetFence();
                long held = System.nanoTime();
                long releasing = System.nanoTime();
                try {
                    lock.unlock();
                } catch (RuntimeException e) {
                    lockLog.add(object, fence, held, Long.MAX_VALUE);
                    throw e;
                }
                lockLog.add(object, fence, held, releasing);
            }
            case SEMAPHORE -> {
                ISemaphore semaphore = semaphores[client][object];
                semaphore.acquire();
                semaphore.release();
            }
            case NOOP -> {
            }
        }
        return 0;
    }

    /** The counter invariant, per counter: read each counter's final value (each read bounded by {@code timeout}). */
    List<LoadResult.InvariantResult> checkCounters(Duration timeout) {
        List<LoadResult.InvariantResult> results = new ArrayList<>();
        if (countersAtStart == null) {
            return results;
        }
        long acked = 0;
        long unknown = 0;
        List<Invariants.CounterCheck> checks = new ArrayList<>();
        for (int j = 0; j < names.length; j++) {
            // In this order, so that an op abandoned in flight that ends meanwhile cannot look lost: every increment
            // acknowledged before the read is in the value read, and every one in the value was started before the
            // started count is read.
            long acknowledged = incrementsAcked[j].sum();
            long end;
            try {
                end = counters[0][j].getAsync().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                results.add(new LoadResult.InvariantResult("counter", false, "could not read " + names[j] + " within "
                        + timeout.toSeconds() + " s: " + Errors.describe(e) + "; the invariant was not checked"));
                return results;
            }
            long u = incrementsStarted[j].sum() - acknowledged;
            long a = acknowledged + PlantedLostIncrement.extraAcknowledged(j);
            acked += a;
            unknown += u;
            checks.add(Invariants.counter(names[j], countersAtStart[j], end, a, u));
        }
        LoadResult.InvariantResult result = Invariants.counters(checks, acked, unknown, atMostOnce);
        results.add(result.holds() ? result : new LoadResult.InvariantResult("counter", false,
                PlantedLostIncrement.prefix() + result.evidence()));
        return results;
    }

    /**
     * Whether the members apply an op at most once (their fail-on-indeterminate-operation-state is true): increments
     * applied twice are then a violation, not the duplicates Hazelcast's at-least-once default allows.
     */
    void atMostOnce(boolean value) {
        atMostOnce = value;
    }
}
