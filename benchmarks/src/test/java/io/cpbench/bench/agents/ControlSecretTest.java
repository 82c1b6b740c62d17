package io.cpbench.bench.agents;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The shared secret's file: owner-only as written, refused when others may read it or it holds something else. */
class ControlSecretTest {

    @TempDir
    Path dir;

    @Test
    void aWrittenSecretIsOwnerOnlyAndReadsBackToTheSameClusterName() throws Exception {
        Path file = dir.resolve("sub").resolve("control.secret");
        ControlSecret secret = ControlSecret.generate();
        secret.writeTo(file);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file).strip()).matches("[0-9a-f]{64}");
        ControlSecret read = ControlSecret.read(file);
        assertThat(read.clusterName()).isEqualTo(secret.clusterName()).matches("cpbench-control-[0-9a-f]{32}")
                .doesNotContain(Files.readString(file).strip().substring(0, 32));
        assertThat(ControlSecret.generate().clusterName()).as("another secret").isNotEqualTo(secret.clusterName());
        assertThat(read.toString()).doesNotContain(Files.readString(file).strip());
    }

    @Test
    void aFileOthersMayReadIsRefusedWithTheFix() throws Exception {
        Path file = dir.resolve("control.secret");
        ControlSecret.generate().writeTo(file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> ControlSecret.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the control secret " + file + " may be read by others (mode rw-r--r--); make it its owner's"
                        + " alone: chmod 600 " + file);
    }

    @Test
    void aMissingOrMalformedFileIsOneLine() throws Exception {
        Path missing = dir.resolve("none");
        assertThatThrownBy(() -> ControlSecret.read(missing)).hasMessageStartingWith("no control secret at " + missing);
        Path bad = dir.resolve("bad");
        Files.createFile(bad, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(bad, "hunter2\n");
        assertThatThrownBy(() -> ControlSecret.read(bad)).hasMessage(bad + " does not hold a control secret (64 hex"
                + " digits, as 'cpbench agent --new-secret' writes)");
    }

    /** A seal opens under its own secret alone, while its deadline lasts, and not once a byte of it changed. */
    @Test
    void aSealOpensUnderItsOwnSecretInTimeAndUntouchedOnly() throws Exception {
        ControlSecret secret = ControlSecret.generate();
        String sealed = secret.seal("run-1 agent-2", java.time.Duration.ofSeconds(30));
        assertThat(secret.open(sealed)).isEqualTo("run-1 agent-2");
        assertThat(ControlSecret.generate().open(sealed)).as("another secret").isNull();
        assertThat(secret.open(sealed.replace("run-1", "run-9"))).as("the text changed").isNull();
        String[] parts = sealed.split("\\|");
        long later = Long.parseLong(parts[1]) + 3_600_000_000L;
        assertThat(secret.open(parts[0] + "|" + later + "|" + parts[2])).as("the deadline moved").isNull();
        assertThat(secret.open(secret.seal("stop", java.time.Duration.ofMillis(-1)))).as("past its deadline").isNull();
        assertThat(secret.open("run-1")).as("no seal at all").isNull();
        assertThat(secret.open(null)).isNull();
        assertThat(secret.open("a|b|c")).isNull();
        assertThat(sealed).doesNotContain(secret.clusterName().substring("cpbench-control-".length()));
    }

    @Test
    void aJobRunsOnceOnAnAgent() {
        String run = "run-" + System.nanoTime();
        assertThat(AgentState.firstTime(run, "agent-1")).isTrue();
        assertThat(AgentState.firstTime(run, "agent-1")).as("the same job again: a replay").isFalse();
        assertThat(AgentState.firstTime(run, "agent-2")).as("another agent's part").isTrue();
    }
}
