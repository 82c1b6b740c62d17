package io.cpbench.bench.agents;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * The secret that a coordinator and its agents share, and that nobody else has: 32 random bytes, kept as 64 hex digits
 * in a file that only its owner may read. It is handed to an agent as that file's path ({@code --secret-file}), never
 * as a value on a command line, which {@code ps} shows to every user of the host.
 *
 * <p>What it protects: the control cluster's name is derived from it ({@link #clusterName()}), and open-source
 * Hazelcast refuses a member whose cluster name differs, so a party without the secret cannot join the control
 * cluster, list its members, run a task on an agent or publish a stop. The control cluster takes no client
 * connections at all ({@link ControlCluster}). What it does not: the name travels in clear in each member's join
 * request (open-source Hazelcast has no TLS), so whoever can read the control traffic on the wire learns it. The name
 * is never printed, and the control members' log lines leave it out.
 *
 * <p>So that the name alone opens nothing, every message that drives an agent is sealed ({@link #seal}): a job, the
 * start instant, a stop, a ready word. A seal is an HMAC-SHA256 under the secret over the text and a deadline; an
 * agent acts on a message only when it opens ({@link #open}) under its own secret before its deadline, and runs a
 * job's (run, agent) only once, so a job read off the wire and sent again is refused too.
 */
public final class ControlSecret {

    /** Where {@code cpbench agent} and {@code --agent-hosts} look when no file is named. */
    public static final Path DEFAULT_FILE = Path.of(System.getProperty("user.home"), ".cpbench", "control.secret");

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final int BYTES = 32;

    private final byte[] key;

    private ControlSecret(byte[] key) {
        this.key = key.clone();
    }

    /** A new secret, from the JDK's strong random source. */
    public static ControlSecret generate() {
        byte[] key = new byte[BYTES];
        new SecureRandom().nextBytes(key);
        return new ControlSecret(key);
    }

    /**
     * Writes the secret to {@code file}, readable and writable by its owner only (made so before a byte is written);
     * an existing file is replaced.
     */
    public void writeTo(Path file) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path partial = dir.resolve(file.getFileName() + ".partial-" + ProcessHandle.current().pid());
            Files.deleteIfExists(partial);
            Files.createFile(partial, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            Files.writeString(partial, HexFormat.of().formatHex(key) + "\n");
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException e) {
            throw new IllegalStateException("cannot write the control secret to " + file + ": a partial file is in the way", e);
        } catch (IOException | UnsupportedOperationException e) {
            throw new IllegalStateException("cannot write the control secret to " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads the secret at {@code file}.
     *
     * @throws IllegalArgumentException (one line) when it is missing, unreadable, readable by others than its owner,
     *                                  or not a secret this writes
     */
    public static ControlSecret read(Path file) {
        String text;
        try {
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
            if (mode.stream().anyMatch(p -> !OWNER_ONLY.contains(p) && p != PosixFilePermission.OWNER_EXECUTE)) {
                throw new IllegalArgumentException("the control secret " + file + " may be read by others (mode "
                        + PosixFilePermissions.toString(mode) + "); make it its owner's alone: chmod 600 " + file);
            }
            text = Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no control secret at " + file + ": make one with 'cpbench agent"
                    + " --new-secret" + (file.equals(DEFAULT_FILE) ? "" : " --secret-file " + file) + "' and copy it to"
                    + " every agent host and the coordinator's (owner-only, as made)");
        } catch (AccessDeniedException e) {
            throw new IllegalArgumentException("cannot read the control secret " + file + ": permission denied");
        } catch (IOException | UnsupportedOperationException e) {
            throw new IllegalArgumentException("cannot read the control secret " + file + ": " + e.getMessage());
        }
        if (!text.matches("[0-9a-f]{" + 2 * BYTES + "}")) {
            throw new IllegalArgumentException(file + " does not hold a control secret (" + 2 * BYTES
                    + " hex digits, as 'cpbench agent --new-secret' writes)");
        }
        return new ControlSecret(HexFormat.of().parseHex(text));
    }

    /**
     * The control cluster's name: {@code cpbench-control-} and 128 bits of an HMAC-SHA256 of a fixed label under the
     * secret. Whoever has it can join; it is never printed.
     */
    public String clusterName() {
        return "cpbench-control-" + HexFormat.of().formatHex(mac("cp-bench control cluster name")).substring(0, 32);
    }

    /** {@code text}, valid for {@code validFor} from now (on this host's clock), and its seal. */
    public String seal(String text, Duration validFor) {
        String body = text + "|" + (nowMicros() + validFor.toNanos() / 1000);
        return body + "|" + HexFormat.of().formatHex(mac(SEAL_LABEL + body));
    }

    /**
     * The text of a message that {@link #seal} made under this secret; null when it was made under another, was
     * changed, or is past its deadline. The seal is compared in constant time.
     */
    public String open(String sealed) {
        if (sealed == null) {
            return null;
        }
        int last = sealed.lastIndexOf('|');
        int mid = last < 0 ? -1 : sealed.lastIndexOf('|', last - 1);
        if (mid < 0) {
            return null;
        }
        String body = sealed.substring(0, last);
        byte[] expected = HexFormat.of().formatHex(mac(SEAL_LABEL + body)).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, sealed.substring(last + 1).getBytes(StandardCharsets.US_ASCII))) {
            return null;
        }
        try {
            return nowMicros() <= Long.parseLong(body.substring(mid + 1)) ? body.substring(0, mid) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static final String SEAL_LABEL = "cp-bench control message\n";

    private static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    private byte[] mac(String label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(label.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }

    /** Never the secret. */
    @Override
    public String toString() {
        return "control secret";
    }
}
