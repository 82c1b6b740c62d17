package io.cpbench.core.history;

import java.util.List;
import java.util.Locale;

/**
 * One line of a history: an op's invocation or its completion, as Jepsen records them.
 *
 * @param process the client process (client and thread); a process runs one op at a time, and after an
 *                {@link Type#INFO} completion it is never used again
 * @param type    invoke, ok, fail or info
 * @param f       the op: {@code read}, {@code write}, {@code cas}, {@code increment}, ...
 * @param key     the object the op acts on ({@code null} for a single-register history)
 * @param value   {@code null} (a read's invocation, or a read of "nothing"), a {@code Long}, or for {@code cas}
 *                a two-element {@code List<Long>} [from, to]
 * @param time    nanoseconds since the history began; for a Jepsen log, the line number
 * @param error   why a {@code fail} or {@code info} completion ended so, or null. A {@code cas} that fails with no
 *                error found the register not holding {@code from}; one with an error certainly did not take effect
 */
public record Event(long process, Type type, String f, String key, Object value, long time, String error) {

    public enum Type {
        INVOKE, OK, FAIL, INFO;

        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** @throws IllegalArgumentException for anything but invoke, ok, fail, info */
        public static Type of(String text) {
            for (Type t : values()) {
                if (t.key().equals(text)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("unknown event type '" + text + "' (expected invoke, ok, fail or info)");
        }
    }

    public Event {
        if (type == null || f == null || f.isBlank()) {
            throw new IllegalArgumentException("an event needs a type and an op");
        }
        if (value != null && !(value instanceof Long) && !(value instanceof List<?>)) {
            throw new IllegalArgumentException("an event's value is null, a number or [from, to], not " + value);
        }
    }

    public static Event invoke(long process, String f, String key, Object value, long time) {
        return new Event(process, Type.INVOKE, f, key, value, time, null);
    }

    /** Whether this is a read, write or cas: an op of a register, which the linearizability checker reads. */
    public boolean registerOp() {
        return f.equals("read") || f.equals("write") || f.equals("cas");
    }

    public boolean completion() {
        return type != Type.INVOKE;
    }

    /** {@code [from, to]} of a cas. */
    @SuppressWarnings("unchecked")
    public List<Long> pair() {
        if (!(value instanceof List<?> list) || list.size() != 2) {
            throw new IllegalArgumentException("a cas takes [from, to], not " + value);
        }
        return (List<Long>) list;
    }
}
