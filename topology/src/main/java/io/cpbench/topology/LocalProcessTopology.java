package io.cpbench.topology;

import io.cpbench.topology.net.EmulatedLinks;

import com.hazelcast.core.HazelcastInstance;
import picocli.CommandLine;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Each member in its own JVM, started with {@link MemberLauncher} exactly as the AWS lab starts it. Member
 * output goes to {@code member-N.log} in the spec's log directory. Members die with this JVM: on close, on a
 * shutdown hook (Ctrl-C), and, should this JVM be killed outright, because they exit when their standard
 * input closes.
 */
final class LocalProcessTopology extends StartedTopology {

    private final TopologySpec spec;
    private final List<Process> processes = new ArrayList<>();
    /** The members' class-data-sharing archive ({@link MemberCds}). */
    private final MemberCds.Members sharing;

    private LocalProcessTopology(TopologySpec spec) {
        super(spec, true);
        this.spec = spec;
        this.sharing = new MemberCds.Members(memberClasspath());
    }

    static Topology start(TopologySpec spec) {
        return new LocalProcessTopology(spec).becomeReady(spec);
    }

    @Override
    void startMembers(long deadline) {
        launchAll();
        awaitJoined(deadline);
    }

    private void launchAll() {
        try {
            Files.createDirectories(spec.logDir());
        } catch (IOException e) {
            throw new TopologyException("cannot create member log directory " + spec.logDir() + ": " + e.getMessage(), e);
        }
        for (int i = 0; i < settings().size(); i++) {
            processes.add(launch(i, false));
        }
    }

    /** Starts member {@code i}'s process; a restart appends to its log. */
    private Process launch(int i, boolean again) {
        List<String> jvmOptions = new ArrayList<>(spec.memberJvmOptions());
        jvmOptions.addAll(ChildJvmOptions.fromEnvironment());
        jvmOptions.addAll(sharing.launch(i));
        if (ports().lean()) {
            jvmOptions.add("-Djdk.net.hosts.file=" + hostsFile(i));
        }
        List<String> command = new MemberCommand(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                memberClasspath(), jvmOptions, spec.logDir().resolve("member-" + i + ".gc.log").toString(),
                settings().get(i), true).argv();
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(again ? ProcessBuilder.Redirect.appendTo(logFile(i).toFile())
                        : ProcessBuilder.Redirect.to(logFile(i).toFile()));
        try {
            return builder.start();
        } catch (IOException e) {
            throw new TopologyException("cannot start member process " + i + ": " + e.getMessage(), e);
        }
    }

