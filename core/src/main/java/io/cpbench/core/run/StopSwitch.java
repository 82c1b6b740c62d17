package io.cpbench.core.run;

import java.util.function.Consumer;

/**
 * What Ctrl-C (or any other thread) stops: the run in flight now (an engine, a driver), and any started after it. A
 * run that owns one calls {@link #running} as each engine starts and ends; {@link #stop()} stops the current one and
 * marks the switch, so one that starts later is stopped at once. Stopping twice is harmless.
 */
public final class StopSwitch {

    private volatile boolean stopped;
    private volatile Runnable current;

    /** Stops what runs now and whatever starts later. Any thread, any number of times. */
    public void stop() {
        stopped = true;
        Runnable stopIt = current;
        if (stopIt != null) {
            stopIt.run();
        }
    }

    public boolean stopped() {
        return stopped;
    }

    /**
     * What {@link #stop()} stops from now on ({@code null}: nothing runs); it is stopped at once if the switch was
     * already thrown. (Checked after it is set, so a stop that comes in between is not missed.)
     */
    public void running(Runnable stopIt) {
        current = stopIt;
        if (stopIt != null && stopped) {
            stopIt.run();
        }
    }

    /** {@link #running} for callbacks that hand over an engine as it starts and null as it ends. */
    public <T> Consumer<T> tracking(Consumer<T> stopOne) {
        return it -> running(it == null ? null : () -> stopOne.accept(it));
    }
}
