package io.cpbench.bench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The TCP sockets that processes listen on, read as {@code ss -ltnp} reads them: the LISTEN rows of
 * {@code /proc/net/tcp} and {@code /proc/net/tcp6} by socket inode, and each process's {@code fd} links to those
 * inodes. An address is written {@code 127.0.0.1:5701}, {@code 0.0.0.0:5801} or {@code [::]:5801}.
 */
final class ListeningSockets {

    private ListeningSockets() {
    }

    /** A listening socket and the process that holds it. */
    record Listener(long pid, String command, String address) {
        /** Listening on every interface: 0.0.0.0 or ::. */
        boolean wildcard() {
            return address.startsWith("0.0.0.0:") || address.startsWith("[::]:");
        }
    }

    /** The listening sockets held by {@code processes} now (a process that ended meanwhile holds none). */
    static List<Listener> of(List<ProcessHandle> processes) throws IOException {
        Map<String, String> byInode = new HashMap<>();
        read(Path.of("/proc/net/tcp"), false, byInode);
        read(Path.of("/proc/net/tcp6"), true, byInode);
        List<Listener> found = new ArrayList<>();
        for (ProcessHandle process : processes) {
            Path fds = Path.of("/proc", Long.toString(process.pid()), "fd");
            List<Path> links;
            try (Stream<Path> list = Files.list(fds)) {
                links = list.toList();
            } catch (IOException gone) {
                continue;
            }
            for (Path link : links) {
                String target;
                try {
                    target = Files.readSymbolicLink(link).toString();
                } catch (IOException closed) {
                    continue;
                }
                if (target.startsWith("socket:[")) {
                    String address = byInode.get(target.substring("socket:[".length(), target.length() - 1));
                    if (address != null) {
                        found.add(new Listener(process.pid(), process.info().commandLine().orElse("?"), address));
                    }
                }
            }
        }
        return found;
    }

    /** {@code process} and every process it started, and theirs. */
    static List<ProcessHandle> withDescendants(ProcessHandle process) {
        List<ProcessHandle> all = new ArrayList<>();
        all.add(process);
        all.addAll(process.descendants().toList());
        return all;
    }

    private static void read(Path table, boolean v6, Map<String, String> byInode) throws IOException {
        if (!Files.isReadable(table)) {
            return;
        }
        List<String> lines = Files.readAllLines(table);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.trim().split("\\s+");
            if (f.length > 9 && f[3].equals("0A")) { // TCP_LISTEN
                byInode.put(f[9], address(f[1], v6));
            }
        }
    }

    /** {@code 0100007F:1645} (little-endian words) as {@code 127.0.0.1:5701}. */
    static String address(String hex, boolean v6) {
        String[] parts = hex.split(":");
        int port = Integer.parseInt(parts[1], 16);
        String ip = parts[0];
        if (!v6) {
            long v = Long.parseLong(ip, 16);
            return (v & 0xff) + "." + ((v >> 8) & 0xff) + "." + ((v >> 16) & 0xff) + "." + ((v >> 24) & 0xff) + ":" + port;
        }
        if (ip.chars().allMatch(c -> c == '0')) {
            return "[::]:" + port;
        }
        if (ip.startsWith("0000000000000000FFFF0000")) { // an IPv4-mapped address
            return address(ip.substring(24) + ":" + parts[1], false);
        }
        return "[" + ip + "]:" + port;
    }
}
