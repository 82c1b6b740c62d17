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
    /** The jobs (run and agent) this agent was sent, with when each came (epoch ms): a job runs once. */
    private static final java.util.Map<String, Long> JOBS_SEEN = new ConcurrentHashMap<>();
    /** How long a job is remembered: a sealed job is valid for 60 s, so this is far more than a replay could use. */
    private static final long JOB_MEMORY_MS = java.util.concurrent.TimeUnit.HOURS.toMillis(1);
    /** Where the jobs seen are kept across this agent's restarts (null: in memory only). */
    private static volatile java.nio.file.Path seenFile;
    /** This agent's name and its control member's UUID: what a job, a challenge and a report are bound to. */
    private static volatile String name;
    private static volatile java.util.UUID self;

    private AgentState() {
    }

    /** One run on this agent. */
    static final class Running {
        final String run;
        /** The control member that sent the run's job: the one whose leaving stops it. */
        final java.util.UUID coordinator;
        private LoadEngine engine;
        private boolean stopped;

        private Running(String run, java.util.UUID coordinator) {
            this.run = run;
            this.coordinator = coordinator;
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

    /** This agent: its name and its control member's UUID. */
    static void identity(String agentName, java.util.UUID member) {
        name = agentName;
        self = member;
    }

    static String name() {
        return name;
    }

    static java.util.UUID self() {
        return self;
    }

    /**
     * Keeps the jobs seen in {@code file} (created owner-only), so that a job replayed to this agent after it
     * restarted is refused as well; the jobs it lists from the last hour are read back now.
     */
    static void rememberJobsIn(java.nio.file.Path file) {
        seenFile = file;
        long now = System.currentTimeMillis();
        try {
            if (java.nio.file.Files.isRegularFile(file)) {
                for (String line : java.nio.file.Files.readAllLines(file)) {
                    String[] parts = line.split(" ");
                    if (parts.length == 3 && parts[2].matches("\\d{1,19}") && now - Long.parseLong(parts[2]) < JOB_MEMORY_MS) {
                        JOBS_SEEN.putIfAbsent(parts[0] + " " + parts[1], Long.parseLong(parts[2]));
                    }
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            System.out.println("cannot read the jobs this agent ran before from " + file + " (" + e.getMessage()
                    + "): a job replayed across its restart would not be known");
        }
    }

    /** {@code text} sealed under this agent's secret, for the coordinator (valid for a message's time). */
    static String seal(String text) {
        return seal(text, ControlCluster.MESSAGE_VALID);
    }

    static String seal(String text, java.time.Duration valid) {
        return secret.seal(text, valid);
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
        long now = System.currentTimeMillis();
        JOBS_SEEN.values().removeIf(at -> now - at > JOB_MEMORY_MS);
        if (JOBS_SEEN.putIfAbsent(run + " " + agent, now) != null) {
            return false;
        }
        java.nio.file.Path file = seenFile;
        if (file != null && run.matches("[A-Za-z0-9-]{1,64}") && agent.matches("\\S{1,128}")) {
            synchronized (JOBS_SEEN) {
                try {
                    if (!java.nio.file.Files.exists(file)) {
                        java.nio.file.Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
                    }
                    java.nio.file.Files.writeString(file, run + " " + agent + " " + now + "\n",
                            java.nio.file.StandardOpenOption.APPEND);
                } catch (java.io.IOException | UnsupportedOperationException e) {
                    // kept in memory all the same: only a replay across a restart would go unseen
                }
            }
        }
        return true;
    }

    /** As a restarted agent's memory is: empty, and kept nowhere (tests). */
    static void forgetJobsForTest() {
        JOBS_SEEN.clear();
        seenFile = null;
    }

    static Running begin(String run, java.util.UUID coordinator) {
        Running r = new Running(run, coordinator);
        RUNNING.add(r);
        return r;
    }

    /** Stops the runs {@code member} sent (its leaving stops them); returns how many. */
    static int stopFrom(java.util.UUID member) {
        return stop(r -> member.equals(r.coordinator));
    }

    static void end(Running r) {
        RUNNING.remove(r);
    }

    /** Stops the run {@code run}, or every run when it is null; returns how many it stopped. */
    static int stop(String run) {
        return stop(r -> run == null || r.run.equals(run));
    }

    private static int stop(java.util.function.Predicate<Running> which) {
        int n = 0;
        for (Running r : RUNNING) {
            if (which.test(r)) {
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
