package io.cpbench.bench.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cpbench.bench.results.ScenarioResults;
import io.cpbench.bench.scenario.Scenarios;
import io.cpbench.core.result.CsvSummary;
import io.cpbench.core.result.ResultFiles;
import io.cpbench.core.result.RunResult;
import io.cpbench.core.result.ScenarioTable;
import io.cpbench.core.sweep.SweepFile;
import io.cpbench.topology.IoCause;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Where a command's results land ({@code <out>/<timestamp>-<command>/}), the table and CSV written at its end, and
 * how a run writes its other files into it.
 */
public final class RunDirectory {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunDirectory() {
    }

    /** Makes a run directory now, for commands that write into it from the start. */
    public static Path create(Path out, String commandName) {
        checkWritable(out);
        return create(choose(out, commandName));
    }

    /**
     * Names the run directory ({@code <out>/<timestamp>-<command>}, with a suffix if taken) without making it: a
     * run that ends before it measures anything leaves no empty directory behind.
     */
    public static Path choose(Path out, String commandName) {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path dir = out.resolve(stamp + "-" + commandName);
        for (int n = 2; Files.exists(dir); n++) {
            dir = out.resolve(stamp + "-" + commandName + "-" + n);
        }
        return dir;
    }

    public static Path create(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the run directory " + dir + ": " + IoCause.of(e), e);
        }
    }

    /** Writes {@code text} (UTF-8) to {@code dir/name}, replacing it; returns the file. */
    public static Path writeText(Path dir, String name, String text) {
        Path file = dir.resolve(name);
        try {
            return Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + IoCause.of(e), e);
        }
    }

    /** Writes {@code document} as indented JSON to {@code dir/name}, replacing it; returns the file. */
    public static Path writeJson(Path dir, String name, Object document) {
        try {
            return writeText(dir, name, JSON.writeValueAsString(document));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + name + " as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Bad input (exit 2) unless run directories can be made in {@code out}; makes {@code out} if it is missing. */
    public static void checkWritable(Path out) {
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new IllegalArgumentException("--out " + out + ": cannot create it (" + IoCause.of(e) + ")");
        }
        if (!Files.isWritable(out)) {
            throw new IllegalArgumentException("--out " + out + ": cannot write there (permission denied)");
        }
    }

    /** Removes a run directory holding no file (a run that ended before it wrote anything), with its empty subfolders. */
    public static void removeIfEmpty(Path dir) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            List<Path> paths = all.sorted(Comparator.reverseOrder()).toList();
            if (paths.stream().anyMatch(p -> !Files.isDirectory(p))) {
                return;
            }
            for (Path p : paths) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // Leave it: an empty directory is untidy, not harmful.
        }
    }

    /**
     * Prints the scenario table, the paired ratios and what they found in words ({@link ScenarioTable#findings}), and
     * writes them to {@code table.md} with {@code notes} between the ratios and the findings (the last lines), and
     * every result to {@code summary.csv}.
     */
    public static void writeSummary(PrintStream console, Path runDir, String commandName, List<RunResult> results,
                             List<String> notes) {
        if (results.isEmpty()) {
            console.println("no scenario ran; nothing to tabulate");
            return;
        }
        String versions = ScenarioResults.memberVersions(results);
        String release = versions.isEmpty() ? "" : "Members: Hazelcast " + versions + "; clients: Hazelcast "
                + com.hazelcast.instance.BuildInfoProvider.getBuildInfo().getVersion() + "\n\n";
        String table = release + ScenarioTable.markdown(results);
        String ratios = ScenarioTable.ratiosWithinNetwork(results);
        console.println();
        console.print(table);
        if (!ratios.isEmpty()) {
            console.println();
            console.print(ratios);
        }
        StringBuilder markdown = new StringBuilder("# cp-bench ").append(commandName).append("\n\n").append(table);
        if (!ratios.isEmpty()) {
            markdown.append("\nPaired by round (each scenario against the baseline run in the same round):\n\n").append(ratios);
        }
        paragraph(console, markdown, notes);
        paragraph(console, markdown, ScenarioTable.findings(ScenarioTable.pairedRatiosWithinNetwork(results),
                ScenarioTable.QUESTION));
        writeText(runDir, "table.md", markdown.toString());
        CsvSummary.write(runDir.resolve("summary.csv"), results);
        console.println();
        console.printf("wrote %d results, table.md and summary.csv to %s%n", results.size(), runDir);
    }

    /** {@code lines} after an empty line, on the console and in the Markdown; nothing when there are none. */
    private static void paragraph(PrintStream console, StringBuilder markdown, List<String> lines) {
        if (lines.isEmpty()) {
            return;
        }
        console.println();
        markdown.append('\n');
        for (String line : lines) {
            console.println(line);
            markdown.append(line).append("\n");
        }
    }

    /** A run's directory: it holds result files, or it is a sweep's. */
    private static boolean isRun(Path dir) {
        return ResultFiles.hasOwnResults(dir) || SweepFile.isSweep(dir);
    }

    /**
     * {@code dir} when it is a run; else its newest run directory (names start with the time), said on stderr as
     * {@code command} says things.
     *
     * @param which how messages name it, for example BASE
     */
    public static Path resolveRun(Path dir, String which, String command) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(which + " " + dir + ": no such run directory");
        }
        if (isRun(dir)) {
            return dir;
        }
        List<Path> runs;
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            runs = s.filter(RunDirectory::isRun).sorted().toList();
        } catch (IOException e) {
            throw new IllegalArgumentException(which + " " + dir + ": cannot list (" + e.getMessage() + ")");
        }
        if (runs.isEmpty()) {
            return dir; // read() says what is missing
        }
        Path newest = runs.get(runs.size() - 1);
        System.err.printf(Locale.ROOT, "%s: %s is %s, the newest of %d run director%s in %s%n", command, which, newest,
                runs.size(), runs.size() == 1 ? "y" : "ies", dir);
        return newest;
    }

    /** The results in run directory {@code dir}, each marked baseline or not; bad input when it holds none. */
    public static List<RunResult> readResults(Path dir, String which) {
        if (!ResultFiles.hasOwnResults(dir)) {
            throw new IllegalArgumentException(which + " " + dir + ": no result files in this directory (give a run"
                    + " directory such as results/runs/20261122-181314-matrix)");
        }
        return Scenarios.marked(ResultFiles.readAll(List.of(dir)));
    }

    /** Writes {@code text} (UTF-8) to {@code file}, making its directory first. */
    public static void writeFile(Path file, String text) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + IoCause.of(e), e);
        }
    }
}
