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

    /** This test's agent: agent-1, as its control member would be known. */
    private static final java.util.UUID SELF = java.util.UUID.randomUUID();

    @org.junit.jupiter.api.BeforeEach
    void beAgentOne() {
        AgentState.identity("agent-1", SELF);
    }

    @AfterEach
    void forgetTheSecret() {
        AgentState.secret(null);
        AgentState.identity(null, null);
    }

    private static AgentJob job(String run, String agent) {
        return job(run, agent, agent.equals("agent-1") ? SELF.toString() : java.util.UUID.randomUUID().toString());
    }

    private static AgentJob job(String run, String agent, String member) {
        return new AgentJob(run, agent, "{\"not\": \"a spec\"", "client-leader",
                new AgentJob.Target("dev", List.of("127.0.0.1:1"), 100, "fast", false), 0, false, member,
                java.util.UUID.randomUUID().toString());
    }

    /** The task's answer, opened as the coordinator opens it (sealed, bound to the run, agent-1 and its member). */
    private AgentReport call(String sealed) throws Exception {
        String answer = new AgentTask(sealed).call();
        ControlSecret opener = secretInUse == null ? secret : secretInUse;
        String run = AgentTask.JSON.readTree(opener.open(sealed) == null ? "{}" : opener.open(sealed)).path("run").asText("-");
        AgentReport report = AgentTask.openReport(answer, opener, run, "agent-1", SELF.toString());
        assertThat(report).as("the answer, sealed and bound to run " + run + ", agent-1 and its member").isNotNull();
        return report;
    }

    /** The secret the agent holds, when not {@link #secret}. */
    private ControlSecret secretInUse;

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

        AgentReport otherAgent = call(sealed(job(run + "-b", "agent-1")));
        assertThat(otherAgent.error()).as("agent-1's part of another run").startsWith("the spec it was sent");
    }

    /** A sealed job for another agent (read off the wire, sent to this one) is refused, however new. */
    @Test
    void aJobForAnotherAgentIsRefused() throws Exception {
        AgentState.secret(secret);
        String run = "run-" + System.nanoTime();
        AgentReport forTwo = call(sealed(job(run, "agent-2")));
        assertThat(forTwo.error()).startsWith("refused a job for agent-2 (member ").endsWith("), not for this agent, agent-1");
        AgentReport sameNameOtherMember = call(sealed(job(run, "agent-1", java.util.UUID.randomUUID().toString())));
        assertThat(sameNameOtherMember.error()).as("agent-1's name, another member's UUID")
                .startsWith("refused a job for agent-1 (member ");
        assertThat(call(sealed(job(run, "agent-1"))).error()).as("its own, still new").startsWith("the spec it was sent");
    }

    /** A job it ran is refused after a restart too: the jobs seen are kept in a file and read back. */
    @Test
    void aJobSeenBeforeARestartIsStillAReplay(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        AgentState.secret(secret);
        java.nio.file.Path file = dir.resolve("jobs-seen-agent-1");
        AgentState.rememberJobsIn(file);
        String run = "run-" + System.nanoTime();
        String sealed = sealed(job(run, "agent-1"));
        assertThat(call(sealed).error()).startsWith("the spec it was sent");
        assertThat(file).content().startsWith(run + " agent-1 ");
        assertThat(java.nio.file.Files.getPosixFilePermissions(file)).containsExactlyInAnyOrder(
                java.nio.file.attribute.PosixFilePermission.OWNER_READ, java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        AgentState.forgetJobsForTest();
        AgentState.rememberJobsIn(file); // as a restarted agent reads it
        assertThat(call(sealed).error()).isEqualTo("refused a job for run " + run + " that it was sent before (a replay)");
    }

    @Test
    void aJobSealedUnderAnotherSecretIsRefused() throws Exception {
        secretInUse = ControlSecret.generate();
        AgentState.secret(secretInUse);
        AgentReport report = call(sealed(job("run-" + System.nanoTime(), "agent-1")));
        assertThat(report.error()).isEqualTo("refused a job not sealed with this control cluster's secret, or past its deadline");
    }

    /** The coordinator merges a report only when it opens for its run, its agent and that agent's member. */
    @Test
    void aReportOpensOnlyForItsRunAgentAndMember() throws Exception {
        AgentState.secret(secret);
        String run = "run-" + System.nanoTime();
        String sealed = new AgentTask("unused").sealReport(run, new AgentReport("agent-1", "host",
                "an error, as numbers would be"));
        assertThat(AgentTask.openReport(sealed, secret, run, "agent-1", SELF.toString())).isNotNull()
                .extracting(AgentReport::error).isEqualTo("an error, as numbers would be");
        assertThat(AgentTask.openReport(sealed, secret, run + "-other", "agent-1", SELF.toString())).as("another run").isNull();
        assertThat(AgentTask.openReport(sealed, secret, run, "agent-2", SELF.toString())).as("another agent").isNull();
        assertThat(AgentTask.openReport(sealed, secret, run, "agent-1", java.util.UUID.randomUUID().toString()))
                .as("another member under agent-1's name").isNull();
        assertThat(AgentTask.openReport(sealed, ControlSecret.generate(), run, "agent-1", SELF.toString()))
                .as("another secret").isNull();
        String forged = "cpbench-report " + run + " agent-1 " + SELF + "\n{\"agent\":\"agent-1\"}|" + Long.MAX_VALUE
                + "|" + "0".repeat(64);
        assertThat(AgentTask.openReport(forged, secret, run, "agent-1", SELF.toString())).as("a forged seal").isNull();
    }

    /** A clock reading is believed only as the answer of that member to that nonce, under the secret. */
    @Test
    void aClockReadingOpensOnlyForItsNonceAndMember() {
        String member = SELF.toString();
        String sealed = secret.seal(ClockTask.reply("n-1", member, 1_234_567L), ControlCluster.MESSAGE_VALID);
        assertThat(ClockTask.open(sealed, secret, "n-1", member)).isEqualTo(1_234_567L);
        assertThat(ClockTask.open(sealed, secret, "n-2", member)).as("another request's answer").isNull();
        assertThat(ClockTask.open(sealed, secret, "n-1", java.util.UUID.randomUUID().toString())).as("another member").isNull();
        assertThat(ClockTask.open(sealed, ControlSecret.generate(), "n-1", member)).as("another secret").isNull();
        assertThat(ClockTask.open(ClockTask.reply("n-1", member, 7), secret, "n-1", member)).as("unsealed").isNull();
    }
}
