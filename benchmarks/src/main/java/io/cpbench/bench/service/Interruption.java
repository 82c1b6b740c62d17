package io.cpbench.bench.service;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What a long command does on Ctrl-C (or SIGTERM): stop what runs, wait for the main thread to write what was
 * measured, then clean up. The JVM runs shutdown hooks concurrently with the main thread, hence the latch.
 */
final class Interruption {

    private final CountDownLatch written = new CountDownLatch(1);
    private final Thread hook;

    /**
     * @param line       what it prints first ("interrupted; keeping what was measured ...")
     * @param stop       runs first: stop the run in flight (its result is kept as INCOMPLETE)
     * @param afterwards runs once the main thread has written the results (or after 60 s)
     */
    Interruption(String line, Runnable stop, Runnable afterwards) {
        hook = new Thread(() -> {
            System.err.println("\ncp-bench: " + line);
            stop.run();
            try {
                written.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                // Exit anyway.
            }
            afterwards.run();
        }, "cpbench-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The main thread has written what was measured. */
    void written() {
        written.countDown();
    }

    /** Removes the hook after a normal end; false when the JVM is already shutting down, i.e. the run was interrupted. */
    boolean disarm() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
            return true;
        } catch (IllegalStateException shuttingDown) {
            return false;
        }
    }
}
