package io.cpbench.bench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code cpbench lincheck}'s exit codes, as scripts rely on them: 0 all linearizable, 1 not, 2 bad input, 3 unknown. */
class LincheckCommandTest {

    @TempDir
    Path dir;

    private Path log(String name, String... lines) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
    }

    private static String line(int process, String type, String f, String value) {
        return "INFO  jepsen.util - " + process + "\t:" + type + "\t:" + f + "\t" + value;
    }

    @Test
    void exitCodesFollowTheWorstVerdict() throws Exception {
        Path good = log("good.log", line(0, "invoke", "write", "1"), line(0, "ok", "write", "1"),
                line(1, "invoke", "read", "nil"), line(1, "ok", "read", "1"));
        Path stale = log("stale.log", line(0, "invoke", "write", "1"), line(0, "ok", "write", "1"),
                line(0, "invoke", "write", "2"), line(0, "ok", "write", "2"),
                line(1, "invoke", "read", "nil"), line(1, "ok", "read", "1"));
        Path bad = log("bad.log", "not a history");

        assertThat(CpBench.execute("lincheck", good.toString())).isEqualTo(0);
        assertThat(CpBench.execute("lincheck", good.toString(), stale.toString())).isEqualTo(1);
        assertThat(CpBench.execute("lincheck", good.toString(), bad.toString())).isEqualTo(2);
        assertThat(CpBench.execute("lincheck", stale.toString(), bad.toString())).isEqualTo(1);
    }

    @Test
    void overTheBudgetIsUnknownExitThree() throws Exception {
        // 16 writes all concurrent with a read of a value none writes: the search must try every subset of the
        // writes before it can say no, which a 1 MiB memo cannot hold
        StringBuilder b = new StringBuilder();
        for (int p = 0; p < 16; p++) {
            b.append(line(p, "invoke", "write", Integer.toString(p))).append('\n');
        }
        b.append(line(99, "invoke", "read", "nil")).append('\n').append(line(99, "ok", "read", "1000")).append('\n');
        for (int p = 0; p < 16; p++) {
            b.append(line(p, "ok", "write", Integer.toString(p))).append('\n');
        }
        Path hard = dir.resolve("hard.log");
        Files.writeString(hard, b);

        assertThat(CpBench.execute("lincheck", "--memory-budget", "1", hard.toString())).isEqualTo(3);
        assertThat(CpBench.execute("lincheck", "--memory-budget", "1024", hard.toString())).isEqualTo(1);
    }
}
