package io.cpbench.bench.run;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The worker's side of ab's line protocol, typed: what it says is read back into the same records the coordinator
 * reads ({@link AbProtocol.Ready}, {@link AbProtocol.Slice}), and a slice counts the ops the workload ran.
 */
class AbProtocolTest {

    @Test
    void saysReadyThenAnswersEachSliceUntilQuit() throws Exception {
        AtomicLong ran = new AtomicLong();
        AbProtocol.Ready ready = new AbProtocol.Ready(AbProtocol.VERSION, "0.1.0-test", 0, 4242, "5.4.0");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long began = System.nanoTime();
        AbProtocol.serve(ran::incrementAndGet, 2, ready, new BufferedReader(new StringReader("run 300\nquit\nrun 300\n")),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        double served = (System.nanoTime() - began) / 1e9;
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).as("ready, one slice, and nothing after quit").hasSize(2);
        assertThat(lines.get(0)).startsWith(AbProtocol.PREFIX + "ready ");
        assertThat(AbProtocol.read(lines.get(0).substring((AbProtocol.PREFIX + "ready ").length()), AbProtocol.Ready.class))
                .isEqualTo(ready);
        assertThat(lines.get(1)).startsWith(AbProtocol.PREFIX + "slice ");
        AbProtocol.Slice slice = AbProtocol.read(lines.get(1).substring((AbProtocol.PREFIX + "slice ").length()),
                AbProtocol.Slice.class);
        assertThat(slice.errors()).isZero();
        assertThat(slice.error()).isNull();
        assertThat(slice.ops()).as("the slice's ops are the workload's, bar any in flight when it ended")
                .isBetween(ran.get() - 2, ran.get());
        // a slice of 300 ms measures at least its 300 ms, and no more than the whole exchange took (a busy machine
        // stretches both alike)
        assertThat(slice.seconds()).isBetween(0.3, served);
    }

    @Test
    void aFieldALaterBuildAddsIsSkippedAndAMissingOneIsEmpty() throws Exception {
        AbProtocol.Ready older = AbProtocol.read("{\"protocol\":1,\"version\":\"0.0.9\",\"planted\":0,\"pid\":7,"
                + "\"later\":true}", AbProtocol.Ready.class);
        assertThat(older.members()).as("a build that did not say").isNull();
        assertThat(older.pid()).isEqualTo(7);
    }
}
