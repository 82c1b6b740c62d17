package io.cpbench.core.result;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EnvironmentTest {

    @Test
    void childJvmOptionsAreRecordedOnlyWhenThereAreSome() {
        assertThat(Environment.childJvmOptions(null)).isNull();
        assertThat(Environment.childJvmOptions("  ")).isNull();
        assertThat(Environment.childJvmOptions(" -XX:TieredStopAtLevel=1 \t -XX:+UseSerialGC "))
                .isEqualTo("-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    }

    @Test
    void aRunWithoutThemWritesNoSuchField() throws Exception {
        Environment none = EnvironmentBuilder.builder(Environment.current()).childJvmOptions(null).build();
        Environment some = EnvironmentBuilder.builder(none).childJvmOptions("-XX:+UseSerialGC").build();
        ObjectMapper json = new ObjectMapper();
        assertThat(json.writeValueAsString(none)).doesNotContain("childJvmOptions");
        assertThat(json.readValue(json.writeValueAsString(some), Environment.class).childJvmOptions())
                .isEqualTo("-XX:+UseSerialGC");
    }
}
