package io.cpbench.bench.cli;

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
                + " directories (such as results/runs): directories without results are skipped and named on stderr."},
        footer = {"", "Examples:", "  cpbench report results/runs/20261122-181314-matrix",
                "  cpbench report results/runs --baseline client-smart"})
final class ReportCommand implements Callable<Integer> {

    @Parameters(paramLabel = "DIR|FILE", arity = "1..*", description = "Run directories, their parent, or result files.")
    List<Path> paths;

    @Option(names = "--baseline", paramLabel = "NAME",
            description = "One scenario all paired ratios are taken against; it must be among the results (default:"
                    + " client-leader for network (a) scenarios, client-leader-1follower10ms for (b)).")
    String baseline;

    @Override
    public Integer call() {
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
