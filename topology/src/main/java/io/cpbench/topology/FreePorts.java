package io.cpbench.topology;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds a run of consecutive free ports, so a run does not collide with a Hazelcast already on 5701, and claims them
 * so that it does not collide with another cp-bench process that is picking ports at the same moment either.
 *
 * <p>A port that binds now may still be taken before the members bind it: two cp-bench processes started together
 * (two terminals, or a test suite run in parallel JVMs) would both find 5701-5703 free. So each port picked here is
 * also claimed: a lock on the file {@code <port>.lock} in {@code $TMPDIR/cpbench-ports-<user>}, held by this process until
 * {@link #release} (a topology does that when it closes) or until the process ends, when the operating system drops
 * the lock whatever happened. A port that another process has claimed, or that this process holds, counts as taken.
 * Where the directory cannot be used (no rights), or trusted ({@link PrivateDir}: another user could hold every claim),
 * ports are only checked, as before claims existed. The claims are this user's: two users' runs only check each other's.
 */
public final class FreePorts {

    /**
     * {@code $TMPDIR/cpbench-ports-<user>}, when it can be trusted; the lock files are empty and stay (removing one would
     * race with its next user).
     */
    private static Optional<Path> claims;

    /** The claims this process holds, by port. */
    private static final Map<Integer, FileChannel> HELD = new HashMap<>();

    private FreePorts() {
    }

    /**
     * The first run of {@code count} ports from {@code from} that are free on every one of {@code hosts} and claimed by
     * no cp-bench process; claimed for this one until {@link #release}.
     */
    public static int consecutive(List<String> hosts, int count, int from) {
        for (int start = from; start + count < 65535; start += count) {
            if (claimIfFree(hosts, start, count)) {
                return start;
            }
        }
        throw new TopologyException("no " + count + " consecutive free ports on " + String.join(" and ", hosts) + " from " + from);
    }

    /**
     * Claims {@code count} ports from {@code start} for this process when every one is free on each of {@code hosts}
     * and unclaimed; false (and nothing claimed) otherwise.
     */
    public static synchronized boolean claimIfFree(List<String> hosts, int start, int count) {
        return claim(hosts, start, count, false);
    }

    /**
     * For ports a user named (a base port): as {@link #claimIfFree}, except that ports this process holds already count
     * as free, as they were claimed for this (a run that starts several clusters claims all their ports at once).
     */
    public static synchronized boolean claimNamed(List<String> hosts, int start, int count) {
        return claim(hosts, start, count, true);
    }

    private static boolean claim(List<String> hosts, int start, int count, boolean oursAreFree) {
        Map<Integer, FileChannel> taken = new HashMap<>();
        boolean free = true;
        for (int port = start; port < start + count && free; port++) {
            if (oursAreFree && HELD.containsKey(port)) {
                continue;
            }
            Claim claim = claim(port);
            free = claim.got();
            taken.put(port, claim.channel());
        }
        if (free && hosts.stream().allMatch(host -> bindable(host, start, count))) {
            HELD.putAll(taken);
            return true;
        }
        taken.values().forEach(FreePorts::drop);
        return false;
    }

    /** Gives back this process's claim on {@code count} ports from {@code start} (those it holds; others are left). */
    public static synchronized void release(int start, int count) {
        for (int port = start; port < start + count; port++) {
            FileChannel claim = HELD.remove(port);
            if (claim != null) {
                drop(claim);
            }
        }
    }

    /** Whether this process holds a claim on {@code port}. */
    static synchronized boolean held(int port) {
        return HELD.containsKey(port);
    }

    private static boolean bindable(String host, int start, int count) {
        for (int port = start; port < start + count; port++) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(false);
                socket.bind(new InetSocketAddress(InetAddress.getByName(host), port));
            } catch (IOException inUse) {
                return false;
            }
        }
        return true;
    }

    /**
     * A lock on {@code port}'s file, held by an open channel; not got when this or another process holds it. Without a
     * usable claims directory, got with no channel: the port is then only checked by binding it.
     */
    private static Claim claim(int port) {
        if (HELD.containsKey(port)) {
            return new Claim(false, null);
        }
        if (claims == null) {
            claims = PrivateDir.inTmp("ports", "claiming ports across cp-bench processes");
        }
        if (claims.isEmpty()) {
            return new Claim(true, null);
        }
        FileChannel channel;
        try {
            channel = FileChannel.open(claims.get().resolve(port + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | SecurityException noClaims) {
            return new Claim(true, null);
        }
        try {
            FileLock lock = channel.tryLock();
            if (lock != null) {
                return new Claim(true, channel);
            }
        } catch (IOException | OverlappingFileLockException heldHere) {
            // held by this process through another channel, or a lock that cannot be had
        }
        drop(channel);
        return new Claim(false, null);
    }

    /** @param channel holds the lock; null when there is none to hold */
    private record Claim(boolean got, FileChannel channel) {
    }

    /** Closing the channel releases its lock. */
    private static void drop(FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // the lock goes with the process at the latest
        }
    }
}
