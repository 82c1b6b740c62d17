package io.cpbench.bench.cli;

import io.cpbench.bench.report.LiveView;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;

/** {@code --live[=PORT]}: serve the run's report, updating, on 127.0.0.1 while it runs. */
final class LiveOptions {

    @Option(names = "--live", arity = "0..1", paramLabel = "PORT", fallbackValue = "0",
            description = "Serve a live view on 127.0.0.1 only while the run goes: the report page with its charts"
                    + " and the per-second numbers, updating each second, and Prometheus metrics at /metrics."
                    + " PORT 0 or none picks a free port; the address is printed.")
    Integer port;

    /** The live view, started and announced, or null without --live. */
    LiveView start(PrintStream console, Path runDir, String title) {
        if (port == null) {
            return null;
        }
        LiveView view = LiveView.start(port, runDir, title);
        console.println("live view: " + view.url() + "  (metrics: " + view.url() + "metrics; 127.0.0.1 only)");
        return view;
    }
}
