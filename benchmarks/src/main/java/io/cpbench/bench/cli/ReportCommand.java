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
        description = "Renders the scenario table again from result files or run directories.")
final class ReportCommand implements Callable<Integer> {

    @Parameters(paramLabel = "DIR|FILE", arity = "1..*", description = "Run directories or result files.")
    List<Path> paths;

    @Option(names = "--baseline", paramLabel = "NAME",
            description = "One scenario all paired ratios are taken against (default: client-leader for network (a)"
                    + " scenarios, client-leader-1follower10ms for (b)).")
    String baseline;

    @Override
    public Integer call() {
        List<RunResult> results = ResultFiles.readAll(paths);
        System.out.print(ScenarioTable.markdown(results));
        String ratios = baseline == null ? ScenarioTable.ratiosWithinNetwork(results) : ScenarioTable.ratios(results, baseline);
        if (!ratios.isEmpty()) {
            System.out.println();
            System.out.print(ratios);
        }
        return 0;
    }
}
