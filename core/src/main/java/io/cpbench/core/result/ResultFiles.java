package io.cpbench.core.result;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

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

    public static RunResult read(Path file) {
        RunResult result;
        try {
            JsonNode tree = JSON.readTree(file.toFile());
            JsonNode format = tree == null ? null : tree.get("format");
            if (format == null || !RunResult.FORMAT.equals(format.asText())) {
                throw new ResultFormatException(file + ": not a cp-bench result (format is "
                        + (format == null ? "missing" : "'" + format.asText() + "'") + ", expected '" + RunResult.FORMAT + "')");
            }
            result = JSON.treeToValue(tree, RunResult.class);
        } catch (JacksonException e) {
            throw new ResultFormatException(file + ": not a cp-bench result (" + e.getOriginalMessage() + ")", e);
        } catch (IOException e) {
            throw new ResultFormatException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
        if (result.scenario() == null || result.status() == null || result.latencyMicros() == null) {
            throw new ResultFormatException(file + ": cp-bench result is missing scenario, status or latencyMicros");
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
     * they ran: by round, then by start time.
     */
    public static List<RunResult> readAll(List<Path> filesOrDirs) {
        List<RunResult> results = new ArrayList<>();
        for (Path path : filesOrDirs) {
            if (Files.isDirectory(path)) {
                List<Path> files;
                try (Stream<Path> listing = Files.list(path)) {
                    files = listing.filter(p -> p.getFileName().toString().endsWith(".json"))
                            .sorted(Comparator.comparing(Path::toString)).toList();
                } catch (IOException e) {
                    throw new ResultFormatException(path + ": cannot list (" + e.getMessage() + ")", e);
                }
                if (files.isEmpty()) {
                    throw new ResultFormatException(path + ": no result files (*.json) in this directory");
                }
                files.forEach(f -> results.add(read(f)));
            } else if (Files.isRegularFile(path)) {
                results.add(read(path));
            } else {
                throw new ResultFormatException(path + ": no such file or directory");
            }
        }
        results.sort(Comparator.comparingInt(RunResult::round).thenComparing(ResultFiles::startedAt));
        return results;
    }

    private static java.time.Instant startedAt(RunResult result) {
        try {
            return java.time.Instant.parse(result.startedAt());
        } catch (RuntimeException e) {
            return java.time.Instant.EPOCH;
        }
    }
}
