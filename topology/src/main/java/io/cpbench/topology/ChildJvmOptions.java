package io.cpbench.topology;

import java.util.Arrays;
import java.util.List;

/**
 * Extra options for every JVM a run starts on this machine besides its own: local members (cp-bench's and stock),
 * members in containers, local agents and A/B workers. They come from {@code CPBENCH_CHILD_JVM_OPTIONS}, options
 * separated by spaces. They go after cp-bench's own options for that JVM (so they win where both set one) and before
 * those a user gives a run for it ({@code ab --base-jvm-arg}).
 *
 * <p>What it is for: the project's integration tests set {@code -XX:TieredStopAtLevel=1 -XX:+UseSerialGC} here (the
 * root POM's {@code test.child.jvm.options}). They check what a run does, not how fast, and on a 2-core machine the
 * C2 compiler and G1's threads of five members and a client are most of the CPU such a test uses: a quick matrix of 13
 * scenarios took 58.6 and 59.5 s of CPU with the defaults, 37.7 and 37.8 s with these (interleaved, idle machine). The
 * tests that measure a cost or a verdict on this machine (the {@code alone} group) run with none. A run with any
 * records them in its environment ({@code childJvmOptions}), since its numbers are not those of the defaults.
 */
public final class ChildJvmOptions {

    /** The variable the options are read from. */
    public static final String VARIABLE = "CPBENCH_CHILD_JVM_OPTIONS";

    private ChildJvmOptions() {
    }

    /** This process's {@code CPBENCH_CHILD_JVM_OPTIONS}, as options; none when it is unset or blank. */
    public static List<String> fromEnvironment() {
        return parse(System.getenv(VARIABLE));
    }

    /**
     * The options in {@code value} (null or blank: none).
     *
     * @throws TopologyException when a word is not a JVM option (each starts with {@code -})
     */
    public static List<String> parse(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        List<String> options = Arrays.stream(value.strip().split("\\s+")).toList();
        for (String option : options) {
            if (!option.startsWith("-") || option.length() < 2) {
                throw new TopologyException(VARIABLE + ": '" + option + "' is not a JVM option (each starts with -,"
                        + " options separated by spaces, e.g. -XX:TieredStopAtLevel=1 -XX:+UseSerialGC)");
            }
        }
        return options;
    }
}
