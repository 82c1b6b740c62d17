package io.cpbench.bench.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** {@code --out DIR}: where a command creates its run directory, the same in every command that writes one. */
final class OutOption {

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/runs",
            description = "Where the run directory is created (default: ${DEFAULT-VALUE}).")
    Path dir;
}
