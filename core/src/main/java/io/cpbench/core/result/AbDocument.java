package io.cpbench.core.result;

import io.cpbench.core.status.Status;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What an {@code ab} run measured, as {@code ab.json}: written and read by this record, so the report and
 * {@code compare} read the verdict from it instead of from the table's text.
 *
 * @param format      {@link #FORMAT}
 * @param scenario    the scenario both sides ran
 * @param status      the run's one verdict (its exit code, its history run and its report are this): OK when the
 *                    pairs ran to their end and found no regression; INCOMPLETE when Ctrl-C stopped them; FAIL when
 *                    they found a regression (the reason is then the verdict, {@code REGRESSION: ...}), or a client
 *                    process broke, ops failed, or fewer than 2 pairs were measured (then {@code result} is null).
 *                    Files written before a regression was FAIL say OK: read {@link #verdict()}
 * @param reason      why it is not OK, or null
 * @param pairs       pairs measured
 * @param started     pairs started (one more than measured when a pair failed)
 * @param ownClusters whether each side ran on clusters of its own release, not both on one
 * @param about       what ran each side and where, a line each
 * @param environment this machine and JVM
 * @param result      new ÷ base per gated metric with its interval and verdict; null with fewer than 2 pairs
 */
public record AbDocument(String format, String scenario, Status status, String reason, int pairs, long started,
                         boolean ownClusters, List<String> about, Environment environment, Comparison.Result result) {

    public static final String FORMAT = "cpbench-ab/1";
    public static final String FILE = "ab.json";

    public AbDocument {
        about = about == null ? List.of() : List.copyOf(about);
    }

    /**
     * The run's verdict: {@code status}; in a file written before a regression was FAIL (OK with a regression in its
     * result), FAIL.
     */
    public Status verdict() {
        return status == Status.OK && regression() ? Status.FAIL : status;
    }

    /**
     * How the pairs' measurements ended, whatever the verdict: a regression found makes the run FAIL, not its
     * numbers (the history's rows for BASE and NEW stand).
     */
    public Status measured() {
        return status == Status.FAIL && regression() && reason != null && reason.startsWith(REGRESSION) ? Status.OK : status;
    }

    /** How {@code reason} begins when the run is FAIL for the regression it found (the verdict's own words). */
    public static final String REGRESSION = "REGRESSION: ";

    /** Whether the run found a regression: a gated metric slower beyond the tolerance. */
    public boolean regression() {
        return result != null && result.regression();
    }

    /** The verdict in one line: {@code verdict: NO REGRESSION: ...}, or why there is none. */
    public String verdictLine() {
        if (result == null) {
            return "verdict: none (" + (reason == null ? "fewer than 2 pairs measured" : reason) + ")";
        }
        return ComparisonTable.summary(result, "BASE", "NEW");
    }

    /** Whether {@code dir} holds an ab run's document. */
    public static boolean in(Path dir) {
        return Files.isRegularFile(dir.resolve(FILE));
    }

    /**
     * @param dirOrFile an ab run's directory or its ab.json
     * @throws IllegalArgumentException with one line when it is missing, unreadable or not an ab run's document
     */
    public static AbDocument read(Path dirOrFile) {
        Path file = Files.isDirectory(dirOrFile) ? dirOrFile.resolve(FILE) : dirOrFile;
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("no " + FILE + " in " + dirOrFile);
        }
        try {
            ObjectMapper json = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
            JsonNode tree = json.readTree(file.toFile());
            if (tree == null || !FORMAT.equals(tree.path("format").asText())) {
                throw new IllegalArgumentException(file + " is not a cp-bench ab document (format " + FORMAT + ")");
            }
            return json.treeToValue(tree, AbDocument.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage().lines().findFirst().orElse(""));
        }
    }
}
