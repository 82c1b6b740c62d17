package io.cpbench.bench.agents;

import io.cpbench.core.load.LoadEngine;

import java.net.InetAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The runs an agent process has in progress, so that a stop message, the coordinator leaving or Ctrl-C can stop
 * them: each run's engine stops after its ops in flight (at most its drain), and a run that has not started yet does
 * not start.
 */
final class AgentState {

    private static final Set<Running> RUNNING = ConcurrentHashMap.newKeySet();
    /** The secret of the control cluster this process's agent joined: what opens the messages it acts on. */
    private static volatile ControlSecret secret;
    /** The jobs (run and agent) this agent was sent, with when each came ({@link System#nanoTime()}): a job runs once. */
    private static final java.util.Map<String, Long> JOBS_SEEN = new ConcurrentHashMap<>();

    private AgentState() {
    }

    /** One run on this agent. */
    static final class Running {
        final String run;
        private LoadEngine engine;
        private boolean stopped;

        private Running(String run) {
            this.run = run;
        }

        /** Hands the run its engine; false when it was stopped before (then the engine is not to run). */
        synchronized boolean engine(LoadEngine value) {
            engine = value;
            return !stopped;
        }

        synchronized boolean stopped() {
            return stopped;
        }

        synchronized void stop() {
            stopped = true;
            if (engine != null) {
                engine.stop();
            }
        }
    }

    static void secret(ControlSecret value) {
        secret = value;
    }

    /** {@code text} sealed under this agent's secret, for the coordinator (valid for a message's time). */
    static String seal(String text) {
        return secret.seal(text, ControlCluster.MESSAGE_VALID);
    }

    /** The text of {@code sealed} when it was sealed under this agent's secret and is in time; else null. */
    static String open(String sealed) {
        ControlSecret s = secret;
        return s == null ? null : s.open(sealed);
    }

    /**
     * True the first time a job for {@code run} and {@code agent} comes; false for the same one again (a replay).
     * Jobs seen are forgotten an hour after they came: a sealed job is valid for far less.
     */
    static boolean firstTime(String run, String agent) {
        long now = System.nanoTime();
        JOBS_SEEN.values().removeIf(at -> now - at > java.util.concurrent.TimeUnit.HOURS.toNanos(1));
        return JOBS_SEEN.putIfAbsent(run + " " + agent, now) == null;
    }

    static Running begin(String run) {
        Running r = new Running(run);
        RUNNING.add(r);
        return r;
    }

    static void end(Running r) {
        RUNNING.remove(r);
    }

    /** Stops the run {@code run}, or every run when it is null; returns how many it stopped. */
    static int stop(String run) {
        int n = 0;
        for (Running r : RUNNING) {
            if (run == null || r.run.equals(run)) {
                r.stop();
                n++;
            }
        }
        return n;
    }

    static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
