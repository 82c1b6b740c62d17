package io.cpbench.bench.agents;

import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.load.Stage;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadSplitTest {

    @Test
    void clientsSplitBetweenAgentsEachOnObjectsOfItsOwn() {
        LoadSpec spec = LoadSpec.builder().mix("cas=3,get=1").clients(6).threads(2).duration(Duration.ofSeconds(5))
                .threshold("p99<10ms").build();
        List<LoadSpec> slices = LoadSplit.split(spec, 3);
        assertThat(slices).hasSize(3).allSatisfy(s -> {
            assertThat(s.clients()).isEqualTo(2);
            assertThat(s.threads()).isEqualTo(2);
            assertThat(s.mix()).isEqualTo(spec.mix());
            assertThat(s.thresholds()).as("judged once, on the merged run").isEmpty();
        });
        assertThat(slices).extracting(LoadSpec::prefix).doesNotHaveDuplicates().allMatch(p -> p.startsWith(spec.prefix()));
        assertThat(slices).extracting(LoadSpec::seed).doesNotHaveDuplicates();
    }

    @Test
    void oneClientsThreadsSplitAndAnOpenLoopsRateStageByStage() {
        LoadSpec spec = LoadSpec.builder().mix("get").clients(1).threads(8).rate(100)
                .stages(List.of(new Stage(Duration.ofSeconds(2), 100), new Stage(Duration.ofSeconds(2), 400))).build();
        List<LoadSpec> slices = LoadSplit.split(spec, 4);
        assertThat(slices).allSatisfy(s -> {
            assertThat(s.clients()).isEqualTo(1);
            assertThat(s.threads()).isEqualTo(2);
            assertThat(s.profile().stages()).extracting(Stage::target).containsExactly(25.0, 100.0);
            assertThat(s.profile().totalOps() * 4).isEqualTo(spec.profile().totalOps());
        });
    }

    @Test
    void wholeNumbersSplitWithTheirRemaindersAndTheSharesSumToTheRequest() {
        LoadSpec threads = LoadSpec.builder().mix("cas").clients(1).threads(10).build();
        List<LoadSpec> byThreads = LoadSplit.split(threads, 3);
        assertThat(byThreads).extracting(LoadSpec::threads).containsExactly(4, 3, 3);
        assertThat(byThreads).extracting(LoadSpec::clients).containsExactly(1, 1, 1);
        assertThat(LoadSplit.describeShare(byThreads.get(0))).isEqualTo("1 client x 4 threads");

        LoadSpec clients = LoadSpec.builder().mix("cas").clients(10).threads(2).build();
        assertThat(LoadSplit.split(clients, 3)).extracting(LoadSpec::clients).containsExactly(4, 3, 3);
        assertThat(LoadSplit.split(clients, 4)).extracting(LoadSpec::clients).containsExactly(3, 3, 2, 2);

        LoadSpec workers = LoadSpec.builder().mix("cas").clients(3).threads(4)
                .stages(List.of(new Stage(Duration.ofSeconds(2), 10), new Stage(Duration.ofSeconds(2), 5))).build();
        List<LoadSpec> levels = LoadSplit.split(workers, 3);
        assertThat(levels).extracting(s -> s.profile().stages().get(0).target()).containsExactly(4.0, 3.0, 3.0);
        assertThat(levels).extracting(s -> s.profile().stages().get(1).target()).containsExactly(2.0, 2.0, 1.0);
        // the ramp's start (1 worker) splits down to 0: 1+0+0
        assertThat(levels).extracting(s -> s.profile().startLevel()).containsExactly(1.0, 0.0, 0.0);
        assertThat(LoadSplit.describeShare(levels.get(0))).isEqualTo("1 client x 4 threads, 1 -> 4 -> 2 workers");
        assertThat(LoadSplit.describeShare(levels.get(2))).isEqualTo("1 client x 4 threads, 3 -> 1 workers");

        LoadSpec rate = LoadSpec.builder().mix("get").clients(3).threads(2).rate(100).build();
        List<LoadSpec> rates = LoadSplit.split(rate, 3);
        assertThat(rates.stream().mapToDouble(s -> s.profile().stages().get(0).target()).sum()).isCloseTo(100.0,
                org.assertj.core.api.Assertions.within(1e-9));
        assertThat(LoadSplit.describeShare(rates.get(0))).isEqualTo("1 client x 2 threads, 33.33 op/s");

        LoadSpec count = clients.toBuilder().bounds(new LoadSpec.Bounds(0, 1_000, Duration.ofMinutes(1), 0)).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoadSplit.split(count, 3))
                .hasMessageContaining("cannot split a count of ops");
    }

    @Test
    void whatDoesNotSplitIsRefusedWithWhatWould() {
        LoadSpec fewer = LoadSpec.builder().mix("cas").clients(2).threads(3).build();
        assertThatThrownBy(() -> LoadSplit.split(fewer, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--agents 3 cannot split 2 clients x 3 threads: each agent needs a client of its own (give"
                        + " --clients 3 or more), or, with 1 client, a thread of its own (--threads 3 or more)");
        LoadSpec small = LoadSpec.builder().mix("cas").clients(3).threads(1)
                .stages(List.of(new Stage(Duration.ofSeconds(2), 2))).build();
        assertThatThrownBy(() -> LoadSplit.split(small, 3)).hasMessage("--agents 3 cannot split a level of 2 workers:"
                + " each agent needs a whole worker at least (a level of 0, or 3 or more)");
        LoadSpec abort = LoadSpec.builder().mix("cas").clients(2).threshold("p99<1ms").abortOnFail(true).build();
        assertThatThrownBy(() -> LoadSplit.split(abort, 2)).hasMessageContaining("abortOnFail is not supported");
    }

    /**
     * An agent's history travels as JSON and comes back as the events it was (a write's value and a cas's pair as
     * longs), moved onto the coordinator's clock by the agent's offset, its processes mapped.
     */
    @Test
    void anAgentsHistoryReadsBackOnTheCoordinatorsClockWithItsProcessesMapped() throws Exception {
        List<io.cpbench.core.history.Event> sent = List.of(
                io.cpbench.core.history.Event.invoke(3, "cas", "k-a2-reg", List.of(1L, 2L), 1_000),
                new io.cpbench.core.history.Event(3, io.cpbench.core.history.Event.Type.OK, "cas", "k-a2-reg",
                        List.of(1L, 2L), 2_000, null),
                io.cpbench.core.history.Event.invoke(-1, "write", "k-a2-reg", 7L, 3_000));
        // the agent's history began at 1,000,000 µs on its clock, which runs 2 ms ahead of the coordinator's; the
        // coordinator's began at 998,500 µs: on the coordinator's history clock, the agent's began at -500 µs
        AgentReport.History history = new AgentReport.History(1_000_000, sent.stream().map(AgentReport.Line::of).toList());
        AgentReport.History read = AgentTask.JSON.readValue(AgentTask.JSON.writeValueAsString(history), AgentReport.History.class);

        List<io.cpbench.core.history.Event> events = read.events(998_500, 2.0, p -> p >= 0 ? p * 3 + 1 : -2);

        assertThat(events).extracting(io.cpbench.core.history.Event::time).containsExactly(-499_000L, -498_000L, -497_000L);
        assertThat(events).extracting(io.cpbench.core.history.Event::process).containsExactly(10L, 10L, -2L);
        assertThat(events.get(0).pair()).containsExactly(1L, 2L);
        assertThat(events.get(2).value()).isEqualTo(7L);
        assertThat(events.get(1).type()).isEqualTo(io.cpbench.core.history.Event.Type.OK);
    }
}
