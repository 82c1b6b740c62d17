package io.cpbench.topology;

import com.hazelcast.config.Config;
import com.hazelcast.config.cp.CPSubsystemConfig;
import com.hazelcast.config.cp.RaftAlgorithmConfig;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The member settings a run may set and a sweep may vary, each a whole number (or true/false for a switch), by
 * cp-bench's name for it. Unset knobs keep Hazelcast's
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
                "RaftAlgorithmConfig.appendRequestMaxEntryCount: most log entries in one append request (default: 100)"),
        /**
         * CPSubsystemConfig.failOnIndeterminateOperationState. False (Hazelcast's default): a member retries a Raft
         * call whose outcome it does not know (its leader died after the call was sent) on the next leader, so an op
         * can be applied twice and acknowledged once: at-least-once. True: it fails the call with
         * IndeterminateOperationStateException instead, and the op is applied at most once.
         */
        FAIL_ON_INDETERMINATE("fail-on-indeterminate-operation-state", null, 0, 1,
                "CPSubsystemConfig.failOnIndeterminateOperationState, true or false: true fails an op whose outcome is"
                        + " unknown after a leader change (at most once) instead of retrying it (at least once)"
                        + " (default: false)"),
        SESSION_TTL("session-ttl-seconds", null, 5, 86_400,
                "CPSubsystemConfig.sessionTimeToLiveSeconds: a CP session (locks, semaphores) without heartbeats ends"
                        + " after this (default: 300)"),
        SESSION_HEARTBEAT("session-heartbeat-seconds", null, 1, 3_600,
                "CPSubsystemConfig.sessionHeartbeatIntervalSeconds: how often a CP session's owner sends heartbeats"
                        + " (default: 5)"),
        MISSING_MEMBER_REMOVAL("missing-member-removal-seconds", null, 0, 86_400,
                "CPSubsystemConfig.missingCPMemberAutoRemovalSeconds: a CP member missing this long is removed from the"
                        + " CP Subsystem, 0 never (default: 14400)");

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

        /** Whether the knob is a switch: given as true or false, kept as 1 or 0. */
        boolean isSwitch() {
            return this == FAIL_ON_INDETERMINATE;
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
            String value = item.substring(eq + 1).trim();
            if (Knob.of(key).isSwitch()) {
                if (!value.equals("true") && !value.equals("false")) {
                    throw new IllegalArgumentException("member setting '" + item + "': the value must be true or false");
                }
                values.put(key, value.equals("true") ? 1 : 0);
                continue;
            }
            try {
                values.put(key, Integer.parseInt(value));
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
        CPSubsystemConfig cp = config.getCPSubsystemConfig();
        RaftAlgorithmConfig raft = cp.getRaftAlgorithmConfig();
        values.forEach((key, value) -> {
            Knob knob = Knob.of(key);
            switch (knob) {
                case UNCOMMITTED_ENTRIES -> raft.setUncommittedEntryCountToRejectNewAppends(value);
                case APPEND_BATCH -> raft.setAppendRequestMaxEntryCount(value);
                case FAIL_ON_INDETERMINATE -> cp.setFailOnIndeterminateOperationState(value == 1);
                case SESSION_TTL -> cp.setSessionTimeToLiveSeconds(value);
                case SESSION_HEARTBEAT -> cp.setSessionHeartbeatIntervalSeconds(value);
                case MISSING_MEMBER_REMOVAL -> cp.setMissingCPMemberAutoRemovalSeconds(value);
                default -> config.setProperty(knob.property, Integer.toString(value));
            }
        });
    }

    List<String> toArgs() {
        List<String> args = new ArrayList<>();
        values.forEach((key, value) -> args.addAll(List.of("--tune", key + "=" + shown(key, value))));
        return args;
    }

    /** {@code operation-threads=4, io-threads=1}, or {@code Hazelcast's defaults}. */
    public String describe() {
        if (values.isEmpty()) {
            return "Hazelcast's defaults";
        }
        return values.entrySet().stream().map(e -> e.getKey() + "=" + shown(e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }

    /** Whether ops are applied at most once: {@code fail-on-indeterminate-operation-state=true} was set. */
    public boolean atMostOnce() {
        return values.getOrDefault(Knob.FAIL_ON_INDETERMINATE.key, 0) == 1;
    }

    private static String shown(String key, int value) {
        return Knob.of(key).isSwitch() ? Boolean.toString(value == 1) : Integer.toString(value);
    }
}
