package io.cpbench.topology;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Pauses and resumes member processes with SIGSTOP and SIGCONT ({@code kill}; Java sends neither). Each pause
 * also starts a detached watchdog ({@code setsid sh -c 'sleep N; kill -CONT pid'}) that resumes the member after
 * the pause's longest allowed time even if this JVM dies meanwhile: a member must never stay stopped, and a
 * stopped member cannot notice that its parent is gone.
 */
final class ProcessSignals {

    private static final Duration WATCHDOG_MARGIN = Duration.ofSeconds(5);

    /** Paused pids and the watchdog of each. */
    private final Map<Long, Process> paused = new ConcurrentHashMap<>();

    void pause(Process member, Duration atMost) {
        if (!member.isAlive()) {
            throw new IllegalStateException("cannot pause process " + member.pid() + ": it is not running");
        }
        long pid = member.pid();
        long seconds = Math.max(1, atMost.plus(WATCHDOG_MARGIN).toSeconds());
        Process watchdog;
        try {
            watchdog = new ProcessBuilder("setsid", "sh", "-c", "sleep " + seconds + "; kill -CONT " + pid + " 2>/dev/null")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (java.io.IOException e) {
            throw new TopologyException("cannot start the pause watchdog (setsid, sh): " + e.getMessage(), e);
        }
        Process previous = paused.put(pid, watchdog);
        if (previous != null) {
            stopWatchdog(previous);
        }
        signal("STOP", pid);
    }

    void resume(Process member) {
        long pid = member.pid();
        signal("CONT", pid);
        Process watchdog = paused.remove(pid);
        if (watchdog != null) {
            stopWatchdog(watchdog);
        }
    }

    /** Resumes every paused process; never throws. */
    void resumeAll() {
        for (Long pid : paused.keySet()) {
            try {
                signal("CONT", pid);
            } catch (RuntimeException e) {
                // gone already
            }
            Process watchdog = paused.remove(pid);
            if (watchdog != null) {
                stopWatchdog(watchdog);
            }
        }
    }

    private static void stopWatchdog(Process watchdog) {
        watchdog.descendants().forEach(ProcessHandle::destroyForcibly);
        watchdog.destroyForcibly();
    }

    private static void signal(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new TopologyException("kill -" + signal + " " + pid + " did not return within 5 s");
            }
            if (kill.exitValue() != 0) {
                throw new TopologyException("kill -" + signal + " " + pid + " failed: "
                        + new String(kill.getInputStream().readAllBytes()).trim());
            }
        } catch (java.io.IOException e) {
            throw new TopologyException("cannot run kill: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopologyException("interrupted while sending SIG" + signal + " to " + pid);
        }
    }
}