    /** Writes member {@code i}'s hosts file ({@link EmulatedLinks#hostsFile}) next to its log; returns its path. */
    private Path hostsFile(int i) {
        Path file = spec.logDir().resolve("member-" + i + ".hosts");
        try {
            Files.writeString(file, ports().links().hostsFile(i, settings().size(), spec.host()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new TopologyException("cannot write member " + i + "'s hosts file " + file + ": " + e.getMessage(), e);
        }
        return file.toAbsolutePath();
    }

    /** Signals this topology's member processes (pause, resume). */
    private final ProcessSignals signals = new ProcessSignals();

    @Override
    public Optional<Faults> faults() {
        return Optional.of(faults);
    }

    private final Faults faults = new EmulatedFaults() {
        @Override
        public synchronized void restart(MemberRef member, Duration timeout) {
            int i = member.index();
            if (processes.get(i).isAlive()) {
                throw new IllegalStateException("member " + i + " is running; only a killed member can be restarted");
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            CpRemoval.forget(leadership(), member, members().stream().filter(LocalProcessTopology.this::isAlive).toList(),
                    remaining(deadline));
            long readyBefore = readyLines(i);
            processes.set(i, launch(i, true));
            while (readyLines(i) <= readyBefore) {
                if (!processes.get(i).isAlive()) {
                    throw new TopologyException("member " + i + " exited while restarting; see " + logFile(i) + lastLogLine(i));
                }
                if (System.nanoTime() > deadline) {
                    throw new TopologyException("member " + i + " did not restart within " + timeout.toSeconds() + " s; see " + logFile(i));
                }
                Leadership.sleep(100);
            }
            // Each readmission step waits 30 s at most; on a loaded machine one step once took longer (CI, ChaosIT),
            // and once the admin client's call itself timed out (OperationTimeoutException: a new-machine rehearsal,
            // ChaosIT). The steps can run again (a member already readmitted says so), so retry within the deadline.
            for (int attempt = 1; ; attempt++) {
                try {
                    leadership().runOn(member.address(), new CpReadmission(), remaining(deadline));
                    return;
                } catch (TopologyException e) {
                    boolean stepTimedOut = e.getCause() instanceof java.util.concurrent.TimeoutException
                            || e.getCause() instanceof com.hazelcast.core.OperationTimeoutException;
                    if (!stepTimedOut || attempt >= 3 || remaining(deadline).toSeconds() < 5) {
                        throw e;
                    }
                }
            }
        }

        @Override
        public void pause(MemberRef member, Duration atMost) {
            signals.pause(processes.get(member.index()), atMost);
        }

        @Override
        public void resume(MemberRef member) {
            signals.resume(processes.get(member.index()));
        }

        @Override
        public void slow(MemberRef member, Duration delay) {
            emulatorOrThrow().slowDown(member.index(), delay);
        }

        @Override
        public void unslow() {
            emulatorOrThrow().clear();
        }

        @Override
        public void healAll() {
            signals.resumeAll();
            emulator().ifPresent(e -> {
                e.clear();
                e.heal();
            });
        }

        @Override
        public String method() {
            return "local processes: kill -9, SIGSTOP/SIGCONT; partitions and delays in the per-member TCP proxy";
        }
    };

    private long readyLines(int i) {
        try {
            return Files.readAllLines(logFile(i), StandardCharsets.UTF_8).stream()
                    .filter(l -> l.contains(MemberLauncher.READY_LINE)).count();
        } catch (IOException notYet) {
            return 0;
        }
    }

    /** Member-side classes members get when the caller has them: the leader-aware balancer's hint (client-lb). */
    static final List<String> OPTIONAL_MEMBER_CLASSES = List.of("io.cpbench.lb.LeaderHint");

    /**
     * Just the jars a member needs: this module, Hazelcast and picocli, wherever the caller runs from; and client-lb
     * when the caller has it, so that leader-aware clients can ask the members who leads.
     */
    static String memberClasspath() {
        Set<String> entries = new LinkedHashSet<>();
        List<Class<?>> types = new java.util.ArrayList<>(List.of(MemberLauncher.class, HazelcastInstance.class, CommandLine.class));
        for (String optional : OPTIONAL_MEMBER_CLASSES) {
            try {
                types.add(Class.forName(optional, false, LocalProcessTopology.class.getClassLoader()));
            } catch (ClassNotFoundException absent) {
                // The caller does not use client-lb: members do without it.
            }
        }
        for (Class<?> type : types) {
            try {
                entries.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
            } catch (Exception e) {
                throw new TopologyException("cannot locate the jar of " + type.getName() + " to start members", e);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private void awaitJoined(long deadline) {
        for (int i = 0; i < processes.size(); i++) {
            while (!MemberLauncher.printedReady(logFile(i))) {
                Process process = processes.get(i);
                if (!process.isAlive()) {
                    throw new TopologyException("member " + i + " exited with code " + process.exitValue()
                            + " while starting; see " + logFile(i) + lastLogLine(i));
                }
                if (System.nanoTime() > deadline) {
                    throw new TopologyException("member " + i + " did not start within "
                            + spec.startupTimeout().toSeconds() + " s; see " + logFile(i) + lastLogLine(i));
                }
                Leadership.sleep(200);
            }
        }
    }

    private String lastLogLine(int i) {
        try {
            List<String> lines = Files.readAllLines(logFile(i), StandardCharsets.UTF_8);
            for (int k = lines.size() - 1; k >= 0; k--) {
                if (!lines.get(k).isBlank()) {
                    return " (last line: " + lines.get(k).trim() + ")";
                }
            }
        } catch (IOException ignored) {
            // The log is a hint only.
        }
        return "";
    }

    private Path logFile(int i) {
        return spec.logDir().resolve("member-" + i + ".log");
    }

    @Override
    public String kind() {
        return TopologyKind.LOCAL.label();
    }

    @Override
    public void kill(MemberRef member) {
        Process process = processes.get(member.index());
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sharing.ended(member.index(), false);
    }

    @Override
    public boolean isAlive(MemberRef member) {
        return member.index() < processes.size() && processes.get(member.index()).isAlive();
    }

    @Override
    void stopMembers() {
        signals.resumeAll(); // a stopped process cannot act on SIGTERM
        for (Process process : processes) {
            process.destroy();
        }
        for (int i = 0; i < processes.size(); i++) {
            Process process = processes.get(i);
            // a member that writes the class-data-sharing archive as it exits takes a few seconds more
            boolean byItself = false;
            try {
                byItself = process.waitFor(sharing.writes(i) ? 30 : 5, TimeUnit.SECONDS);
                if (!byItself) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            sharing.ended(i, byItself && readyLines(i) > 0);
        }
    }
}
