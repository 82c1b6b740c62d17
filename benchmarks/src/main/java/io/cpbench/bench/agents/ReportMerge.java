package io.cpbench.bench.agents;

import com.hazelcast.cluster.Member;
import io.cpbench.core.history.Event;
import io.cpbench.core.history.HistoryRecorder;
import io.cpbench.core.load.LoadMerge;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadResultBuilder;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.run.Driver;
import io.cpbench.core.status.Status;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The agents' reports of one run, opened (each sealed for this run and agent) and merged exactly ({@link LoadMerge}):
 * an agent that did not report, or whose report cannot be trusted, is a row saying why, and the run is INCOMPLETE
 * with the others' numbers kept; their histories go onto the coordinator's clock, each agent's processes apart.
 */
final class ReportMerge {

    private final ControlSecret secret;
    /** The agents that left the control cluster during the run. */
    private final Map<String, Long> lost;

    ReportMerge(ControlSecret secret, Map<String, Long> lost) {
        this.secret = secret;
        this.lost = lost;
    }

    AgentPool.Merged merge(LoadSpec spec, List<AgentClocks.Clock> clocks, Map<String, Future<String>> futures, HistoryRecorder history,
                         String run, Map<String, Member> agents) {
        List<LoadMerge.Part> parts = new ArrayList<>();
        List<Event> events = history == null ? null : new ArrayList<>();
        long originMicros = history == null ? 0 : AgentState.nowMicros() - history.now() / 1000;
        int n = futures.size();
        List<LoadResult.AgentRow> rows = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, Future<String>> f : futures.entrySet()) {
            String agent = f.getKey();
            double offset = clocks.get(i++).offsetMs();
            AgentReport report = null;
            String why;
            if (f.getValue().isDone()) {
                try {
                    report = AgentTask.openReport(f.getValue().get(), secret, run, agent,
                            agents.get(agent).getUuid().toString());
                    why = report == null ? "returned a report not sealed with the secret for this run and agent: left out"
                            : report.error();
                } catch (ExecutionException e) {
                    why = lost.containsKey(agent) ? "left the control cluster mid-run" : "failed: " + Driver.describe(e.getCause());
                } catch (Exception e) {
                    why = "returned what the coordinator cannot read: " + Driver.describe(e);
                }
            } else {
                f.getValue().cancel(true);
                why = lost.containsKey(agent) ? "left the control cluster mid-run" : "did not report in time";
            }
            if (report != null && report.result() != null) {
                parts.add(new LoadMerge.Part(agent, report.result(), report.parts(), offset));
                if (events != null && report.history() != null) {
                    int index = i; // 1-based: i was incremented past this agent
                    events.addAll(report.history().events(originMicros, offset, p -> p >= 0 ? p * n + index - 1 : -index));
                }
                rows.add(new LoadResult.AgentRow(agent, report.host(), offset, report.result().outcome(),
                        report.result().reason(), report.result().total().all(), report.result().histograms(), null));
            } else {
                missing.add(agent + " " + why);
                rows.add(new LoadResult.AgentRow(agent, report == null ? null : report.host(), offset, null, why, null,
                        null, null));
            }
        }
        if (parts.isEmpty()) {
            throw new IllegalStateException("no agent returned a result: " + String.join("; ", missing));
        }
        if (events != null) {
            events.sort(java.util.Comparator.comparingLong(Event::time));
        }
        LoadResult merged = LoadMerge.merge(spec, parts, rows);
        if (missing.isEmpty()) {
            return new AgentPool.Merged(merged, events);
        }
        String reason = String.join("; ", missing) + "; the other agents' numbers are kept"
                + (merged.reason() == null ? "" : "; " + merged.reason());
        return new AgentPool.Merged(LoadResultBuilder.builder(merged).outcome(Status.worse(merged.outcome(), Status.INCOMPLETE))
                .reason(reason).build(), events);
    }
}
