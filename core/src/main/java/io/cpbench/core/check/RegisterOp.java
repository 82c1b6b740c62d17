package io.cpbench.core.check;

import io.cpbench.core.history.Event;
import io.cpbench.core.history.History;
import io.soabase.recordbuilder.core.RecordBuilder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One op on a read/write/cas register, from an invocation and its completion, and the register's sequential
 * specification ({@link #step}).
 *
 * @param known  whether the outcome is known; an unknown op (info, or never completed) may take effect at any
 *               time after its call, or never, so it returns at {@code Long.MAX_VALUE}
 * @param output a read's value, or for a known cas 1 (it swapped) or 0 (it found another value)
 */
@RecordBuilder
record RegisterOp(int id, long process, Kind kind, long in1, long in2, long output, boolean known, long call, long ret) {

    enum Kind { READ, WRITE, CAS }

    /** The register's value before any write: "does not exist". */
    static final long NIL = Long.MIN_VALUE;

    /** The state after this op runs on {@code state}, or {@code Long.MIN_VALUE + 1} if it cannot run there. */
    static final long REJECT = Long.MIN_VALUE + 1;

    long step(long state) {
        return switch (kind) {
            case READ -> state == output ? state : REJECT;
            case WRITE -> in1;
            case CAS -> {
                if (!known) {
                    yield state == in1 ? in2 : state;
                }
                if (output == 1) {
                    yield state == in1 ? in2 : REJECT;
                }
                yield state != in1 ? state : REJECT;
            }
        };
    }

    /** {@code p3 read -> 2}, {@code p5 write 1 (unknown)}, {@code p7 cas 1->2 failed}. */
    String describe(History history) {
        String what = switch (kind) {
            case READ -> "read -> " + value(output);
            case WRITE -> "write " + value(in1);
            case CAS -> "cas " + value(in1) + "->" + value(in2) + (!known ? "" : output == 1 ? " ok" : " failed");
        };
        return String.format(Locale.ROOT, "p%-4d %-26s called %s, %s", process, what + (known ? "" : " (unknown)"),
                history.time(call), ret == Long.MAX_VALUE ? "outcome unknown" : "returned " + history.time(ret));
    }

    static String value(long v) {
        return v == NIL ? "nil" : Long.toString(v);
    }

    /** What a history gives the checker: its register ops by key, and what it left out. */
    record Split(Map<String, List<RegisterOp>> byKey, int skipped) {
    }

    /**
     * Pairs each invocation with its completion and keeps what constrains the register: ok reads, writes and cas
     * that took or may have taken effect, and cas that failed on the value. Reads that failed or timed out, and
     * writes or cas that certainly did not take effect, constrain nothing and are dropped. Ops other than
     * read, write and cas are counted as skipped.
     */
    static Split split(List<Event> events) {
        Map<String, List<RegisterOp>> byKey = new LinkedHashMap<>();
        Map<Long, Event> open = new HashMap<>();
        Map<String, Integer> ids = new HashMap<>();
        int skipped = 0;
        for (Event e : events) {
            if (!e.registerOp()) {
                if (e.type() == Event.Type.INVOKE) {
                    skipped++;
                }
                continue;
            }
            if (e.type() == Event.Type.INVOKE) {
                open.put(e.process(), e);
                continue;
            }
            Event invoke = open.remove(e.process());
            if (invoke == null) {
                continue;
            }
            add(byKey, ids, invoke, e);
        }
        for (Event invoke : open.values()) {
            add(byKey, ids, invoke, null);
        }
        return new Split(byKey, skipped);
    }

    private static long number(Object value, String what) {
        if (value instanceof Long l) {
            return l;
        }
        throw new IllegalArgumentException(what + " must be a number, not " + value);
    }

    private static void add(Map<String, List<RegisterOp>> byKey, Map<String, Integer> ids, Event invoke, Event done) {
        Event.Type type = done == null ? Event.Type.INFO : done.type();
        String key = Objects.requireNonNullElse(invoke.key(), "");
        Kind kind = Kind.valueOf(invoke.f().toUpperCase(Locale.ROOT));
        long in1 = 0;
        long in2 = 0;
        long output = 0;
        boolean known = type == Event.Type.OK || (type == Event.Type.FAIL && done.error() == null);
        switch (kind) {
            case READ -> {
                if (type != Event.Type.OK) {
                    return; // a read that did not return constrains nothing
                }
                output = done.value() == null ? NIL : number(done.value(), "a read's value");
            }
            case WRITE -> {
                if (type == Event.Type.FAIL) {
                    return;
                }
                in1 = number(invoke.value(), "a write's value");
            }
            case CAS -> {
                if (type == Event.Type.FAIL && done.error() != null) {
                    return;
                }
                List<Long> pair = invoke.pair();
                in1 = pair.get(0);
                in2 = pair.get(1);
                output = type == Event.Type.OK ? 1 : 0;
            }
        }
        List<RegisterOp> ops = byKey.computeIfAbsent(key, k -> new ArrayList<>());
        int id = ids.merge(key, 1, Integer::sum) - 1;
        ops.add(RegisterOpBuilder.builder().id(id).process(invoke.process()).kind(kind).in1(in1).in2(in2)
                .output(output).known(known).call(invoke.time()).ret(known ? done.time() : Long.MAX_VALUE).build());
    }
}
