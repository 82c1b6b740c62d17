package io.cpbench.core.load;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlantedLostIncrementTest {

    @Test
    void offUnlessAskedAndBounded() {
        assertThat(PlantedLostIncrement.count(null)).isZero();
        assertThat(PlantedLostIncrement.count(" ")).isZero();
        assertThat(PlantedLostIncrement.count(" 3 ")).isEqualTo(3);
        assertThat(PlantedLostIncrement.count("1000")).isEqualTo(1000);
        assertThatThrownBy(() -> PlantedLostIncrement.count("0")).hasMessage("cpbench.plant.lost-increment must be 1 to 1000, was 0");
        assertThatThrownBy(() -> PlantedLostIncrement.count("1001")).hasMessageContaining("1 to 1000");
        assertThatThrownBy(() -> PlantedLostIncrement.count("one")).hasMessageContaining("a whole number");
        // off in this JVM: nothing is added, and nothing is said
        assertThat(PlantedLostIncrement.extraAcknowledged(0)).isZero();
        assertThat(PlantedLostIncrement.prefix()).isEmpty();
    }
}
