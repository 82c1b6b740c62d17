package io.cpbench.topology;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A class-data-sharing archive for local member JVMs (JDK's AppCDS, a dynamic archive), cp-bench's members and stock
 * members alike: one per member classpath and JDK. Starting a member on a 2-core machine is mostly loading and
 * verifying Hazelcast's classes; from the archive they are mapped, already parsed and verified. Measured here, three members started together, interleaved: 8.8-10.7 s to
 * ready without it, 5.9-7.0 s with it (a busy 2-core VM). It changes how classes are loaded, not the code that runs.
 *
 * <p>The first member started on a classpath that has no archive yet writes one when it exits
 * ({@code -XX:ArchiveClassesAtExit}, on a normal exit or SIGTERM, not after kill -9) under a name of its own; the
 * archive is moved into place only after that member has ended by itself, and only if it got as far as ready (one
 * that failed at start loaded few classes), so no member maps a half-written or thin archive.
 * Archives live in {@code $TMPDIR/cpbench-cds-<user>} ({@link PrivateDir}: mode 0700, this user's, else no archives
 * are used or written, as a member maps and runs what is there), named by a hash of the JDK and every classpath jar's path, size and
 * modification time: a rebuilt jar gets a new archive, and a stale one is never offered. A classpath with a directory
 * in it (a module's {@code target/classes}) gets none: the JDK archives classes from jars only. Should the JDK refuse an
 * archive all the same, the member starts without it; its CDS warnings are turned off, as they would end in the
 * member's log as noise. {@code CPBENCH_MEMBER_CDS=off} turns all of this off.
 */
final class MemberCds {

    /** Archives made and being made, by archive path: in this JVM, one member at a time writes a given archive. */
    private static final Map<Path, Boolean> WRITING = new ConcurrentHashMap<>();
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

    private final Path archive;

    private MemberCds(Path archive) {
        this.archive = archive;
    }

    /** The archive for members started with {@code classpath} by this JDK; empty when there can be none. */
    static Optional<MemberCds> forClasspath(String classpath) {
        if ("off".equalsIgnoreCase(System.getenv("CPBENCH_MEMBER_CDS"))) {
            return Optional.empty();
        }
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update((System.getProperty("java.home") + "\n" + System.getProperty("java.vm.version") + "\n"
                    + String.join(" ", MemberCommand.HAZELCAST_JVM_FLAGS) + "\n").getBytes(StandardCharsets.UTF_8));
            for (String entry : classpath.split(File.pathSeparator)) {
                Path jar = Path.of(entry).toAbsolutePath();
                if (!Files.isRegularFile(jar)) {
                    return Optional.empty();
                }
                digest.update((jar + " " + Files.size(jar) + " " + Files.getLastModifiedTime(jar).toMillis() + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            String name = "member-" + HexFormat.of().formatHex(digest.digest(), 0, 12) + ".jsa";
            return PrivateDir.inTmp("cds", "the members' class-data-sharing archives")
                    .map(dir -> new MemberCds(dir.resolve(name)));
        } catch (IOException | NoSuchAlgorithmException e) {
            return Optional.empty();
        }
    }

    /**
     * The JVM options for the next member: the archive when it exists; otherwise, for one member at a time, those that
     * write it (call {@link Launch#ended} when that member has ended); otherwise none.
     */
    Launch nextLaunch() {
        if (Files.isRegularFile(archive)) {
            return new Launch(quietly("-XX:SharedArchiveFile=" + archive), null);
        }
        if (WRITING.putIfAbsent(archive, Boolean.TRUE) != null) {
            return new Launch(List.of(), null);
        }
        try {
            removeAbandoned(archive.getParent());
        } catch (IOException e) {
            WRITING.remove(archive);
            return new Launch(List.of(), null);
        }
        Path partial = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + "-"
                + COUNTER.incrementAndGet() + ".partial");
        return new Launch(quietly("-XX:ArchiveClassesAtExit=" + partial), partial);
    }

    /** {@code option}, then the options that keep the JDK's CDS warnings out of the member's log. */
    private static List<String> quietly(String option) {
        List<String> options = new ArrayList<>(List.of(option));
        options.addAll(QUIET);
        return options;
    }

    /** Removes partial archives that a member left an hour ago or more (its parent was killed before moving it). */
    private static void removeAbandoned(Path dir) throws IOException {
        long hourAgo = System.currentTimeMillis() - 3_600_000L;
        try (var files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".partial")).toList()) {
                try {
                    if (Files.getLastModifiedTime(file).toMillis() < hourAgo) {
                        Files.deleteIfExists(file);
                    }
                } catch (IOException gone) {
                    // Another process removed or moved it.
                }
            }
        }
    }

    /**
     * One cluster's members and the archive: what each member is started with, and, when it has ended, whether the
     * archive it may have written is kept. By member index; a restarted member gets a new launch.
     */
    static final class Members {
        private final Optional<MemberCds> cds;
        private final List<Launch> launches = new ArrayList<>();

        /** For members started with {@code classpath} (none when it cannot have an archive, or they are off). */
        Members(String classpath) {
            this.cds = forClasspath(classpath);
        }

        /** The JVM options for starting (or restarting) member {@code i}. */
        synchronized List<String> launch(int i) {
            Launch launch = cds.map(MemberCds::nextLaunch).orElse(null);
            while (launches.size() <= i) {
                launches.add(null);
            }
            launches.set(i, launch);
            return launch == null ? List.of() : launch.jvmOptions();
        }

        /** Whether member {@code i} writes the archive as it exits (give it time to). */
        synchronized boolean writes(int i) {
            return i < launches.size() && launches.get(i) != null && launches.get(i).writes();
        }

        /**
         * Member {@code i} has ended; {@code whole}: on its own or on SIGTERM, not killed, and after it got as far as
         * ready (one that failed at start loaded few classes), so that what it wrote is worth keeping.
         */
        synchronized void ended(int i, boolean whole) {
            Launch launch = i < launches.size() ? launches.get(i) : null;
            if (launch != null) {
                launch.ended(whole);
                launches.set(i, null);
            }
        }
    }

    /** What one member is started with, and what to do when it has ended. */
    final class Launch {
        private final List<String> options;
        private final Path partial;

        private Launch(List<String> options, Path partial) {
            this.options = List.copyOf(options);
            this.partial = partial;
        }

        List<String> jvmOptions() {
            return options;
        }

        /** Whether this member writes the archive when it exits (give it time to). */
        boolean writes() {
            return partial != null;
        }

        /**
         * The member has ended: {@code byItself} when it exited on its own or on SIGTERM (so the archive it wrote is
         * whole), false when it was killed. Moves a whole archive into place; removes anything else it left.
         */
        void ended(boolean byItself) {
            if (partial == null) {
                return;
            }
            try {
                if (byItself && Files.isRegularFile(partial) && Files.size(partial) > 0) {
                    try {
                        Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    } catch (AtomicMoveNotSupportedException e) {
                        Files.move(partial, archive, StandardCopyOption.REPLACE_EXISTING);
                    }
                } else {
                    Files.deleteIfExists(partial);
                }
            } catch (IOException e) {
                // No archive this time: the next start writes one.
            } finally {
                WRITING.remove(archive);
            }
        }
    }
}
