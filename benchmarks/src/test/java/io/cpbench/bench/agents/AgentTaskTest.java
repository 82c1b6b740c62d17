package io.cpbench.bench.agents;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an agent does with a sealed job that reaches it, through the task itself (as the control cluster's executor
 * calls it): one it has run before is refused as a replay, one sealed under another secret is refused, a new one is run.
 * The job's spec is one no agent reads, so a job that is run ends at once, before any client connects: what matters
 * here is whether it got that far.
 */
class AgentTaskTest {

    private final ControlSecret secret = ControlSecret.generate();

    @AfterEach
    void forgetTheSecret() {
        AgentState.secret(null);
    }

    private static AgentJob job(String run, String agent) {
        return new AgentJob(run, agent, "{\"not\": \"a spec\"", "client-leader",
                new AgentJob.Target("dev", List.of("127.0.0.1:1"), 100, "fast"), 0, false);
    }

    private static AgentReport call(String sealed) throws Exception {
        return AgentTask.JSON.readValue(new AgentTask(sealed).call(), AgentReport.class);
    }

    private String sealed(AgentJob job) throws Exception {
        return secret.seal(AgentTask.JSON.writeValueAsString(job), AgentTask.JOB_VALID);
    }

    @Test
    void aJobSentAgainIsRefusedAsAReplay() throws Exception {
        AgentState.secret(secret);
        String run = "run-" + System.nanoTime();
        String sealed = sealed(job(run, "agent-1"));

        AgentReport first = call(sealed);
        assertThat(first.error()).as("run: the spec was read (and refused), so the job got past the seal and replay checks")
                .startsWith("the spec it was sent is not one it reads");
        assertThat(first.agent()).isEqualTo("agent-1");

        AgentReport again = call(sealed);
        assertThat(again.error()).isEqualTo("refused a job for run " + run + " that it was sent before (a replay)");
        assertThat(again.agent()).as("a refused job names no agent: it is not one's report").isNull();

        AgentReport resealed = call(sealed(job(run, "agent-1")));
        assertThat(resealed.error()).as("sealed anew, the same run and agent are still a replay").contains("(a replay)");

        AgentReport otherAgent = call(sealed(job(run, "agent-2")));
        assertThat(otherAgent.error()).as("another agent's part of the same run").startsWith("the spec it was sent");
    }

    @Test
    void aJobSealedUnderAnotherSecretIsRefused() throws Exception {
        AgentState.secret(ControlSecret.generate());
        AgentReport report = call(sealed(job("run-" + System.nanoTime(), "agent-1")));
        assertThat(report.error()).isEqualTo("refused a job not sealed with this control cluster's secret, or past its deadline");
    }
}
