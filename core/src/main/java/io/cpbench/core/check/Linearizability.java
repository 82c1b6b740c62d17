package io.cpbench.core.check;

import io.cpbench.core.status.Status;

import io.cpbench.core.history.History;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * Checks that a history of read/write/cas registers is linearizable: Wing and Gong's search with Lowe's
 * memoisation (as in Porcupine and Knossos's {@code linear}), per key (P-compositionality: a history is
 * linearizable if and only if each key's sub-history is).
 *
 * <p>The search walks the ops in call order and tries to linearize each op that has been called before the
 * earliest return still ahead; it backtracks when it reaches a return whose op it could not place. The memo holds
 * each (set of ops linearized, register value) reached, so no configuration is explored twice. Sets are hashed
 * incrementally (Zobrist) and stored as runs of ids, which stay short because ops are linearized roughly in order.
 *
 * <p>Each check runs within a {@link Budget}; past it the verdict is {@code unknown}, naming the budget, and so is
 * a search that runs the JVM out of heap: running out of anything is never "not linearizable". Each key gets its own
 * share of the time (what is left, divided by the keys still to check, so time a quick key leaves over goes to the
 * next), so a key that cannot be decided in time cannot make another key's violation unknown.
 */
public final class Linearizability {

    /** Time the whole check may take (all keys together, shared out key by key), and memo memory per key. */
    public record Budget(Duration time, long memoryBytes) {
        public static final Budget DEFAULT = new Budget(Duration.ofSeconds(60), 1L << 30);

        public String describe() {
            return String.format(Locale.ROOT, "%d s in all, %,d MiB of memo per key", time.toSeconds(), memoryBytes >> 20);
        }
    }

    /** The checker's verdict on a history or a key. Files write it by name. */
    public enum Verdict {
        LINEARIZABLE("linearizable", Status.OK), NOT_LINEARIZABLE("not linearizable", Status.FAIL),
        UNKNOWN("unknown", Status.UNKNOWN);

        private final String text;
        private final Status status;

        Verdict(String text, Status status) {
            this.text = text;
            this.status = status;
        }

        public String text() {
            return text;
        }

        /** As a status: OK, FAIL, or UNKNOWN (the budget ran out; nothing failed). */
        public Status status() {
            return status;
        }

        /** By name, or by its text (chaos.json files written before the verdict had a type hold the text). */
        @com.fasterxml.jackson.annotation.JsonCreator
        public static Verdict read(String word) {
            for (Verdict v : values()) {
                if (v.name().equalsIgnoreCase(word) || v.text.equalsIgnoreCase(word)) {
                    return v;
                }
            }
            throw new IllegalArgumentException("unknown linearizability verdict '" + word + "'");
        }
    }

    /** One key's verdict; {@code detail} is the counterexample, or what budget ran out. */
    public record KeyResult(String key, Verdict verdict, int ops, long configurations, double seconds, String detail) {
    }

    /**
     * @param skipped invocations of ops that are not register ops (increments, locks), left to other checkers
     */
    public record Result(Verdict verdict, int ops, int skipped, double seconds, List<KeyResult> keys) {

        /** The first key that is not linearizable (or, failing that, unknown), or null. */
        public KeyResult firstProblem() {
            return keys.stream().filter(k -> k.verdict() == Verdict.NOT_LINEARIZABLE).findFirst()
                    .orElse(keys.stream().filter(k -> k.verdict() == Verdict.UNKNOWN).findFirst().orElse(null));
        }
    }

    private Linearizability() {
    }

    public static Result check(History history, Budget budget) {
        return check(history, budget, System::nanoTime);
    }

    /** @param clock where the budget's time is read, in nanoseconds ({@code System::nanoTime}; a test's own clock) */
    static Result check(History history, Budget budget, LongSupplier clock) {
        long start = clock.getAsLong();
        long end = start + budget.time().toNanos();
        RegisterOp.Split split = RegisterOp.split(history.events());
        List<KeyResult> keys = new ArrayList<>();
        Verdict verdict = Verdict.LINEARIZABLE;
        int ops = 0;
        int left = split.byKey().size();
        for (Map.Entry<String, List<RegisterOp>> e : split.byKey().entrySet()) {
            long now = clock.getAsLong();
            long deadline = now + Math.max(0, end - now) / left--;
            KeyResult r;
            try {
                r = new Search(e.getKey(), e.getValue(), history, deadline, budget, clock).run();
            } catch (OutOfMemoryError oom) {
                // the search (its memo, mostly) is unreachable from here on, so the heap is free again for the next key
                r = new KeyResult(e.getKey(), Verdict.UNKNOWN, e.getValue().size(), 0, (clock.getAsLong() - now) / 1e9,
                        String.format(Locale.ROOT, "the JVM ran out of heap (%,d MiB) before this key was decided; give it"
                                + " more (-Xmx) or a smaller memory budget (%s)", Runtime.getRuntime().maxMemory() >> 20,
                                budget.describe()));
            }
            keys.add(r);
            ops += r.ops();
            if (r.verdict() == Verdict.NOT_LINEARIZABLE) {
                verdict = Verdict.NOT_LINEARIZABLE;
            } else if (r.verdict() == Verdict.UNKNOWN && verdict == Verdict.LINEARIZABLE) {
                verdict = Verdict.UNKNOWN;
            }
        }
        return new Result(verdict, ops, split.skipped(), (clock.getAsLong() - start) / 1e9, keys);
    }

    /** The search on one key. */
    private static final class Search {
        /** How many ops of the deepest point reached are shown before the point where no order exists. */
        private static final int CONTEXT = 4;

        private final String key;
        private final List<RegisterOp> ops;
        private final History history;
        private final long deadline;
        private final Budget budget;
        private final LongSupplier clock;
        private final long start;

        // the list of call and return nodes still to linearize, in time order
        private final Node head = new Node(-1, true, Long.MIN_VALUE);
        private final Node[] calls;
        private final long[] zobrist;
        private final BitSet linearized;
        private final Map<Long, Object> memo = new HashMap<>();
        private long memoBytes;
        private long configurations;

        // the deepest point reached, for a counterexample
        private int deepest = -1;
        private int[] deepestOrder;
        private long deepestState;
        private int blocking;
        private int[] candidates;

        Search(String key, List<RegisterOp> ops, History history, long deadline, Budget budget,
               LongSupplier clock) {
            this.clock = clock;
            this.start = clock.getAsLong();
            this.key = key;
            this.ops = ops;
            this.history = history;
            this.deadline = deadline;
            this.budget = budget;
            this.linearized = new BitSet(ops.size());
            this.zobrist = new long[ops.size()];
            SplittableRandom random = new SplittableRandom(0x9E3779B97F4A7C15L);
            for (int i = 0; i < zobrist.length; i++) {
                zobrist[i] = random.nextLong();
            }
            List<Node> nodes = new ArrayList<>(ops.size() * 2);
            calls = new Node[ops.size()];
            for (RegisterOp op : ops) {
                Node call = new Node(op.id(), true, op.call());
                calls[op.id()] = call;
                Node ret = new Node(op.id(), false, op.ret());
                call.match = ret;
                nodes.add(call);
                nodes.add(ret);
            }
            // by time; at equal times calls first, so that ops that touch are taken as concurrent
            nodes.sort(Comparator.comparingLong((Node n) -> n.time).thenComparing(n -> !n.call));
            Node prev = head;
            for (Node n : nodes) {
                prev.next = n;
                n.prev = prev;
                prev = n;
            }
        }

        KeyResult run() {
            Verdict verdict = search();
            double seconds = (clock.getAsLong() - start) / 1e9;
            String detail = switch (verdict) {
                case LINEARIZABLE -> null;
                case NOT_LINEARIZABLE -> counterexample();
                case UNKNOWN -> String.format(Locale.ROOT, "over the budget (%s) after %,d configurations%s",
                        budget.describe(), configurations, memoBytes > budget.memoryBytes()
                                ? ": memo full" : String.format(Locale.ROOT, ": out of time (this key's share, %.1f s)",
                                (deadline - start) / 1e9));
            };
            return new KeyResult(key, verdict, ops.size(), configurations, seconds, detail);
        }

        private Verdict search() {
            long state = RegisterOp.NIL;
            long hash = 0;
            int[] stackOp = new int[ops.size()];
            long[] stackState = new long[ops.size()];
            int depth = 0;
            Node entry = head.next;
            long steps = 0;
            while (head.next != null) {
                if ((++steps & 0xFFF) == 0 && clock.getAsLong() > deadline) {
                    return Verdict.UNKNOWN;
                }
                if (entry.call) {
                    RegisterOp op = ops.get(entry.id);
                    long next = op.step(state);
                    if (next != RegisterOp.REJECT) {
                        long newHash = hash ^ zobrist[entry.id];
                        if (remember(newHash, next, entry.id)) {
                            configurations++;
                            if (memoBytes > budget.memoryBytes()) {
                                return Verdict.UNKNOWN;
                            }
                            stackOp[depth] = entry.id;
                            stackState[depth] = state;
                            depth++;
                            state = next;
                            hash = newHash;
                            linearized.set(entry.id);
                            lift(entry);
                            entry = head.next;
                            continue;
                        }
                    }
                    entry = entry.next;
                } else {
                    if (depth > deepest) {
                        noteDeepest(entry, stackOp, depth, state);
                    }
                    if (depth == 0) {
                        return Verdict.NOT_LINEARIZABLE;
                    }
                    depth--;
                    int id = stackOp[depth];
                    state = stackState[depth];
                    hash ^= zobrist[id];
                    linearized.clear(id);
                    Node call = calls[id];
                    unlift(call);
                    entry = call.next;
                }
            }
            return Verdict.LINEARIZABLE;
        }

        /** Adds (linearized + id, state) to the memo; false if it was there already. */
        private boolean remember(long setHash, long state, int id) {
            long h = setHash ^ (state * 0xBF58476D1CE4E5B9L);
            Object there = memo.get(h);
            linearized.set(id);
            try {
                if (there == null) {
                    Config c = new Config(state, runs());
                    memo.put(h, c);
                    memoBytes += 96 + 4L * c.runs.length;
                    return true;
                }
                int[] runs = runs();
                if (there instanceof Config c) {
                    if (c.state == state && Arrays.equals(c.runs, runs)) {
                        return false;
                    }
                    List<Config> list = new ArrayList<>(2);
                    list.add(c);
                    list.add(new Config(state, runs));
                    memo.put(h, list);
                    memoBytes += 96 + 4L * runs.length;
                    return true;
                }
                @SuppressWarnings("unchecked")
                List<Config> list = (List<Config>) there;
                for (Config c : list) {
                    if (c.state == state && Arrays.equals(c.runs, runs)) {
                        return false;
                    }
                }
                list.add(new Config(state, runs));
                memoBytes += 48 + 4L * runs.length;
                return true;
            } finally {
                linearized.clear(id);
            }
        }

        /** The linearized set as [start, end) runs of ids. */
        private int[] runs() {
            int[] out = new int[8];
            int n = 0;
            int from = linearized.nextSetBit(0);
            while (from >= 0) {
                int to = linearized.nextClearBit(from);
                if (n + 2 > out.length) {
                    out = Arrays.copyOf(out, out.length * 2);
                }
                out[n++] = from;
                out[n++] = to;
                from = linearized.nextSetBit(to);
            }
            return Arrays.copyOf(out, n);
        }

        private void noteDeepest(Node ret, int[] stackOp, int depth, long state) {
            deepest = depth;
            deepestOrder = Arrays.copyOf(stackOp, depth);
            deepestState = state;
            blocking = ret.id;
            List<Integer> open = new ArrayList<>();
            for (Node n = head.next; n != null && n != ret; n = n.next) {
                if (n.call) {
                    open.add(n.id);
                }
            }
            candidates = open.stream().mapToInt(Integer::intValue).toArray();
        }

        private String counterexample() {
            StringBuilder b = new StringBuilder();
            RegisterOp stuck = ops.get(blocking);
            b.append(String.format(Locale.ROOT, "key %s: %d of %d ops linearize; no order exists before %s (the return of p%d's %s)%n",
                    key.isEmpty() ? "(the register)" : "'" + key + "'", deepest, ops.size(), history.time(stuck.ret()),
                    stuck.process(), stuck.kind().name().toLowerCase(Locale.ROOT)));
            int from = Math.max(0, deepestOrder.length - CONTEXT);
            b.append(from == 0 ? "  linearized, in order:" : "  last linearized, in order:").append('\n');
            if (deepestOrder.length == 0) {
                b.append("    (none: the register is still nil)\n");
            }
            for (int i = from; i < deepestOrder.length; i++) {
                b.append("    ").append(ops.get(deepestOrder[i]).describe(history)).append('\n');
            }
            b.append("  register then holds ").append(RegisterOp.value(deepestState)).append('\n');
            b.append("  ops called by then, none of which can go next:\n");
            for (int id : candidates) {
                RegisterOp op = ops.get(id);
                b.append(id == blocking ? "  > " : "    ").append(op.describe(history)).append('\n');
            }
            return b.toString().stripTrailing();
        }

        private static void lift(Node call) {
            call.prev.next = call.next;
            if (call.next != null) {
                call.next.prev = call.prev;
            }
            Node ret = call.match;
            ret.prev.next = ret.next;
            if (ret.next != null) {
                ret.next.prev = ret.prev;
            }
        }

        private static void unlift(Node call) {
            Node ret = call.match;
            ret.prev.next = ret;
            if (ret.next != null) {
                ret.next.prev = ret;
            }
            call.prev.next = call;
            if (call.next != null) {
                call.next.prev = call;
            }
        }
    }

    private static final class Node {
        final int id;
        final boolean call;
        final long time;
        Node match;
        Node prev;
        Node next;

        Node(int id, boolean call, long time) {
            this.id = id;
            this.call = call;
            this.time = time;
        }
    }

    private record Config(long state, int[] runs) {
    }
}
