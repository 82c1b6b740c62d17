package io.cpbench.topology;

import com.hazelcast.config.Config;
import com.hazelcast.config.cp.RaftAlgorithmConfig;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The member settings a sweep may vary, each a whole number, by cp-bench's name for it. Unset knobs keep Hazelcast's
 * defaults. Every topology that starts members applies them in {@link MemberSettings#toConfig()}; the member launcher
 * gets them as {@code --tune KNOB=VALUE}.
 *
 * @param values knob name to value, in the order given
 */
public record MemberTuning(Map<String, Integer> values) {

    public static final MemberTuning NONE = new MemberTuning(Map.of());

    /** The knobs, with what they set and Hazelcast 5.4's default. */
    public enum Knob {
        OPERATION_THREADS("operation-threads", "hazelcast.operation.thread.count", 1, 64,
                "partition operation threads (default: the core count, at least 2)"),
        GENERIC_THREADS("generic-threads", "hazelcast.operation.generic.thread.count", 1, 64,
                "generic operation threads (default: half the cores, at least 2)"),
        IO_THREADS("io-threads", "hazelcast.io.thread.count", 1, 64, "input and output threads each (default: 3)"),
        UNCOMMITTED_ENTRIES("raft-uncommitted-entries", null, 1, 100_000,
                "RaftAlgorithmConfig.uncommittedEntryCountToRejectNewAppends: the leader refuses new ops past this many"
                        + " uncommitted entries (default: 100)"),
        APPEND_BATCH("raft-append-batch", null, 1, 100_000,
                "RaftAlgorithmConfig.appendRequestMaxEntryCount: most log entries in one append request (default: 100)");

        public final String key;
        final String property;
        final int min;
        final int max;
        public final String description;

        Knob(String key, String property, int min, int max, String description) {
            this.key = key;
            this.property = property;
            this.min = min;
            this.max = max;
            this.description = description;
        }

        static Knob of(String key) {
            for (Knob k : values()) {
                if (k.key.equals(key)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown member setting '" + key + "'; known: " + known());
        }

        public static String known() {
            return java.util.Arrays.stream(values()).map(k -> k.key).collect(Collectors.joining(", "));
        }
    }

    public MemberTuning {
        Map<String, Integer> copy = new LinkedHashMap<>();
        values.forEach((key, value) -> {
            Knob knob = Knob.of(key);
            if (value == null || value < knob.min || value > knob.max) {
                throw new IllegalArgumentException("member setting " + key + " must be " + knob.min + "-" + knob.max + ", was " + value);
            }
            copy.put(key, value);
        });
        values = java.util.Collections.unmodifiableMap(copy);
    }

    /** Parses {@code KNOB=VALUE} items, as {@code --tune} and {@code --member-setting} take them. */
    public static MemberTuning parse(List<String> items) {
        Map<String, Integer> values = new LinkedHashMap<>();
        for (String item : items == null ? List.<String>of() : items) {
            int eq = item.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("member setting '" + item + "' must read KNOB=VALUE, like operation-threads=4;"
                        + " knobs: " + Knob.known());
            }
            String key = item.substring(0, eq).trim();
            Knob.of(key);
            try {
                values.put(key, Integer.parseInt(item.substring(eq + 1).trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("member setting '" + item + "': the value must be a whole number");
            }
        }
        return new MemberTuning(values);
    }

    /** This tuning with {@code other}'s values on top. */
    public MemberTuning with(MemberTuning other) {
        Map<String, Integer> merged = new LinkedHashMap<>(values);
        merged.putAll(other.values);
        return new MemberTuning(merged);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    void apply(Config config) {
        RaftAlgorithmConfig raft = config.getCPSubsystemConfig().getRaftAlgorithmConfig();
        values.forEach((key, value) -> {
            Knob knob = Knob.of(key);
            switch (knob) {
                case UNCOMMITTED_ENTRIES -> raft.setUncommittedEntryCountToRejectNewAppends(value);
                case APPEND_BATCH -> raft.setAppendRequestMaxEntryCount(value);
                default -> config.setProperty(knob.property, Integer.toString(value));
            }
        });
    }

    List<String> toArgs() {
        List<String> args = new ArrayList<>();
        values.forEach((key, value) -> args.addAll(List.of("--tune", key + "=" + value)));
        return args;
    }

    /** {@code operation-threads=4, io-threads=1}, or {@code Hazelcast's defaults}. */
    public String describe() {
        if (values.isEmpty()) {
            return "Hazelcast's defaults";
        }
        return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
    }
}
