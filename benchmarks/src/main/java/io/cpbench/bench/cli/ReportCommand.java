package io.cpbench.bench.cli;

import io.cpbench.bench.history.HistoryReport;
import io.cpbench.bench.history.HistoryStore;
import io.cpbench.bench.results.LoadTables;
import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.ScenarioTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Renders the scenario table again from result files, run directories, or a directory of run"
                + " directories (such as results/runs): directories without results are skipped and named on stderr.",
                "With --html, writes one self-contained HTML file instead (it opens offline): the tables with their"
                        + " confidence intervals, latency percentile plots, op/s and p99 over time with load stages"
                        + " and fault windows, sweep curves with the knee and the USL fit, availability and checker"
                        + " verdicts, and the environment, one section per run directory (matrix, run, load, chaos,"
                        + " sweep, jmh)."},
        footer = {"", "Examples:", "  cpbench report results/runs/20261122-181314-matrix",
                "  cpbench report results/runs --baseline client-smart",
                "  cpbench report results/runs/20261122-181314-matrix results/runs/20261122-190002-chaos --html report.html"})
final class ReportCommand implements Callable<Integer> {

    @Parameters(paramLabel = "DIR|FILE", arity = "1..*", description = "Run directories, their parent, or result files.")
    List<Path> paths;

    @Option(names = "--baseline", paramLabel = "NAME",
            description = "One scenario all paired ratios are taken against; it must be among the results (default:"
                    + " client-leader for network (a) scenarios, client-leader-1follower10ms for (b)).")
    String baseline;

    @Option(names = "--html", paramLabel = "FILE", description = "Write an HTML report with charts to FILE.")
    Path html;

    @Option(names = "--history", paramLabel = "PATH|JDBC-URL", defaultValue = "${env:CPBENCH_HISTORY:-results/history.db}",
            description = "With --html: the results history whose trends of these runs' series the report links to,"
                    + " written next to it as NAME-trend.html, when the runs are in it (default: results/history.db, or"
                    + " CPBENCH_HISTORY when set; nothing when there is no such store).")
    String history;

    @Option(names = "--no-history", description = "With --html: no trend page and no link to it.")
    boolean noHistory;

    @Option(names = "--title", paramLabel = "TEXT", description = "The HTML report's title (default: cp-bench report"
            + " and the run directories' names).")
    String title;

    /**
     * The trend page of the runs' series, written next to the report; null when there is no store, the runs are not in
     * it, or it cannot be read (then one line says so: the report is written all the same).
     */
    private HistoryReport.Link trend(List<Path> dirs) {
        if (!HistoryStore.present(history)) {
            return null;
        }
        String name = html.getFileName().toString().replaceFirst("\\.html?$", "");
        try (HistoryStore store = HistoryStore.open(history)) {
            return HistoryReport.forRuns(store, dirs, html.resolveSibling(name + "-trend.html"), html);
        } catch (RuntimeException e) {
            System.err.println("cpbench report: no trend page: " + e.getMessage());
            return null;
        }
    }

    @Override
    public Integer call() {
        if (html != null) {
            if (baseline != null) {
                throw new IllegalArgumentException("--baseline applies to the text tables; the HTML report compares each"
                        + " scenario with its network's baseline");
            }
            List<Path> dirs = io.cpbench.bench.report.ReportModel.runDirectories(paths);
            String name = title != null ? title : "cp-bench report: " + String.join(", ",
                    dirs.stream().map(io.cpbench.bench.report.ReportModel::name).toList());
            var data = io.cpbench.bench.report.ReportModel.build(name, dirs);
            HistoryReport.Link trend = noHistory ? null : trend(dirs);
            if (trend != null) {
                data.putPOJO("trend", trend);
            }
            long bytes = io.cpbench.bench.results.HtmlPage.write(data, html);
            int charts = io.cpbench.bench.report.ReportModel.chartCount(data);
            System.out.printf(java.util.Locale.ROOT, "wrote %s: %,d KB, %d run director%s, %d chart%s%n", html,
                    (bytes + 1023) / 1024, dirs.size(), dirs.size() == 1 ? "y" : "ies", charts, charts == 1 ? "" : "s");
            if (trend != null) {
                System.out.printf(java.util.Locale.ROOT, "wrote %s: the trends of these runs' %d series in %s, linked"
                        + " from the report%n", html.resolveSibling(trend.href()), trend.series(), trend.store());
            }
            return ExitCodes.OK;
        }
        ResultFiles.Collected collected = ResultFiles.collect(paths);
        // Files written before results carried the baseline mark get it from the catalogue.
        List<RunResult> results = io.cpbench.bench.scenario.Scenarios.marked(collected.results());
        if (baseline != null && results.stream().noneMatch(r -> r.scenario().equals(baseline))) {
            throw new IllegalArgumentException("--baseline '" + baseline + "' is not among these results; they have: "
                    + String.join(", ", results.stream().map(RunResult::scenario).distinct().sorted().toList()));
        }
        for (String skipped : collected.skipped()) {
            System.err.println("cpbench report: skipped " + skipped);
        }
        System.out.print(ScenarioTable.markdown(results));
        String ratios = baseline == null ? ScenarioTable.ratiosWithinNetwork(results) : ScenarioTable.ratios(results, baseline);
        if (!ratios.isEmpty()) {
            System.out.println();
            System.out.print(ratios);
        } else if (baseline != null) {
            System.out.println();
            System.out.println("No paired ratios: no round has both an OK '" + baseline + "' result and another OK result.");
        }
        String perOp = LoadTables.perOp(results);
        if (!perOp.isEmpty()) {
            System.out.println();
            System.out.print(perOp);
            for (RunResult r : results) {
                if (r.load() != null && (!r.load().thresholds().isEmpty() || !r.load().invariants().isEmpty())) {
                    System.out.printf("%nround %d, %s: %s%n", r.round(), r.scenario(), r.load().outcome());
                    System.out.print(io.cpbench.core.load.LoadSummary.verdicts(r.load()));
                }
            }
        }
        return ExitCodes.OK;
    }
}
