package io.cpbench.topology;

import com.hazelcast.core.HazelcastInstance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A CP cluster as a user runs it without cp-bench: each member a separate JVM started from the stock Hazelcast
 * jar alone ({@code java -cp hazelcast-5.4.0.jar com.hazelcast.core.server.HazelcastMemberStarter}) with an XML
 * configuration, and no cp-bench class on its classpath. cp-bench attaches to it like to any staging cluster
 * ({@code --topology attach}); the tests and {@code cpbench stock-cluster} start it.
 *
 * <p>Each member runs under a small shell wrapper that kills it when the wrapper's standard input closes, so the
 * members die with the JVM that started them, even after {@code kill -9} of that JVM. {@link #kill} and
 * {@link #pause} act on the member JVM itself.
 */
public final class StockCluster implements StartedMembers {

    /** The main class of the stock jar that starts a member from {@code -Dhazelcast.config}. */
    public static final String STARTER = "com.hazelcast.core.server.HazelcastMemberStarter";
    /** What a stock member logs once it is up (before the CP Subsystem is): "[127.0.0.1]:5801 is STARTED". */
    private static final String STARTED_LINE = " is STARTED";

    /** Whether a stock member's log says it has joined a cluster of {@code members} members. */
    static boolean printedJoined(Path log, int members) {
        return read(log).contains("Members {size:" + members + ","); // "Members {size:3, ver:3} ["
    }

    /** Whether a stock member's log says it is up. */
    public static boolean printedStarted(Path log) {
        return read(log).contains(STARTED_LINE);
    }

    /**
     * @param clusterName       the cluster's name
     * @param members           how many CP members (all of them are CP members)
     * @param basePort          the first member's port, or 0 to pick free ones
     * @param priorityMember    index of the member with leadership priority 1, or -1 for none
     * @param rebalanceSeconds  {@code hazelcast.raft.leadership.rebalance.period}
     * @param metricsSeconds    how often members publish their Raft metrics
     *                          ({@code hazelcast.diagnostics.metrics.period.seconds}, 60 by default); they collect metrics
     *                          every 5 s ({@code hazelcast.metrics.collection.frequency}'s default), or this often if less
     * @param dir               where the XML configurations and member logs go
     * @param jar               the Hazelcast jar the members run ({@link HazelcastRelease#jar()}); null for this
     *                          build's own release ({@link #hazelcastJar()})
     */
    public record Spec(String clusterName, int members, int basePort, int priorityMember, int rebalanceSeconds,
                       int metricsSeconds, Path dir, Path jar) {

        public Spec(String clusterName, int members, int basePort, int priorityMember, int rebalanceSeconds,
                    int metricsSeconds, Path dir) {
            this(clusterName, members, basePort, priorityMember, rebalanceSeconds, metricsSeconds, dir, null);
        }

        public Spec {
            if (members < 3 || members > 9) {
                throw new IllegalArgumentException("members must be 3-9 (a CP group needs at least 3), was " + members);
            }
            if (priorityMember < -1 || priorityMember >= members) {
                throw new IllegalArgumentException("priority member must be 0-" + (members - 1) + ", or -1 for none; was "
                        + priorityMember);
            }
            if (basePort != 0 && (basePort < 1024 || basePort > 65535 - members)) {
                throw new IllegalArgumentException("base port must be 1024-" + (65535 - members) + ", or 0 to pick free ones;"
                        + " was " + basePort);
            }
            if (rebalanceSeconds < 1 || metricsSeconds < 1) {
                throw new IllegalArgumentException("rebalance and metrics periods must be at least 1 s; were "
                        + rebalanceSeconds + " and " + metricsSeconds);
            }
        }

        /** The same cluster, with its configurations and logs in {@code newDir}. */
        public Spec in(Path newDir) {
            return new Spec(clusterName, members, basePort, priorityMember, rebalanceSeconds, metricsSeconds, newDir, jar);
        }

        /** The jar the members run. */
        public Path memberJar() {
            return jar != null ? jar : hazelcastJar();
        }
    }

    private final Spec spec;
    /** The members' classpath: the stock jar, then any jars a user puts beside it (client-lb's, for the leader hint). */
    private final String classpath;
    private final int firstPort;
    private final List<Process> wrappers = new ArrayList<>();
    /** The members' class-data-sharing archive ({@link MemberCds}: the stock jar's classes, mapped). */
    private final MemberCds.Members sharing;
    private final Thread hook = new Thread(() -> stopAll(false), "cpbench-stock-cluster-stop");

    private StockCluster(Spec spec, int firstPort, List<Path> besideHazelcast) {
        this.spec = spec;
        this.firstPort = firstPort;
        List<String> entries = new ArrayList<>(List.of(spec.memberJar().toString()));
        besideHazelcast.forEach(jar -> entries.add(jar.toAbsolutePath().toString()));
        this.classpath = String.join(java.io.File.pathSeparator, entries);
        this.sharing = new MemberCds.Members(classpath);
    }

    /** Starts every member and waits until each has joined a cluster of all of them. */
    public static StockCluster start(Spec spec, java.time.Duration timeout) {
        return start(spec, timeout, List.of());
    }

    /**
     * As {@link #start(Spec, java.time.Duration)}, with {@code besideHazelcast} on each member's classpath after the
     * stock jar, as a user adds a jar of theirs to members they run (the client-lb jar, whose {@code LeaderHint} the
     * leader-aware balancer asks); each must be a jar file.
     */
    public static StockCluster start(Spec spec, java.time.Duration timeout, List<Path> besideHazelcast) {
        for (Path jar : besideHazelcast) {
            if (!Files.isRegularFile(jar) || !jar.getFileName().toString().endsWith(".jar")) {
                throw new IllegalArgumentException("not a jar file, for the members' classpath: " + jar);
            }
        }
        int first = spec.basePort() == 0 ? FreePorts.consecutive(java.util.List.of("127.0.0.1"), spec.members(), 5801) : spec.basePort();
        if (spec.basePort() != 0 && !FreePorts.claimNamed(java.util.List.of("127.0.0.1"), first, spec.members())) {
            throw new TopologyException("ports " + first + "-" + (first + spec.members() - 1) + " on 127.0.0.1 are not all"
                    + " free; choose another base port or 0 to pick free ones");
        }
        StockCluster cluster = new StockCluster(spec, first, besideHazelcast);
        Runtime.getRuntime().addShutdownHook(cluster.hook);
        try {
            cluster.launch();
            cluster.awaitJoined(System.nanoTime() + timeout.toNanos());
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * The stock Hazelcast jar: the one this JVM loaded Hazelcast from when that is Hazelcast's own jar (tests), else
     * the same version in the local Maven repository (the CLI's jar bundles Hazelcast with cp-bench's classes, which
     * is just what a stock member must not have).
     */
    public static Path hazelcastJar() {
        Path loaded;
        try {
            loaded = Path.of(HazelcastInstance.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            throw new TopologyException("cannot locate the Hazelcast jar", e);
        }
        if (loaded.getFileName().toString().startsWith("hazelcast-")) {
            return loaded;
        }
        String version = com.hazelcast.instance.BuildInfoProvider.getBuildInfo().getVersion();
        Path jar = MavenRepositories.local().resolve(Path.of("com", "hazelcast", "hazelcast", version, "hazelcast-" + version + ".jar"));
        if (!Files.isRegularFile(jar)) {
            throw new TopologyException("the stock Hazelcast jar is not at " + jar + "; fetch it with ./mvnw dependency:get"
                    + " -Dartifact=com.hazelcast:hazelcast:" + version);
        }
        return jar;
    }

    public List<String> addresses() {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < spec.members(); i++) {
            addresses.add("127.0.0.1:" + (firstPort + i));
        }
        return addresses;
    }

    public String address(int member) {
        return "127.0.0.1:" + (firstPort + member);
    }

    public Spec spec() {
        return spec;
    }

    /** The member's XML configuration, as a user would write it. */
    String xml(int member) {
        return StockXml.of(MemberSettings.builder(spec.clusterName(), "127.0.0.1", firstPort + member, addresses())
                .priority(member == spec.priorityMember() ? 1 : 0).rebalancePeriodSeconds(spec.rebalanceSeconds())
                .build(), spec.metricsSeconds());
    }

    private void launch() {
        try {
            Files.createDirectories(spec.dir());
        } catch (IOException e) {
            throw new TopologyException("cannot create " + spec.dir() + ": " + e.getMessage(), e);
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String jar = classpath;
        for (int i = 0; i < spec.members(); i++) {
            Path config = spec.dir().resolve("member-" + i + ".xml");
            try {
                Files.writeString(config, xml(i), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new TopologyException("cannot write " + config + ": " + e.getMessage(), e);
            }
            List<String> member = new ArrayList<>(List.of(java));
            member.addAll(sharing.launch(i));
            member.addAll(StockXml.jvmArgs(config.toString(), jar, ChildJvmOptions.fromEnvironment()));
            // The wrapper runs the member in the background and kills it as soon as its own standard input closes;
            // it ends when the member does (a member that cannot bind its port exits at once), so that a start
            // waiting for it sees that at once instead of at its timeout. Ctrl-C in a terminal reaches the whole
            // process group, wrapper and member too: both ignore it (the member inherits the ignored SIGINT, and
            // the JVM then installs no handler of its own), so that the CLI decides when members stop, after it
            // has checked and written what it measured.
            String script = "trap '' INT; " + shellQuote(member) + " & m=$!; trap 'kill -9 $m 2>/dev/null' EXIT;"
                    + " { cat >/dev/null; kill -9 $m 2>/dev/null; } <&0 & wait $m"; // <&0: else bash gives it /dev/null
            ProcessBuilder builder = new ProcessBuilder("bash", "-c", script)
                    .redirectErrorStream(true)
                    .redirectOutput(logFile(i).toFile());
            try {
                wrappers.add(builder.start());
            } catch (IOException e) {
                throw new TopologyException("cannot start stock member " + i + ": " + e.getMessage(), e);
            }
        }
    }

    private static String shellQuote(List<String> words) {
        StringBuilder line = new StringBuilder();
        for (String word : words) {
            line.append(line.isEmpty() ? "" : " ").append('\'').append(word.replace("'", "'\\''")).append('\'');
        }
        return line.toString();
    }

    private void awaitJoined(long deadline) {
        for (int i = 0; i < spec.members(); i++) {
            while (!printedJoined(logFile(i), spec.members())) {
                if (!wrappers.get(i).isAlive()) {
                    throw new TopologyException("stock member " + i + " exited while starting; see " + logFile(i));
                }
                if (System.nanoTime() > deadline) {
                    throw new TopologyException("stock member " + i + " did not join within the time allowed; see " + logFile(i));
                }
                Leadership.sleep(200);
            }
        }
    }

    private String log(int i) {
        return read(logFile(i));
    }

    private static String read(Path log) {
        try {
            // Decoded leniently: a log read while the member writes it can end inside a multibyte character.
            return new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
        } catch (IOException notYet) {
            return "";
        }
    }

    public Path logFile(int i) {
        return spec.dir().resolve("member-" + i + ".log");
    }

    /** The member's own JVM (the wrapper's child). */
    public Optional<ProcessHandle> memberProcess(int i) {
        return wrappers.get(i).children().filter(p -> p.info().command().map(c -> c.endsWith("java")).orElse(true)).findFirst();
    }

    public boolean isAlive(int i) {
        return memberProcess(i).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * Who leads a CP group and in which term, as the members' own logs last said it: Hazelcast logs the group's
     * members with the leader marked each time a member's view of the group changes. An oracle for tests and
     * experiments that needs no client at all; the newest term any member logged wins.
     *
     * @return {@code address@term}, or empty when no member has logged a leader of the group yet
     */
    public Optional<String> leaderInLogs(String group) {
        java.util.regex.Pattern header = java.util.regex.Pattern.compile(
                "CP Group Members \\{groupId: " + java.util.regex.Pattern.quote(group) + "\\(\\d+\\), size:\\d+, term:(\\d+),");
        java.util.regex.Pattern leaderLine = java.util.regex.Pattern.compile("address=\\[([^\\]]+)\\]:(\\d+)\\} - LEADER");
        int bestTerm = -1;
        String best = null;
        for (int i = 0; i < spec.members(); i++) {
            String[] lines = log(i).split("\n");
            for (int k = 0; k < lines.length; k++) {
                java.util.regex.Matcher h = header.matcher(lines[k]);
                if (!h.find()) {
                    continue;
                }
                int term = Integer.parseInt(h.group(1));
                for (int j = k + 1; j < lines.length && !lines[j].startsWith("]"); j++) {
                    java.util.regex.Matcher m = leaderLine.matcher(lines[j]);
                    if (m.find() && term >= bestTerm) {
                        bestTerm = term;
                        best = m.group(1) + ":" + m.group(2);
                    }
                }
            }
        }
        return best == null ? Optional.empty() : Optional.of(best + "@" + bestTerm);
    }

    /** {@code kill -9} of the member JVM, as a crash would. */
    public void kill(int i) {
        memberProcess(i).ifPresent(p -> {
            p.destroyForcibly();
            p.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(t -> null).join();
        });
        sharing.ended(i, false);
    }

    /** SIGSTOP ({@code pause = true}) or SIGCONT of the member JVM. */
    public void pause(int i, boolean pause) {
        long pid = memberProcess(i).orElseThrow(() -> new TopologyException("member " + i + " is not running")).pid();
        try {
            Process signal = new ProcessBuilder("kill", pause ? "-STOP" : "-CONT", Long.toString(pid)).start();
            signal.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new TopologyException("cannot signal member " + i + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void takeOverShutdown() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or has run.
        }
    }

    @Override
    public void close() {
        stopAll(true);
        FreePorts.release(firstPort, spec.members());
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or has run.
        }
    }

    /**
     * Stops every member: SIGKILL, which ends a paused JVM too; but on a normal close ({@code graceful}), a member that
     * writes the class-data-sharing archive gets SIGTERM and up to 30 s first, as the archive is written on exit.
     */
    private synchronized void stopAll(boolean graceful) {
        for (int i = 0; i < wrappers.size(); i++) {
            Optional<ProcessHandle> member = memberProcess(i);
            boolean byItself = false;
            if (graceful && sharing.writes(i) && member.isPresent()) {
                try {
                    pause(i, false); // a stopped JVM cannot act on SIGTERM
                } catch (TopologyException gone) {
                    // It ended meanwhile.
                }
                member.get().destroy();
                byItself = member.get().onExit().completeOnTimeout(null, 30, TimeUnit.SECONDS).join() != null;
            }
            member.ifPresent(ProcessHandle::destroyForcibly);
            wrappers.get(i).destroyForcibly();
            sharing.ended(i, byItself && printedJoined(logFile(i), spec.members()));
        }
        for (Process wrapper : wrappers) {
            try {
                wrapper.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        wrappers.clear();
    }

    @Override
    public String toString() {
        return "stock cluster '" + spec.clusterName() + "' " + addresses() + " (" + spec.memberJar().getFileName() + ")";
    }
}
