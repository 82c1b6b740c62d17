package io.cpbench.bench.cli;

import io.cpbench.core.result.ComparisonTable;
import io.cpbench.bench.results.HtmlPage;
import io.cpbench.bench.report.ReportModel;
import io.cpbench.bench.report.RunDirectory;
import io.cpbench.bench.service.ExitCodes;
import io.cpbench.core.load.Threshold;
import io.cpbench.core.result.AbDocument;
import io.cpbench.core.result.Comparison;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.sweep.SweepComparison;
import io.cpbench.core.sweep.SweepFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compares two runs of the same scenarios, before (BASE) and after (NEW) a change: per scenario,"
                + " and per op for load runs, new ÷ base of op/s, p50 and p99, each the ratio of the medians over"
                + " rounds with a 95 %% bootstrap interval, and a verdict: faster, slower or no change.",
                "A metric has changed when its interval excludes 1 and its ratio is beyond the tolerance; a row is"
                        + " slower when a gated metric is. Exits 1 when any row is slower, so it can gate a CI"
                        + " pipeline; 2 when the runs are not of the same scenarios and ops.",
                "The intervals see the rounds of each run, not how much a whole run on a fresh cluster varies: on a"
                        + " busy 2-core machine two runs of one build differed by up to 19 %% over 4 scenarios, more"
                        + " than their rounds showed (docs/reports.md). Gate on a quiet machine, with a tolerance"
                        + " above the spread of your own reruns; or gate with 'cpbench ab', which runs both builds"
                        + " side by side and sees that noise.",
                "Two sweeps (run directories with a sweep.json): per cell (routing and level) new ÷ base over the"
                        + " repeats by the same rule, how far each routing's knee moved (held: the same level, within"
                        + " ±10 %%), and whether every cell moved together, which is the machine's speed, not a change."},
        footer = {"", "Examples:", "  cpbench compare results/runs/20261122-101500-matrix results/runs/20261123-101500-matrix",
                "  cpbench compare BASE NEW --tolerance 3%% --gate ops,p50,p99 --markdown cmp.md --html cmp.html",
                "  cpbench compare results/runs/20261124-175112-sweep results/runs/20261124-180746-sweep"})
final class CompareCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "BASE", description = "The run directory before the change (or a directory"
            + " of run directories: its newest).")
    Path base;

    @Parameters(index = "1", paramLabel = "NEW", description = "The run directory after the change (or a directory of"
            + " run directories, such as results/runs or the bench profile's target/bench: its newest).")
    Path next;

    @picocli.CommandLine.Mixin
    GateOptions gateOptions;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Also write the comparison as Markdown to FILE.")
    Path markdown;

    @Option(names = "--html", paramLabel = "FILE", description = "Also write it as an HTML page (offline, with the"
            + " latency percentile plots of both runs) to FILE.")
    Path html;

    @Option(names = "--mixed-versions", description = "Compare even when BASE's and NEW's members ran different Hazelcast"
            + " releases (a release comparison); without it, compare refuses them.")
    boolean mixedVersions;

    @Override
    public Integer call() {
        double tol = gateOptions.tolerance();
        Set<Comparison.Metric> gated = gateOptions.gated();
        base = RunDirectory.resolveRun(base, "BASE", "cpbench compare");
        next = RunDirectory.resolveRun(next, "NEW", "cpbench compare");
        for (java.nio.file.Path dir : List.of(base, next)) {
            if (AbDocument.in(dir)) {
                throw new IllegalArgumentException(dir + " is an ab run, which compares its own two sides ("
                        + AbDocument.read(dir).verdictLine() + "); compare takes two runs of the same scenarios");
            }
        }
        boolean baseSweep = SweepFile.isSweep(base);
        boolean nextSweep = SweepFile.isSweep(next);
        if (baseSweep != nextSweep) {
            throw new IllegalArgumentException("BASE " + base + (baseSweep ? " is" : " is not") + " a sweep, NEW " + next
                    + (nextSweep ? " is" : " is not") + ": compare two sweeps, or two runs of the same scenarios");
        }
        if (baseSweep) {
            return compareSweeps(base, next, tol, gated);
        }
        List<RunResult> b = RunDirectory.readResults(base, "BASE");
        List<RunResult> n = RunDirectory.readResults(next, "NEW");
        String baseVersions = memberVersions(b);
        String newVersions = memberVersions(n);
        if (!baseVersions.equals(newVersions)) {
            String what = "BASE's members ran Hazelcast " + baseVersions + ", NEW's " + newVersions;
            if (!mixedVersions) {
                throw new IllegalArgumentException(what + ": that compares releases as well as runs; pass"
                        + " --mixed-versions to compare them anyway");
            }
            System.out.println("note: " + what + "; the ratios below are between releases");
        }
        Comparison.Result result = Comparison.of(b, n, tol, gated);
        String baseName = ReportModel.name(base);
        String newName = ReportModel.name(next);
        String md = ComparisonTable.markdown(result, baseName, newName);
        System.out.print(md);
        if (markdown != null) {
            RunDirectory.writeFile(markdown, "# cp-bench compare\n\n" + md);
        }
        if (html != null) {
            HtmlPage.write(ReportModel.comparison("cp-bench compare: " + baseName + " → " + newName,
                    result, md, b, n, baseName, newName), html);
            System.out.println("wrote " + html);
        }
        if (result.regression()) {
            // as every command ends a run that is not OK: one line on stderr, for a script's log
            System.err.println("cpbench: " + ComparisonTable.summary(result, baseName, newName));
            return ExitCodes.FAILED;
        }
        return ExitCodes.OK;
    }

    /**
     * The Hazelcast releases a run's members ran, comma-separated: each result's recorded member release, or for a
     * result from before it was recorded, its client's (cp-bench then always ran members of its own release).
     */
    static String memberVersions(List<RunResult> results) {
        return String.join(", ", results.stream().map(r -> r.cluster() != null && r.cluster().memberVersion() != null
                        ? r.cluster().memberVersion() : r.environment() == null ? "?" : r.environment().hazelcastVersion())
                .flatMap(v -> java.util.Arrays.stream(v.split(",\\s*"))).distinct().sorted().toList());
    }

    /** Two sweeps: per cell new ÷ base over the repeats, how far each routing's knee moved, and whether every cell moved together. */
    private int compareSweeps(Path baseDir, Path nextDir, double tol, Set<Comparison.Metric> gated) {
        if (html != null) {
            throw new IllegalArgumentException("--html: a comparison of sweeps is Markdown only (--markdown FILE); render"
                    + " each sweep with 'cpbench report DIR --html FILE'");
        }
        SweepFile b = SweepFile.read(baseDir);
        SweepFile n = SweepFile.read(nextDir);
        Threshold slo = b.threshold(null);
        if (!b.slo().equals(n.slo())) {
            System.err.println("cpbench compare: the sweeps ran under different SLOs (BASE " + b.slo() + ", NEW " + n.slo()
                    + "); both are judged by BASE's");
        }
        SweepComparison result = SweepComparison.of(b.analyse(slo), b.runs(), n.analyse(slo), n.runs(), tol, gated);
        String baseName = ReportModel.name(baseDir);
        String newName = ReportModel.name(nextDir);
        String md = result.markdown(baseName, newName);
        System.out.print(md);
        if (markdown != null) {
            RunDirectory.writeFile(markdown, "# cp-bench compare: sweeps\n\n" + md);
        }
        if (result.cells().regression()) {
            System.err.println("cpbench: " + ComparisonTable.summary(result.cells(), baseName, newName));
            return ExitCodes.FAILED;
        }
        return ExitCodes.OK;
    }
}
