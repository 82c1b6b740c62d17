package io.cpbench.core.result;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Writes and reads {@link RunResult} files (format documented there). */
public final class ResultFiles {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);

    private ResultFiles() {
    }

    public static String fileStem(RunResult result) {
        String stem = String.format("%02d-%s", result.round(), result.scenario());
        return result.harness() == null || result.harness().isEmpty() ? stem : stem + "." + result.harness();
    }

    public static Path write(Path dir, RunResult result) {
        Path file = dir.resolve(fileStem(result) + ".json");
        try {
            Files.createDirectories(dir);
            Path partial = dir.resolve(file.getFileName() + ".part");
            JSON.writeValue(partial.toFile(), result);
            Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write result " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Readies the reader: builds its deserializers (about 0.2 s on a fresh JVM) so that a later {@link #read} takes
     * milliseconds. For a caller that reads results at a moment that should be quick (a run's end), from a background
     * thread well before. Never fails.
     */
    public static void prepare() {
        try {
            JSON.treeToValue(JSON.createObjectNode(), RunResult.class);
        } catch (JacksonException | RuntimeException e) {
            // only a head start: the real read reports any problem
        }
    }

    public static RunResult read(Path file) {
        RunResult result;
        try {
            JsonNode tree = JSON.readTree(file.toFile());
            ResultFormat.check(tree, file);
            result = JSON.treeToValue(ResultFormat.upgrade((ObjectNode) tree), RunResult.class);
        } catch (JacksonException e) {
            throw new ResultFormatException(file + ": not a cp-bench result (" + jsonProblem(e) + ")", e);
        } catch (IOException e) {
            throw new ResultFormatException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
        if (result.run() == null || result.scenario() == null || result.status() == null || result.measured() == null
                || result.latencyMicros() == null) {
            throw new ResultFormatException(file + ": cp-bench result is missing its scenario, status, measured or"
                    + " latencyMicros");
        }
        try {
            result.decodeHistogram();
        } catch (ResultFormatException e) {
            throw new ResultFormatException(file + ": " + e.getMessage(), e);
        }
        return result;
    }

    /**
     * Reads result files, and every {@code *.json} result directly inside the given directories, in the order
     * they ran: by round, then by start time. A directory without results is an error; see {@link #collect}.
     */
    public static List<RunResult> readAll(List<Path> filesOrDirs) {
        Collected collected = collect(filesOrDirs);
        if (!collected.skipped().isEmpty()) {
            throw new ResultFormatException(collected.skipped().get(0));
        }
        return collected.results();
    }

    /**
     * What {@link #collect} found: the results, in the order they ran, and a line for each directory skipped
     * because it held none (a run that ended before it measured anything).
     */
    public record Collected(List<RunResult> results, List<String> skipped) {
    }

    /**
     * Reads result files, run directories, and parent directories of run directories (such as results/runs):
     * a directory without result files of its own is searched one level down. Directories with no results are
     * skipped and named, as long as something was found; JSON files that are not cp-bench results (JMH's output,
     * a study's notes) are ignored. A file that claims to be a result but cannot be read is an error.
     */
    public static Collected collect(List<Path> filesOrDirs) {
        List<RunResult> results = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Path path : filesOrDirs) {
            if (Files.isRegularFile(path)) {
                results.add(read(path));
            } else if (Files.isDirectory(path)) {
                List<RunResult> own = readDirectory(path);
                if (!own.isEmpty()) {
                    results.addAll(own);
                    continue;
                }
                List<Path> children = list(path).stream().filter(Files::isDirectory).toList();
                int found = 0;
                for (Path child : children) {
                    List<RunResult> inChild = readDirectory(child);
                    if (inChild.isEmpty()) {
                        skipped.add(child + ": no results (a run stopped before it measured, or not a run directory)");
                    } else {
                        found++;
                        results.addAll(inChild);
                    }
                }
                if (found == 0 && children.isEmpty()) {
                    skipped.add(path + ": no result files (*.json) in this directory");
                } else if (found == 0) {
                    skipped.add(path + ": no result files in this directory or the " + children.size()
                            + " directories inside it");
                }
            } else {
                throw new ResultFormatException(path + ": no such file or directory");
            }
        }
        if (results.isEmpty()) {
            throw new ResultFormatException(skipped.isEmpty() ? "no result files given" : skipped.get(skipped.size() - 1));
        }
        results.sort(Comparator.comparingInt(RunResult::round).thenComparing(ResultFiles::startedAt));
        return new Collected(results, skipped);
    }

    /** Whether {@code dir} holds result files of its own (not only in directories inside it). */
    public static boolean hasOwnResults(Path dir) {
        return Files.isDirectory(dir) && list(dir).stream().anyMatch(ResultFiles::isResultFile);
    }

    /**
     * Whether {@code file} is a cp-bench result file: a JSON file that names the result format near its start (a
     * corrupt result still does; JMH's own JSON and cp-bench's other files do not).
     */
    public static boolean isResultFile(Path file) {
        return file.getFileName().toString().endsWith(".json") && Files.isRegularFile(file) && claimsToBeAResult(file);
    }

    /** The cp-bench results directly inside {@code dir}; other JSON files are not results and are left out. */
    private static List<RunResult> readDirectory(Path dir) {
        List<RunResult> results = new ArrayList<>();
        for (Path file : list(dir)) {
            if (isResultFile(file)) {
                results.add(read(file));
            }
        }
        return results;
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> listing = Files.list(dir)) {
            return listing.sorted(Comparator.comparing(Path::toString)).toList();
        } catch (IOException e) {
            throw new ResultFormatException(dir + ": cannot list (" + e.getMessage() + ")", e);
        }
    }

    /** Whether the file names cp-bench's result format near its start (a corrupt result still does). */
    private static boolean claimsToBeAResult(Path file) {
        try (java.io.Reader reader = Files.newBufferedReader(file, java.nio.charset.StandardCharsets.UTF_8)) {
            char[] head = new char[4096];
            int n = reader.read(head);
            return n > 0 && new String(head, 0, n).contains("\"" + RunResult.FORMAT_PREFIX);
        } catch (IOException e) {
            return true; // let read() say what is wrong with it
        }
    }

    /** Jackson's complaint without its source description: what is wrong, and at which line and column. */
    public static String jsonProblem(com.fasterxml.jackson.core.JacksonException e) {
        String message = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
        message = message.replaceAll("\\s*\\((start marker )?at \\[Source:.*?\\]\\)", "").lines().findFirst().orElse("");
        com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
        return at == null || at.getLineNr() < 1 ? message
                : message + ", at line " + at.getLineNr() + ", column " + at.getColumnNr();
    }

    private static java.time.Instant startedAt(RunResult result) {
        try {
            return java.time.Instant.parse(result.measured().startedAt());
        } catch (RuntimeException e) {
            return java.time.Instant.EPOCH;
        }
    }
}
