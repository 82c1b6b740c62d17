package io.cpbench.topology;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * SSH host keys pinned from an EC2 instance's console output, for the AWS lab: the known_hosts lines that let
 * {@code ssh -o StrictHostKeyChecking=yes} refuse any host that is not the instance Terraform made.
 *
 * <p>On its first boot, cloud-init (Debian's images run it) prints the host's public keys to the serial console
 * between {@value #BEGIN} and {@value #END} (its {@code keys_to_console} module). The console output comes from
 * the EC2 API ({@code aws ec2 get-console-output}), not over the network path to the host, so a man in the middle
 * of the SSH connection cannot choose it. No private key is in any user data.
 */
public final class HostKeys {

    public static final String BEGIN = "-----BEGIN SSH HOST KEY KEYS-----";
    public static final String END = "-----END SSH HOST KEY KEYS-----";

    /** Key types OpenSSH offers as host keys; anything else in the block is refused. */
    private static final Set<String> TYPES = Set.of("ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
            "ecdsa-sha2-nistp521", "ssh-rsa");
    private static final Pattern INSTANCE_ID = Pattern.compile("i-(?:[0-9a-f]{8}|[0-9a-f]{17})");

    private HostKeys() {
    }

    /** One host's public key: its type and its base64 blob (checked: it decodes, and names the same type). */
    public record Key(String type, String base64) {
    }

    /** @throws IllegalArgumentException (one line) unless {@code id} is an EC2 instance ID */
    public static void checkInstanceId(String what, String id) {
        if (id == null || !INSTANCE_ID.matcher(id).matches()) {
            throw new IllegalArgumentException(what + " '" + String.valueOf(id).replaceAll("\\p{Cntrl}", "?")
                    + "' is not an EC2 instance ID (i- and 8 or 17 hex digits)");
        }
    }

    /**
     * The host keys in one console output. The last block counts (a reboot prints it again).
     *
     * @param host names the host in errors: "member-2 (i-0abc..., 10.42.2.13)"
     * @throws IllegalArgumentException (one line) when there is no complete block yet, or a line in it is not a key
     */
    public static List<Key> fromConsole(String host, String console) {
        int begin = console.lastIndexOf(BEGIN);
        int end = begin < 0 ? -1 : console.indexOf(END, begin);
        if (begin < 0 || end < 0) {
            throw new IllegalArgumentException(host + ": its console output has no SSH host keys yet (cloud-init prints"
                    + " them at the end of the instance's first boot)");
        }
        List<Key> keys = new ArrayList<>();
        for (String raw : console.substring(begin + BEGIN.length(), end).split("\\R")) {
            // The console may prefix lines with a timestamp or "ec2: ": the key is from its type on.
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            int at = -1;
            for (String type : TYPES) {
                int i = line.indexOf(type + " ");
                if (i >= 0 && (at < 0 || i < at)) {
                    at = i;
                }
            }
            if (at < 0) {
                throw new IllegalArgumentException(host + ": a line in its console's host key block is not a host key: '"
                        + abbreviate(line) + "'");
            }
            String[] fields = line.substring(at).split("\\s+");
            keys.add(checked(host, fields[0], fields.length > 1 ? fields[1] : ""));
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException(host + ": its console's host key block is empty");
        }
        return List.copyOf(keys);
    }

    /** known_hosts lines: each key for every one of the host's addresses (already checked by the caller). */
    public static List<String> knownHostsLines(List<String> addresses, List<Key> keys) {
        String names = String.join(",", addresses);
        return keys.stream().map(k -> names + " " + k.type() + " " + k.base64()).toList();
    }

    private static Key checked(String host, String type, String base64) {
        byte[] blob;
        try {
            blob = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(host + ": its console lists a " + type + " host key that is not base64");
        }
        // An OpenSSH public key blob starts with its type as a length-prefixed string.
        String inBlob = blob.length < 4 ? "" : new String(blob, 4, Math.min(blob.length - 4,
                Math.max(0, ((blob[0] & 0xff) << 24) | ((blob[1] & 0xff) << 16) | ((blob[2] & 0xff) << 8) | (blob[3] & 0xff))),
                java.nio.charset.StandardCharsets.US_ASCII);
        if (!inBlob.equals(type)) {
            throw new IllegalArgumentException(host + ": its console lists a " + type + " host key whose blob says '"
                    + abbreviate(inBlob) + "'");
        }
        return new Key(type, base64);
    }

    private static String abbreviate(String text) {
        String clean = text.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > 60 ? clean.substring(0, 60) + "..." : clean;
    }
}
