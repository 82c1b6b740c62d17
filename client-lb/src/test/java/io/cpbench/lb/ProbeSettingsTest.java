package io.cpbench.lb;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProbeSettingsTest {

    @Test
    void noPropertiesGiveTheDefaults() {
        assertThat(ProbeSettings.fromProperties(Map.<String, String>of()::get)).isEqualTo(ProbeSettings.defaults());
    }

    @Test
    void propertiesOverrideTheDefaults() {
        ProbeSettings s = ProbeSettings.fromProperties(Map.of(
                ProbeSettings.CP_GROUP, "orders",
                ProbeSettings.PERIOD_MS, "500",
                ProbeSettings.WINDOW_MS, "4000",
                ProbeSettings.EXCLUDE_RATIO, "2.5",
                ProbeSettings.READMIT_RATIO, "1.2",
                ProbeSettings.STICKY, "false",
                ProbeSettings.LEADER_HINT, "FALSE",
                ProbeSettings.LEADER_SILENCE_MS, "0")::get);

        assertThat(s.cpGroup()).isEqualTo("orders");
        assertThat(s.period()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.window()).isEqualTo(Duration.ofSeconds(4));
        assertThat(s.excludeRatio()).isEqualTo(2.5);
        assertThat(s.readmitRatio()).isEqualTo(1.2);
        assertThat(s.sticky()).isFalse();
        assertThat(s.leaderHint()).isFalse();
        assertThat(s.leaderSilence()).isZero();
        assertThat(ProbeSettings.defaults().leaderSilence()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.minSamples()).isEqualTo(ProbeSettings.defaults().minSamples());
        assertThat(s.differencesFromDefaults()).isEqualTo("cpbench.lb.cp-group=orders, cpbench.lb.probe-period-ms=500,"
                + " cpbench.lb.window-ms=4000, cpbench.lb.exclude-ratio=2.5, cpbench.lb.readmit-ratio=1.2,"
                + " cpbench.lb.leader.sticky=false, cpbench.lb.leader.hint=false, cpbench.lb.leader.silence-ms=0");
        assertThat(ProbeSettings.fromProperties(s.toProperties()::get)).isEqualTo(s);
        assertThat(ProbeSettings.defaults().differencesFromDefaults()).isEmpty();
    }

    @Test
    void malformedOrInconsistentValuesNameTheProperty() {
        assertThatThrownBy(() -> ProbeSettings.fromProperties(Map.of(ProbeSettings.PERIOD_MS, "1s")::get))
                .hasMessage("cpbench.lb.probe-period-ms must be a whole number, got '1s'");
        assertThatThrownBy(() -> ProbeSettings.fromProperties(Map.of(ProbeSettings.STICKY, "yes")::get))
                .hasMessage("cpbench.lb.leader.sticky must be true or false, got 'yes'");
        assertThatThrownBy(() -> ProbeSettings.fromProperties(Map.of(ProbeSettings.EXCLUDE_RATIO, "0.9")::get))
                .hasMessageContaining("cpbench.lb.exclude-ratio > 1");
        assertThatThrownBy(() -> ProbeSettings.fromProperties(Map.of(ProbeSettings.WINDOW_MS, "100")::get))
                .hasMessage("cpbench.lb.window-ms (100) must be at least the probe period (1000 ms)");
        assertThatThrownBy(() -> ProbeSettings.fromProperties(Map.of(ProbeSettings.CP_GROUP, "a@b")::get))
                .hasMessage("cpbench.lb.cp-group must be a CP group name, got 'a@b'");
        assertThatThrownBy(() -> ProbeSettings.fromProperties(Map.of(ProbeSettings.LEADER_SILENCE_MS, "-5")::get))
                .hasMessage("cpbench.lb.leader.silence-ms must be 0 (off) or more, got -5 ms");
        assertThatThrownBy(() -> ProbeSettings.fromProperties(Map.of(ProbeSettings.SWITCH_MARGIN, "1")::get))
                .hasMessage("cpbench.lb.leader.switch-margin must be in [0, 1), got 1.0");
    }
}
