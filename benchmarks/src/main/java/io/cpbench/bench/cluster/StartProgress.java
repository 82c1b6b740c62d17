package io.cpbench.bench.cluster;

import io.cpbench.core.load.Durations;
import io.cpbench.topology.MemberLauncher;
import io.cpbench.topology.StockCluster;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * While the cluster starts (25-60 s for five member JVMs on a small machine), prints a line every few seconds:
 * how long so far and how many members are up; and, if Ctrl-C comes meanwhile, says that the members are being
 * stopped, so the wait before the prompt returns is not silent.
 */
public final class StartProgress implements AutoCloseable {

    private final PrintStream out;
    private final long startNanos;
    private final Path memberLogs;
    private final Thread ticker;
    private final Thread interruptNotice;
    private volatile boolean done;

    /**
     * @param memberLogs where member processes write {@code member-N.log}, or null when this run starts none
     *                   (attach, remote) and only connects
     */
    public StartProgress(PrintStream out, Duration every, long startNanos, Path memberLogs) {
        this.out = out;
        this.startNanos = startNanos;
        this.memberLogs = memberLogs;
        this.interruptNotice = new Thread(() -> {
            if (!done) {
                out.println("\ncp-bench: interrupted while the cluster was starting; stopping what was started ...");
            }
        }, "cpbench-start-interrupted");
        Runtime.getRuntime().addShutdownHook(interruptNotice);
        long everyMillis = every.toMillis();
        this.ticker = new Thread(() -> {
            try {
                while (everyMillis > 0 && !done) {
                    Thread.sleep(everyMillis);
                    if (!done) {
                        out.println("    " + status());
                    }
                }
            } catch (InterruptedException stopped) {
                // closed
            }
        }, "cpbench-start-progress");
        ticker.setDaemon(true);
        ticker.start();
    }

    public String status() {
        long seconds = (System.nanoTime() - startNanos) / 1_000_000_000L;
        String members = membersUp();
        return String.format(Locale.ROOT, "%s: %s elapsed%s", memberLogs == null ? "connecting" : "starting",
                Durations.human(seconds), members);
    }

    /** ", 3 of 5 members up" from the member logs, or "" when there are none. */
    private String membersUp() {
        if (memberLogs == null || !Files.isDirectory(memberLogs)) {
            return "";
        }
        List<Path> logs;
        try (Stream<Path> files = Files.list(memberLogs)) {
            logs = files.filter(p -> p.getFileName().toString().matches("member-\\d+\\.log")).toList();
        } catch (IOException e) {
            return "";
        }
        // a cp-bench member prints its ready line; a stock member (another release) logs that it is STARTED
        long up = logs.stream().filter(log -> MemberLauncher.printedReady(log) || StockCluster.printedStarted(log)).count();
        if (logs.isEmpty()) {
            return "";
        }
        return up == logs.size()
                ? String.format(Locale.ROOT, "; all %d members up, waiting for the priority member to lead", up)
                : String.format(Locale.ROOT, "; %d of %d members up", up, logs.size());
    }

    @Override
    public void close() {
        done = true;
        ticker.interrupt();
        try {
            Runtime.getRuntime().removeShutdownHook(interruptNotice);
        } catch (IllegalStateException shuttingDown) {
            // The notice has run or is running.
        }
    }
}
