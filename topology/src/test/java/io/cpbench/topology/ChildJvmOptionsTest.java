package io.cpbench.topology;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChildJvmOptionsTest {

    @Test
    void unsetOrBlankAddsNothing() {
        assertThat(ChildJvmOptions.parse(null)).isEmpty();
        assertThat(ChildJvmOptions.parse("")).isEmpty();
        assertThat(ChildJvmOptions.parse(" \t ")).isEmpty();
    }

    @Test
    void optionsAreSplitOnAnyRunOfSpaces() {
        assertThat(ChildJvmOptions.parse("  -XX:TieredStopAtLevel=1 \t -XX:+UseSerialGC -Dx=a=b "))
                .isEqualTo(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Dx=a=b"));
    }

    @Test
    void aWordThatIsNotAnOptionIsRefusedByName() {
        assertThatThrownBy(() -> ChildJvmOptions.parse("-Xmx512m Xmx1g")).isInstanceOf(TopologyException.class)
                .hasMessageStartingWith("CPBENCH_CHILD_JVM_OPTIONS: 'Xmx1g' is not a JVM option");
        assertThatThrownBy(() -> ChildJvmOptions.parse("- -Xmx1g")).hasMessageContaining("'-' is not");
    }
}
