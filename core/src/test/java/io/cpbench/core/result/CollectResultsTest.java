package io.cpbench.core.result;

import io.cpbench.core.status.Status;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code report} on a parent of run directories: results found one level down, empty runs skipped and named. */
class CollectResultsTest {

    @TempDir
    Path runs;

    @Test
    void aParentDirectoryIsSearchedOneLevelDownAndEmptyRunsAreNamed() throws Exception {
        Path first = Files.createDirectories(runs.resolve("20261122-100000-matrix"));
        ResultFiles.write(first, ResultFilesTest.result("client-leader", 1, 1000, Status.OK, 900, 1100));
        ResultFiles.write(first, ResultFilesTest.result("client-smart", 1, 1500, Status.OK, 700));
        Files.writeString(first.resolve("jmh-result.json"), "[{\"benchmark\": \"x\"}]"); // not a result: ignored
        Path second = Files.createDirectories(runs.resolve("20261122-110000-run"));
        ResultFiles.write(second, ResultFilesTest.result("client-leader", 2, 990, Status.FAIL, 1000));
        Files.createDirectories(runs.resolve("20261122-120000-run/members")); // killed while members started

        ResultFiles.Collected collected = ResultFiles.collect(List.of(runs));

        assertThat(collected.results()).extracting(RunResult::scenario).containsExactly("client-leader", "client-smart", "client-leader");
        assertThat(collected.skipped()).containsExactly(runs.resolve("20261122-120000-run")
                + ": no results (a run stopped before it measured, or not a run directory)");
    }

    @Test
    void aDirectoryWithNoResultsAnywhereIsAnError() throws Exception {
        Files.createDirectories(runs.resolve("20261122-120000-run"));
        assertThatThrownBy(() -> ResultFiles.collect(List.of(runs))).isInstanceOf(ResultFormatException.class)
                .hasMessage(runs + ": no result files in this directory or the 1 directories inside it");
        assertThatThrownBy(() -> ResultFiles.collect(List.of(runs.resolve("20261122-120000-run"))))
                .isInstanceOf(ResultFormatException.class).hasMessageEndingWith("no result files (*.json) in this directory");
    }

    @Test
    void aCorruptResultIsNotSkipped() throws Exception {
        Path run = Files.createDirectories(runs.resolve("20261122-100000-run"));
        ResultFiles.write(run, ResultFilesTest.result("client-leader", 1, 1000, Status.OK, 900));
        Files.writeString(run.resolve("02-client-leader.json"), "{\"format\": \"cpbench-result/1\", \"round\": [");
        assertThatThrownBy(() -> ResultFiles.collect(List.of(runs))).isInstanceOf(ResultFormatException.class)
                .hasMessage(run.resolve("02-client-leader.json") + ": not a cp-bench result (Unexpected end-of-input:"
                        + " expected close marker for Array, at line 1, column 42)");
    }
}
