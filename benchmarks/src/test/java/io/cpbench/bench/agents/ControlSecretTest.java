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
}
