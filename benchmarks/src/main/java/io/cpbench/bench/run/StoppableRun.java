package io.cpbench.bench.run;

import io.cpbench.core.run.StopSwitch;

import java.io.PrintStream;

/**
 * What every run that Ctrl-C can end early has in common: the console it prints to, and the switch {@link #stop()}
 * throws. What is stopped is registered on {@link #stops} as it starts ({@link StopSwitch#tracking}).
 */
abstract class StoppableRun {

    final PrintStream console;
    final StopSwitch stops = new StopSwitch();

    StoppableRun(PrintStream console) {
        this.console = console;
    }

    /** Ends the run early, from any thread (a Ctrl-C hook): what is in flight stops with what it measured. */
    public void stop() {
        stops.stop();
    }

    /** Whether {@link #stop()} was called. */
    public boolean stopped() {
        return stops.stopped();
    }
}
