package io.cpbench.bench.cli;

import io.cpbench.bench.report.LiveView;
import io.cpbench.bench.service.RunService;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;

/** {@code --live[=PORT]}: serve the run's report, updating, on 127.0.0.1 while it runs. */
final class LiveOptions implements RunService.Live {

    @Option(names = "--live", arity = "0..1", paramLabel = "PORT", fallbackValue = "0",
            description = "Serve a live view on 127.0.0.1 only while the run goes: the report page with its charts"
                    + " and the per-second numbers, updating each second, and Prometheus metrics at /metrics."
                    + " PORT 0 or none picks a free port; the address is printed.")
    Integer port;

    private LiveView view;

    /** Starts and announces the live view (nothing without --live); {@link #close} stops it. */
    @Override
    public void start(PrintStream console, Path runDir, String title) {
        if (port != null) {
            view = LiveView.start(port, runDir, title);
            console.println("live view: " + view.url() + "  (metrics: " + view.url() + "metrics; 127.0.0.1 only)");
        }
    }

    /** The running live view, or null. */
    @Override
    public LiveView view() {
        return view;
    }

    /** Stops the live view, if one runs; safe to call more than once. */
    @Override
    public void close() {
        if (view != null) {
            view.close();
            view = null;
        }
    }
}
