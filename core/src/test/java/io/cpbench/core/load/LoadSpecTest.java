package io.cpbench.core.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadSpecTest {

    @TempDir
    Path dir;

    private LoadSpec yaml(String text) throws Exception {
        Path file = dir.resolve("spec.yaml");
        Files.writeString(file, text);
        return LoadSpec.fromYaml(file);
    }

    @Test
    void readsAFullSpec() throws Exception {
        LoadSpec spec = yaml("""
                mix: {cas: 3, get: 1, increment: 2, lock: 1}
                objects: {count: 4, prefix: orders, groups: [default, g1]}
                clients: 10
                threads: 5
                schedule:
                  mode: open
                  start: 100
                  stages: ["30s:500", {duration: 1m, target: 2000}, "30s:0"]
                  warmup: 2s
                thresholds: ["cas:p99<5ms", "error_rate<0.1%"]
                abortOnFail: true
                seed: 42
                """);
        assertThat(spec.mix()).containsEntry(OpType.CAS, 3).containsEntry(OpType.LOCK, 1).hasSize(4);
        assertThat(spec.objects()).isEqualTo(4);
        assertThat(spec.groups()).containsExactly("default", "g1");
        assertThat(spec.objectGroups()).containsExactly("default", "g1");
        assertThat(spec.workers()).isEqualTo(50);
        assertThat(spec.open()).isTrue();
        assertThat(spec.profile().startLevel()).isEqualTo(100);
        assertThat(spec.profile().stages()).hasSize(3);
        assertThat(spec.profile().totalNanos()).isEqualTo(Duration.ofMinutes(2).toNanos());
        assertThat(spec.thresholds()).hasSize(2);
        assertThat(spec.abortOnFail()).isTrue();
        assertThat(spec.seed()).isEqualTo(42);
        assertThat(spec.summary()).contains("open loop", "from 100 op/s", "10 clients x 5 threads");
        // what the result records reads back to the same spec
        LoadSpec again = LoadSpec.fromTree(new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(spec.describe()),
                Set.of()).build();
        assertThat(again.describe()).isEqualTo(spec.describe());
    }

    @Test
    void namedObjectsAreKeptAsGivenAndCountThemselves() throws Exception {
        LoadSpec spec = yaml("mix: {increment: 1}\nobjects: {names: [orders, 'payments@g1']}\n");
        assertThat(spec.objects()).isEqualTo(2);
        assertThat(spec.names()).containsExactly("orders", "payments@g1");
        assertThat(spec.objectGroups()).containsExactly("default", "g1");
        assertThat(yaml("objects: {count: 1, groups: [g1, g2]}\n").objectGroups()).as("only the groups objects are in")
                .containsExactly("g1");
        assertThat(LoadSpec.fromTree(new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(spec.describe()), Set.of())
                .build().names()).containsExactly("orders", "payments@g1");
        assertThatThrownBy(() -> yaml("objects: {names: [orders, orders]}\n")).hasMessageContaining("given twice");
        assertThatThrownBy(() -> yaml("objects: {names: ['bad name']}\n")).hasMessageContaining("not a CP object name");
        assertThatThrownBy(() -> yaml("objects: {count: 3, names: [a, b]}\n")).hasMessageContaining("count is 3 but 2 names");
    }

    @Test
    void flatClosedLoopRunsEveryWorker() {
        LoadSpec spec = LoadSpec.builder().mix("cas,get").clients(2).threads(3).duration(Duration.ofSeconds(10)).build();
        assertThat(spec.open()).isFalse();
        assertThat(spec.profile().levelAt(5_000_000_000L)).isEqualTo(6);
        assertThat(spec.mix()).containsEntry(OpType.CAS, 1).containsEntry(OpType.GET, 1);
    }

    @Test
    void badSpecsNameTheField() {
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nschedul: {duration: 10s}\n"))
                .hasMessageContaining("unknown field 'schedul'");
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nschedule: {duraton: 10s}\n"))
                .hasMessageContaining("unknown field 'schedule.duraton'");
        assertThatThrownBy(() -> yaml("mix: {caz: 1}\n")).hasMessageContaining("mix: unknown op 'caz'");
        assertThatThrownBy(() -> yaml("mix: {cas: -1}\n")).hasMessageContaining("weight of cas");
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nclients: many\n")).hasMessageContaining("clients must be a whole number");
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nclients: 0\n")).hasMessageContaining("clients must be 1-256");
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nschedule: {duration: soon}\n"))
                .hasMessageContaining("schedule.duration: 'soon' is not a duration");
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nschedule: {stages: ['30s-10']}\n"))
                .hasMessageContaining("must be DURATION:TARGET");
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nthreads: 2\nschedule: {stages: ['10s:5']}\n"))
                .hasMessageContaining("ramps up to 5 workers, but clients x threads is 2");
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nthresholds: ['lock:p99<1ms']\n"))
                .hasMessageContaining("op lock is not in the mix");
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nschedule: {mode: open, duration: 10s}\n"))
                .hasMessageContaining("needs a rate");
        assertThatThrownBy(() -> yaml("mix: {cas: 1, noop: 1}\n")).hasMessageContaining("cannot be mixed");
        // call is the engine's own op for a caller's workload (a scenario run): no spec names it, and no list shows it
        assertThatThrownBy(() -> yaml("mix: {call: 1}\n")).hasMessageContaining("unknown op 'call'");
        org.assertj.core.api.Assertions.assertThat(OpType.known()).contains("noop").doesNotContain("call");
        assertThatThrownBy(() -> yaml("- just\n- a list\n")).hasMessageContaining("not a load spec");
        assertThatThrownBy(() -> yaml("mix: {cas: 1\n")).hasMessageContaining("cannot read");
        assertThatThrownBy(() -> yaml("objects: {groups: ['bad group']}\n")).hasMessageContaining("not a CP group name");
    }
}
