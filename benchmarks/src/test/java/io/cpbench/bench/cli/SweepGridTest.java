package io.cpbench.bench.cli;

import io.cpbench.bench.run.SweepGrid;
import io.cpbench.bench.run.SweepGridBuilder;
import io.cpbench.bench.run.SweepRun;
import io.cpbench.core.load.Threshold;
import io.cpbench.core.sweep.SweepCell;
import io.cpbench.topology.MemberTuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SweepGridTest {

    @TempDir
    Path dir;

    static SweepGrid grid(List<String> scenarios, List<Integer> clients, List<Integer> threads, List<Double> rates,
                          List<MemberTuning> members) {
        return grid(scenarios, clients, threads, rates, members, false);
    }

    static SweepGrid grid(List<String> scenarios, List<Integer> clients, List<Integer> threads, List<Double> rates,
                          List<MemberTuning> members, boolean freshClusters) {
        return SweepGridBuilder.builder().scenarios(scenarios).clients(clients).threads(threads).rates(rates)
                .mix("cas").duration(Duration.ofSeconds(10)).warmup(Duration.ofSeconds(3)).repeats(3)
                .slo(Threshold.parse("p99<10ms")).memberSettings(members).freshClusters(freshClusters).build();
    }

    @Test
    void cellsGoLevelByLevelWithTheRoutingsOfALevelSideBySide() {
        SweepGrid g = grid(List.of("client-leader-aware", "client-smart"), List.of(1, 2), List.of(1, 4), List.of(), null);
        assertThat(g.cells()).extracting(SweepCell::toString).containsExactly(
                "client-leader-aware 1x1", "client-smart 1x1", "client-leader-aware 2x1", "client-smart 2x1",
                "client-leader-aware 1x4", "client-smart 1x4", "client-leader-aware 2x4", "client-smart 2x4");
        // 8 cells x 3 repeats x (10 s + 3 s + 3 s of set-up)
        assertThat(g.estimate(Duration.ofSeconds(20))).isEqualTo(Duration.ofSeconds(8 * 3 * 16));
        assertThat(g.clusterPerSetting()).isFalse();
        assertThat(g.clusterPerRepeat()).isFalse();
    }

    @Test
    void freshClustersStartOnePerRepeatAndTheEstimateCountsThem() {
        SweepGrid g = grid(List.of("client-leader-aware", "client-smart"), List.of(1), List.of(1, 4), List.of(), null, true);
        assertThat(g.clusterPerSetting()).isFalse();
        assertThat(g.clusterPerRepeat()).isTrue();
        // 4 cells x 3 repeats x 16 s, and 2 more clusters (repeats 2 and 3) at 30 s start + 20 s warm-up
        assertThat(g.estimate(Duration.ofSeconds(20))).isEqualTo(Duration.ofSeconds(4 * 3 * 16 + 2 * 50));
        assertThat(g.describe()).contains("(a fresh cluster per repeat)");
        // several member settings start a cluster per repeat anyway
        SweepGrid settings = grid(List.of("client-smart"), List.of(1), List.of(1), List.of(),
                SweepGrid.memberGrid(SweepGrid.parseVary(List.of("io-threads=1,3"))), false);
        assertThat(settings.clusterPerRepeat()).isTrue();
        assertThat(settings.describe()).doesNotContain("fresh cluster per repeat");
    }

    @Test
    void eachCellsLoadRunsItsOwnWorkersOrRate() {
        SweepGrid closed = grid(List.of("client-smart"), List.of(1, 2), List.of(1, 8), List.of(), null);
        for (SweepCell c : closed.cells()) {
            io.cpbench.core.load.LoadSpec spec = SweepRun.cellSpec(closed, c, 7L);
            assertThat(spec.workers()).isEqualTo(c.workers());
            assertThat(spec.profile().startLevel()).as(c.toString()).isEqualTo(c.workers());
            assertThat(spec.profile().peak()).as(c.toString()).isEqualTo(c.workers());
            assertThat(spec.open()).isFalse();
            assertThat(spec.profile().totalNanos()).isEqualTo(Duration.ofSeconds(10).toNanos());
        }
        SweepGrid open = grid(List.of("client-smart"), List.of(1), List.of(16), List.of(500.0, 2000.0), null);
        assertThat(open.cells()).extracting(c -> SweepRun.cellSpec(open, c, null).profile().peak()).containsExactly(500.0, 2000.0);
        assertThat(open.cells()).allSatisfy(c -> assertThat(SweepRun.cellSpec(open, c, null).open()).isTrue());
    }

    @Test
    void memberSettingsMultiplyAndEachIsAClusterOfItsOwn() {
        List<MemberTuning> settings = SweepGrid.memberGrid(SweepGrid.parseVary(List.of("operation-threads=1,2", "io-threads=1,3")));
        assertThat(settings).extracting(MemberTuning::describe).containsExactly(
                "operation-threads=1, io-threads=1", "operation-threads=1, io-threads=3",
                "operation-threads=2, io-threads=1", "operation-threads=2, io-threads=3");
        SweepGrid g = grid(List.of("client-smart"), List.of(1), List.of(1, 8), List.of(), settings);
        assertThat(g.cells()).hasSize(8);
        assertThat(g.cells().get(0).series()).isEqualTo("client-smart [operation-threads=1, io-threads=1]");
        // 8 cells x 3 x 16 s, and 4 x 3 - 1 more clusters at 30 s start + 20 s warm-up
        assertThat(g.estimate(Duration.ofSeconds(20))).isEqualTo(Duration.ofSeconds(8 * 3 * 16 + 11 * 50));
        assertThat(SweepGrid.memberGrid(Map.of())).containsExactly(MemberTuning.NONE);
    }

    @Test
    void aGridFileIsReadAndEveryMistakeIsOneLineNamingTheFile() throws Exception {
        Path file = dir.resolve("grid.yaml");
        Files.writeString(file, """
                scenarios: [client-leader, client-follower]
                threads: [1, 2, 4]
                rates: 100,200
                duration: 2s
                repeats: 2
                slo: p99.9<20ms
                members: {operation-threads: [2, 4]}
                fresh-clusters: true
                """);
        SweepGrid.FileValues v = SweepGrid.readFile(file);
        assertThat(v.scenarios()).containsExactly("client-leader", "client-follower");
        assertThat(v.threads()).containsExactly(1, 2, 4);
        assertThat(v.rates()).containsExactly(100.0, 200.0);
        assertThat(v.duration()).isEqualTo(Duration.ofSeconds(2));
        assertThat(v.clients()).isNull();
        assertThat(v.members()).containsEntry("operation-threads", List.of(2, 4));
        assertThat(v.freshClusters()).isTrue();
        Files.writeString(file, "fresh-clusters: sometimes\n");
        assertThatThrownBy(() -> SweepGrid.readFile(file)).hasMessage(file + ": fresh-clusters must be true or false, was 'sometimes'");

        Files.writeString(file, "threads: [1, two]\n");
        assertThatThrownBy(() -> SweepGrid.readFile(file)).hasMessage(file + ": threads[1] must be a whole number, was 'two'");
        assertThat(SweepGrid.KEYS).as("the keys a grid file may give").containsExactly("clients", "duration",
                "fresh-clusters", "members", "mix", "rates", "repeats", "scenarios", "slo", "threads", "warmup");
        Files.writeString(file, "thread: [1]\n");
        assertThatThrownBy(() -> SweepGrid.readFile(file)).as("the keys the record maps are the grid's KEYS")
                .hasMessage(file + ": unknown key 'thread'; known: " + String.join(", ", SweepGrid.KEYS));
        Files.writeString(file, "threads: 1,2, 4\nrepeats: '3'\nfresh-clusters: 'false'\nscenarios: client-smart\n");
        SweepGrid.FileValues words = SweepGrid.readFile(file);
        assertThat(words.threads()).as("a grid written by a script: words and text for numbers").containsExactly(1, 2, 4);
        assertThat(words.repeats()).isEqualTo(3);
        assertThat(words.freshClusters()).isFalse();
        assertThat(words.scenarios()).containsExactly("client-smart");
        Files.writeString(file, "members: {operation-threads: [1, x]}\n");
        assertThatThrownBy(() -> SweepGrid.readFile(file)).hasMessage(file + ": members.operation-threads[1] must be a whole number, was 'x'");
        Files.writeString(file, "- a\n- list\n");
        assertThatThrownBy(() -> SweepGrid.readFile(file)).hasMessageContaining(": a grid is a mapping of keys (clients, ");
        Files.writeString(file, "");
        assertThat(SweepGrid.readFile(file)).isEqualTo(SweepGrid.FileValues.NONE);
        Files.writeString(file, "members: [1, 2]\n");
        assertThatThrownBy(() -> SweepGrid.readFile(file)).hasMessageContaining("members must map settings to lists");
        Files.writeString(file, "duration: soon\n");
        assertThatThrownBy(() -> SweepGrid.readFile(file)).hasMessageStartingWith(file + ": duration: ");
        assertThatThrownBy(() -> SweepGrid.readFile(dir.resolve("missing.yaml"))).hasMessageContaining("cannot read");
    }

    @Test
    void impossibleGridsAreRefusedBeforeAnythingStarts() {
        assertThatThrownBy(() -> grid(List.of("client-smart-10ms"), List.of(1), List.of(1), List.of(), null))
                .hasMessageContaining("network (b) scenario");
        assertThatThrownBy(() -> grid(List.of("client-smart", "client-smart"), List.of(1), List.of(1), List.of(), null))
                .hasMessageContaining("named twice");
        assertThatThrownBy(() -> grid(List.of("nope"), List.of(1), List.of(1), List.of(), null))
                .hasMessageContaining("unknown scenario 'nope'");
        assertThatThrownBy(() -> grid(List.of("client-smart"), List.of(64), List.of(1024), List.of(), null))
                .hasMessageContaining("over 4096 workers");
        assertThatThrownBy(() -> grid(List.of("client-smart"), List.of(1), List.of(1), List.of(-5.0), null))
                .hasMessageContaining("rates must be above 0");
        assertThatThrownBy(() -> SweepGridBuilder.builder().scenarios(List.of("client-smart")).clients(List.of(1))
                .threads(List.of(1)).rates(List.of()).mix("cas").duration(Duration.ofSeconds(10))
                .warmup(Duration.ZERO).repeats(3).slo(Threshold.parse("rate>100")).build())
                .hasMessageContaining("latency bound");
        assertThatThrownBy(() -> SweepGridBuilder.builder().scenarios(List.of("client-smart")).clients(List.of(1))
                .threads(List.of(1)).rates(List.of()).mix("cas").duration(Duration.ofSeconds(10))
                .warmup(Duration.ZERO).repeats(3).slo(Threshold.parse("lock:p99<1ms")).build())
                .hasMessageContaining("not in the mix");
        assertThatThrownBy(() -> SweepGrid.memberGrid(SweepGrid.parseVary(List.of("operation-thread=1,2"))))
                .hasMessageContaining("unknown member setting 'operation-thread'; known: operation-threads,");
        assertThatThrownBy(() -> SweepGrid.memberGrid(SweepGrid.parseVary(List.of("io-threads=0"))))
                .hasMessageContaining("io-threads must be 1-64, was 0");
        assertThatThrownBy(() -> SweepGrid.parseVary(List.of("io-threads"))).hasMessageContaining("must read KNOB=V1,V2");
    }
}
