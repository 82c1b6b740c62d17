package io.cpbench.topology;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A directory under the shared {@code $TMPDIR} that only this user can write, for what cp-bench keeps between runs:
 * the members' class-data-sharing archives ({@link MemberCds}), which member JVMs map and run, and the port claims
 * ({@link FreePorts}). Another local user who could create or write such a directory could swap an archive (and have
 * the members run their code) or hold every port's claim.
 *
 * <p>Its name carries the user's name ({@code cpbench-cds-alice}); it is created with mode 0700, and used only while it
 * is a directory (not a link to one), owned by this user, with no rights for group or others. Anything else (someone
 * else made it first, or loosened it) turns the feature off for this process, with one line on stderr saying which
 * directory and why; nothing is created in, moved into, or read from it.
 */
final class PrivateDir {

    static final Set<PosixFilePermission> OWNER_ONLY = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);
    /** The directories already refused in this process: each is said once. */
    private static final Set<Path> SAID = ConcurrentHashMap.newKeySet();

    private PrivateDir() {
    }

    /**
     * {@code $TMPDIR/cpbench-<what>-<user>}, created if missing, when it can be trusted; empty (and one line on stderr,
     * once per process) when not. {@code feature} names what is off without it, for that line.
     */
    static Optional<Path> inTmp(String what, String feature) {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "cpbench-" + what + "-" + userPart());
        Optional<String> refused = ensure(dir, currentUser());
        if (refused.isPresent()) {
            if (SAID.add(dir)) {
                System.err.println("cp-bench: " + feature + " off: " + refused.get());
            }
            return Optional.empty();
        }
        return Optional.of(dir);
    }

    /**
     * Creates {@code dir} with mode 0700 if it is missing, then checks it: why it cannot be trusted ({@code dir} named
     * in the sentence), or empty when it is a real directory owned by {@code owner} with rights for the owner alone.
     */
    static Optional<String> ensure(Path dir, UserPrincipal owner) {
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException exists) {
            // checked below, as one made by anyone else would be
        } catch (UnsupportedOperationException notPosix) {
            return Optional.of(dir + " cannot be made private here (no POSIX permissions)");
        } catch (IOException | SecurityException e) {
            return Optional.of(dir + " cannot be created: " + e.getMessage());
        }
        try {
            PosixFileAttributes attributes = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isDirectory()) {
                return Optional.of(dir + " is not a directory" + (attributes.isSymbolicLink() ? " (a symbolic link)" : ""));
            }
            if (owner == null || !owner.equals(attributes.owner())) {
                return Optional.of(dir + " is owned by " + attributes.owner().getName() + ", not "
                        + (owner == null ? "this user" : owner.getName()));
            }
            if (!attributes.permissions().equals(OWNER_ONLY)) {
                return Optional.of(dir + " has mode " + PosixFilePermissions.toString(attributes.permissions())
                        + ", not rwx------ (remove it, or chmod 700 it if it is yours)");
            }
            return Optional.empty();
        } catch (UnsupportedOperationException notPosix) {
            return Optional.of(dir + " cannot be checked here (no POSIX permissions)");
        } catch (IOException | SecurityException e) {
            return Optional.of(dir + " cannot be checked: " + e.getMessage());
        }
    }

    /** This process's user, as the file system names owners; null when it cannot be looked up. */
    static UserPrincipal currentUser() {
        try {
            return Path.of(System.getProperty("java.io.tmpdir")).getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return null;
        }
    }

    /** The user's name as a file name part: letters, digits, '.', '_' and '-' kept, others made '_'. */
    static String userPart() {
        String user = System.getProperty("user.name", "");
        String part = user.replaceAll("[^A-Za-z0-9._-]", "_");
        return part.isEmpty() || part.startsWith(".") ? "u" + part : part;
    }
}
