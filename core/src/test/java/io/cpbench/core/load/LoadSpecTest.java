package io.cpbench.core.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
        // mapped by Jackson, each mistake one line with the field's path, whatever its shape
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nschedule: {stages: ['10s:1', {duration: 5s}]}\n"))
                .hasMessageEndingWith(": schedule.stages[1]: each stage needs duration and target, like {duration: 30s, target: 10} or '30s:10'");
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nschedule: {stages: ['10s:1', {duration: 5s, target: x}]}\n"))
                .hasMessageEndingWith(": schedule.stages[1].target must be a number, was 'x'");
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nschedule: {stages: [{duration: 5s, targt: 1}]}\n"))
                .hasMessageEndingWith(": unknown field 'schedule.stages[0].targt'; known: duration, target");
        assertThatThrownBy(() -> yaml("mix: [cas]\n"))
                .hasMessageEndingWith(": mix must be op: weight pairs, like {cas: 3, increment: 1}, was a list");
        assertThatThrownBy(() -> yaml("mix: {cas: }\n")).hasMessageEndingWith(": mix.cas must be a whole number, was null");
        assertThatThrownBy(() -> yaml("mix: {cas: 1.5}\n")).hasMessageEndingWith(": mix.cas must be a whole number, was 1.5");
        assertThatThrownBy(() -> yaml("mix: {cas: 1}\nclients: '5'\n")).as("a number is written as a number")
                .hasMessageEndingWith(": clients must be a whole number, was '5'");
        assertThatThrownBy(() -> yaml("abortOnFail: 'yes'\n")).hasMessageEndingWith(": abortOnFail must be true or false, was 'yes'");
        assertThatThrownBy(() -> yaml("thresholds: 'cas:p99<1ms'\n"))
                .hasMessageEndingWith(": thresholds must be a list, like ['cas:p99<5ms', 'error_rate<0.1%'], was 'cas:p99<1ms'");
        assertThatThrownBy(() -> yaml("objects: {names: orders}\n"))
                .hasMessageEndingWith(": objects.names must be a list, like [orders, payments@g1], was 'orders'");
        assertThatThrownBy(() -> yaml("schedule: {duration: [1]}\n"))
                .hasMessageEndingWith(": schedule.duration must be a duration, like 30s, was a list");
        assertThatThrownBy(() -> yaml("seed: 1.5\n")).hasMessageEndingWith(": seed must be a whole number, was 1.5");
        assertThatThrownBy(() -> yaml("schedule: {mode: sometimes}\n")).hasMessageEndingWith(": schedule.mode must be open or closed, was 'sometimes'");
    }

    @Test
    void everyShapeAFieldTakesIsRead() throws Exception {
        LoadSpec staged = yaml("mix: {cas: 1}\nthreads: 4\nschedule: {stages: '10s:1,20s:4'}\ninterval: 2\n");
        assertThat(staged.profile().stages()).extracting(Object::toString).containsExactly("10s:1", "20s:4");
        assertThat(staged.interval()).isEqualTo(Duration.ofSeconds(2));
        LoadSpec oneGroup = yaml("objects: {groups: g1, count: 1, prefix: 12}\n");
        assertThat(oneGroup.groups()).containsExactly("g1");
        assertThat(oneGroup.describe().toString()).contains("12");
        LoadSpec withCaller = LoadSpec.fromTree(LoadSpec.readTree("scenario: client-smart\nmix: {get: 2}\n"), Set.of("scenario")).build();
        assertThat(withCaller.mix()).containsExactly(java.util.Map.entry(OpType.GET, 2));
        assertThatThrownBy(() -> LoadSpec.fromTree(LoadSpec.readTree("scenario: client-smart\n"), Set.of()))
                .hasMessageStartingWith("unknown field 'scenario'; known: ");
    }

    @Test
    void aScenarioIsAClosedLoopBoundedByOpCountsWhoseScheduleFollowsItsTimeBox() {
        LoadSpec seed = LoadSpec.scenario().build();
        assertThat(seed.mix()).containsOnlyKeys(OpType.CALL);
        assertThat(seed.warmup()).isEqualTo(Duration.ofSeconds(10));
        assertThat(seed.bounds()).isEqualTo(new LoadSpec.Bounds(0, 500_000, Duration.ofMinutes(10), 100));
        assertThat(seed.threads()).isEqualTo(1);
        assertThat(seed.measuredFor()).isNull();
        assertThat(seed.profile().totalNanos()).as("an op count runs until the time box").isEqualTo(Duration.ofMinutes(10).toNanos());
        LoadSpec longer = seed.toBuilder().timebox(Duration.ofMinutes(20)).build();
        assertThat(longer.profile().totalNanos()).isEqualTo(Duration.ofMinutes(20).toNanos());
        assertThat(seed.toBuilder().timebox(Duration.ofDays(3)).build().profile().totalNanos())
                .isEqualTo(Duration.ofHours(24).toNanos());
        LoadSpec timed = seed.toBuilder().duration(Duration.ofSeconds(30)).threads(4).build();
        assertThat(timed.bounds().ops()).isZero();
        assertThat(timed.measuredFor()).isEqualTo(Duration.ofSeconds(30));
        assertThat(timed.toBuilder().timebox(Duration.ofMinutes(1)).build().measuredFor()).isEqualTo(Duration.ofSeconds(30));
        assertThat(timed.toBuilder().ops(7).build().bounds().ops()).isEqualTo(7);
        // a timed copy given a new duration measures for it: its flat schedule gives way (the warm-up round's plan)
        assertThat(timed.toBuilder().duration(Duration.ofSeconds(5)).build().measuredFor()).isEqualTo(Duration.ofSeconds(5));
        // a staged schedule does not: a duration beside stages is still refused
        LoadSpec staged = LoadSpec.builder().threads(4).stages("5s:2,5s:4").build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> staged.toBuilder().duration(Duration.ofSeconds(5)).build())
                .hasMessageContaining("give either a duration or stages, not both");
        // what a result records reads back to the same spec (with ops of the mix: a caller's own op is never read)
        for (LoadSpec bounded : List.of(seed, timed, seed.toBuilder().warmupOps(500).build())) {
            LoadSpec spec = bounded.toBuilder().op(OpType.CALL, 0).op(OpType.CAS, 1).build();
            assertThat(LoadSpec.fromTree(new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(spec.describe()),
                    Set.of()).build().describe()).isEqualTo(spec.describe()).containsKey("bounds");
        }
    }

    @Test
    void aWarmupIsATimeOrAnOpCountNeverBoth() {
        LoadSpec ops = LoadSpec.scenario().warmup(Duration.ofSeconds(3)).warmupOps(500).build();
        assertThat(ops.bounds().warmupOps()).isEqualTo(500);
        assertThat(ops.warmup()).isZero();
        assertThat(ops.warmupText()).isEqualTo("500 ops");
        LoadSpec time = ops.toBuilder().warmup(Duration.ofSeconds(3)).build();
        assertThat(time.bounds().warmupOps()).isZero();
        assertThat(time.warmupText()).isEqualTo("3s");
        assertThat(time.toBuilder().build().describe()).isEqualTo(time.describe());
        assertThatThrownBy(() -> LoadSpec.builder().warmupOps(5).build()).hasMessageContaining("need a time box");
    }

    @Test
    void badBoundsGetAReadableMessage() throws Exception {
        assertThatThrownBy(() -> LoadSpec.scenario().ops(0)).hasMessage("ops must be a positive number, was 0");
        assertThatThrownBy(() -> LoadSpec.scenario().ops(-5)).hasMessageContaining("-5");
        assertThatThrownBy(() -> LoadSpec.scenario().warmupOps(-1).build()).hasMessageContaining("op counts must be 0 or more");
        assertThatThrownBy(() -> LoadSpec.scenario().threads(0).build()).hasMessageContaining("threads");
        assertThatThrownBy(() -> LoadSpec.scenario().timebox(Duration.ZERO).build()).hasMessageContaining("timebox must be positive");
        assertThatThrownBy(() -> LoadSpec.scenario().warmup(Duration.ofSeconds(-1)).build()).hasMessageContaining("warmup");
        assertThatThrownBy(() -> LoadSpec.scenario().op(OpType.CALL, 0).op(OpType.CAS, 1).rate(100).build())
                .hasMessageContaining("closed loop");
        assertThatThrownBy(() -> LoadSpec.scenario().stages("10s:1").build()).hasMessageContaining("ops to measure or stages");
        assertThatThrownBy(() -> yaml("bounds: {ops: 10}\n")).hasMessageContaining("bounds.timebox");
        assertThatThrownBy(() -> yaml("bounds: {timebox: 1m, opps: 10}\n")).hasMessageContaining("unknown field 'bounds.opps'");
        assertThat(yaml("bounds: {timebox: 1m, ops: 10}\n").bounds()).isEqualTo(new LoadSpec.Bounds(0, 10, Duration.ofMinutes(1), 0));
    }
}
