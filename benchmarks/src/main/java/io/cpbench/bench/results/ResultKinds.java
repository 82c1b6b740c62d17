package io.cpbench.bench.results;

import io.cpbench.core.result.ResultFormatException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The kinds of result a run directory can hold, in the order they are looked for: a sweep's {@code sweep.json}, a
 * chaos run's {@code chaos.json}, an ab run's {@code ab.json} (or, written before it, its {@code slices.csv} and
 * {@code table.md}), else result files ({@code cpbench-result/1}, {@code /2}: scenario runs, load runs, JMH trials),
 * else a matrix run's {@code summary.csv} and {@code table.md} alone (a run whose result files were not kept).
 * To add a kind: write its class ({@link ResultKind}: its status, history run and report section, reading its own
 * document) and add a line here.
 */
public final class ResultKinds {

    private record Kind(Predicate<Path> holds, Function<Path, ResultKind> read) {
    }

    private static final List<Kind> KINDS = List.of(
            new Kind(SweepResults::in, SweepResults::read),
            new Kind(ChaosResults::in, ChaosResults::read),
            new Kind(AbResults::in, AbResults::read),
            new Kind(ScenarioResults::in, ScenarioResults::read),
            new Kind(SummaryResults::in, SummaryResults::read));

    private ResultKinds() {
    }

    /** Whether {@code dir} holds a run of any kind. */
    public static boolean holdsRun(Path dir) {
        return Files.isDirectory(dir) && KINDS.stream().anyMatch(k -> k.holds().test(dir));
    }

    /**
     * The run in {@code dir}.
     *
     * @throws ResultFormatException (one line, naming the file) when its files cannot be read, or it holds no run
     */
    public static ResultKind read(Path dir) {
        for (Kind kind : KINDS) {
            if (kind.holds().test(dir)) {
                return kind.read().apply(dir);
            }
        }
        throw new ResultFormatException(dir + ": no run here (no result files, chaos.json, sweep.json or an ab run's"
                + " ab.json or slices.csv, or a matrix run's summary.csv and table.md)");
    }
}
