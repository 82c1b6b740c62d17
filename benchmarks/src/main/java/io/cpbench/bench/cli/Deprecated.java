package io.cpbench.bench.cli;

import java.util.Set;

/** The one line an old spelling prints, once per process and spelling: it still works, and says what replaced it. */
final class Deprecated {

    private static final Set<String> WARNED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private Deprecated() {
    }

    static void spelling(String command, String old, String now) {
        if (WARNED.add(command + " " + old)) {
            System.err.printf("cpbench %s: %s is deprecated; use %s%n", command, old, now);
        }
    }

    /** For tests: forget what was warned about. */
    static void reset() {
        WARNED.clear();
    }
}
